"""The level 1 batch: single operators at H100 sizes, and a CPU-sized manifest of all of them.

The task files are our own, so running them in-process here is fine (candidate kernels never
run this way). Full sizes are exercised on the meta device, which computes shapes only.
"""

import re
from pathlib import Path

import pytest
import torch

from kernelsearch.tasks import Task, load_batch

LEVEL1_DIR = Path(__file__).resolve().parent.parent / "benchmarks" / "level1"
CPU_MANIFEST = LEVEL1_DIR / "cpu_small.toml"
MIN_TASKS = 25
CPU_INPUT_LIMIT_BYTES = 50 * 10**6

LEVEL1_TASKS = load_batch(LEVEL1_DIR)
CPU_TASKS = load_batch(CPU_MANIFEST)


def _namespace(task: Task) -> dict:
    namespace: dict = {"__name__": f"level1_{task.name}"}
    exec(compile(task.effective_source, str(task.path), "exec"), namespace)
    return namespace


def _tensor_bytes(values) -> int:
    return sum(v.numel() * v.element_size() for v in values if isinstance(v, torch.Tensor))


def test_level1_has_enough_tasks_numbered_without_gaps():
    numbers = [int(re.match(r"(\d+)_", t.name).group(1)) for t in LEVEL1_TASKS]
    assert len(LEVEL1_TASKS) >= MIN_TASKS
    assert numbers == list(range(1, len(LEVEL1_TASKS) + 1))


def test_every_level1_task_states_its_h100_estimate_at_the_top():
    for task in LEVEL1_TASKS:
        assert task.source.startswith("# H100 estimate"), task.name
        assert " ms" in task.source.split('"""')[0], task.name


def test_cpu_manifest_lists_every_level1_task_once_with_reduced_sizes():
    assert sorted(t.path for t in CPU_TASKS) == sorted(t.path for t in LEVEL1_TASKS)
    for task in CPU_TASKS:
        assert task.sizes, f"{task.name}: no size overrides in {CPU_MANIFEST.name}"
        assert set(task.sizes) <= set(task.size_constants())


@pytest.mark.parametrize("task", CPU_TASKS, ids=lambda t: t.name)
def test_reduced_task_runs_forward_on_cpu_with_finite_output(task):
    namespace = _namespace(task)
    torch.manual_seed(0)
    model = namespace["Model"](*namespace["get_init_inputs"]())
    inputs = namespace["get_inputs"]()
    assert _tensor_bytes(inputs) < CPU_INPUT_LIMIT_BYTES
    with torch.no_grad():
        out = model(*inputs)
    assert isinstance(out, torch.Tensor)
    assert out.numel() > 0
    assert torch.isfinite(out.double()).all()


@pytest.mark.parametrize("task", LEVEL1_TASKS, ids=lambda t: t.name)
def test_full_size_task_runs_on_the_meta_device(task):
    namespace = _namespace(task)
    with torch.device("meta"):
        model = namespace["Model"](*namespace["get_init_inputs"]())
        inputs = namespace["get_inputs"]()
        out = model(*inputs)
    assert out.is_meta
    # Full sizes are meant for a GPU: far more data than the CPU manifest allows.
    assert _tensor_bytes([*inputs, out]) > CPU_INPUT_LIMIT_BYTES
