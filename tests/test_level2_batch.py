"""The level 2 fusion batch: every file parses, the CPU manifest covers it, and each reduced
task runs forward on the CPU with a finite output of the documented shape.

The task files are our own, so they are executed in-process here (the harness runs
untrusted code in sandbox workers instead).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from kernelsearch.tasks import Task, load_batch, load_manifest

LEVEL2 = Path(__file__).resolve().parent.parent / "benchmarks" / "level2"
MANIFEST = LEVEL2 / "cpu_small.toml"
MIN_TASKS = 10
MAX_INPUT_BYTES = 50 * 1024 * 1024


def _expected_shape(name: str, s: dict[str, int | float]) -> tuple[int, ...]:
    """Output shape of each task, from its size constants."""
    shapes = {
        "1_Gemm_GELU_Scale": lambda: (s["batch_size"], s["out_features"]),
        "2_Conv2d_BatchNorm_ReLU": lambda: (
            s["batch_size"],
            s["out_channels"],
            s["height"],
            s["width"],
        ),
        "3_Matmul_Tanh_Sum": lambda: (s["batch_size"], 1),
        "4_Conv2d_GroupNorm_ChannelMean": lambda: (s["batch_size"], s["height"], s["width"]),
        "5_Gemm_LayerNorm_ResidualAdd": lambda: (s["batch_size"], s["features"]),
        "6_ConvTranspose2d_BiasAdd_Tanh": lambda: (
            s["batch_size"],
            s["out_channels"],
            s["height"] * s["stride"],
            s["width"] * s["stride"],
        ),
        "7_Linear_Softmax_Dropout": lambda: (s["batch_size"], s["out_features"]),
        "8_BMM_Scale_Softmax_BMM": lambda: (s["batch_heads"], s["seq_len"], s["head_dim"]),
        "9_Conv3d_ReLU_MaxPool3d": lambda: (
            s["batch_size"],
            s["out_channels"],
            s["depth"] // s["pool_size"],
            s["height"] // s["pool_size"],
            s["width"] // s["pool_size"],
        ),
        "10_Gemm_Swish_Clamp": lambda: (s["batch_size"], s["out_features"]),
        "11_Conv2d_Mish_AvgPool2d": lambda: (
            s["batch_size"],
            s["out_channels"],
            s["height"] // s["pool_size"],
            s["width"] // s["pool_size"],
        ),
        "12_Gemm_LogSumExp_ReLU": lambda: (s["batch_size"], 1),
    }
    return tuple(int(v) for v in shapes[name]())


def _run(task: Task, source: str) -> tuple[torch.Tensor, list[torch.Tensor]]:
    namespace: dict = {}
    exec(compile(source, str(task.path), "exec"), namespace)
    torch.manual_seed(0)
    model = namespace["Model"](*namespace["get_init_inputs"]())
    inputs = namespace["get_inputs"]()
    with torch.no_grad():
        return model(*inputs), inputs


MANIFEST_TASKS = load_manifest(MANIFEST)


def test_level2_directory_loads_as_a_batch_in_numeric_order():
    tasks = load_batch(LEVEL2)
    assert len(tasks) >= MIN_TASKS
    prefixes = [int(t.name.split("_", 1)[0]) for t in tasks]
    assert prefixes == sorted(prefixes) and len(set(prefixes)) == len(prefixes)


def test_manifest_lists_every_level2_file_with_reduced_sizes():
    files = {t.path.name for t in load_batch(LEVEL2)}
    assert {t.path.name for t in MANIFEST_TASKS} == files
    for task in MANIFEST_TASKS:
        assert task.sizes, f"{task.name}: no size overrides in {MANIFEST.name}"
        full = load_batch(task.path)[0].size_constants()
        reduced = task.size_constants()
        assert any(reduced[k] < full[k] for k in task.sizes), task.name


@pytest.mark.parametrize("task", load_batch(LEVEL2), ids=lambda t: t.name)
def test_every_task_has_a_known_output_shape(task):
    assert _expected_shape(task.name, task.size_constants())


@pytest.mark.parametrize("task", MANIFEST_TASKS, ids=lambda t: t.name)
def test_reduced_task_runs_on_cpu_with_finite_output_of_expected_shape(task):
    out, inputs = _run(task, task.effective_source)
    assert sum(x.numel() * x.element_size() for x in inputs) < MAX_INPUT_BYTES
    assert all(x.device.type == "cpu" for x in inputs)
    assert tuple(out.shape) == _expected_shape(task.name, task.size_constants())
    assert out.dtype == torch.float32
    assert torch.isfinite(out).all()
    # Outputs a tolerance check can tell from zeros or a constant (KernelBench hack 7).
    assert out.abs().max() > 0.05
    assert out.flatten().std() > 1e-3


@pytest.mark.parametrize("task", load_batch(LEVEL2), ids=lambda t: t.name)
def test_full_size_task_builds_on_the_meta_device(task):
    namespace: dict = {}
    exec(compile(task.source, str(task.path), "exec"), namespace)
    with torch.device("meta"):
        model = namespace["Model"](*namespace["get_init_inputs"]())
        out = model(*namespace["get_inputs"]())
    assert out.device.type == "meta"
    assert tuple(out.shape) == _expected_shape(task.name, task.size_constants())
