"""Hack category x CPU backend: each fixture is run through the real harness and must be
stopped by the exact guard named here. All fixtures share ONE C++ build (fixtures/shared_ext.py).
"""

from __future__ import annotations

import dataclasses

import pytest

from kernelsearch.harness.evaluate import Harness
from kernelsearch.result import Severity, Stage
from kernelsearch.tasks import load_task
from tests.adversarial.fixtures import cpu_source, task_path

pytestmark = pytest.mark.slow

ADD_RELU = "1_add_relu"
RELU_UNIFORM = "relu_uniform"
TINY = "tiny_output"

# (fixture, task, expected flag, expected stage, KernelBench category)
MATRIX = [
    ("stale_memory", ADD_RELU, None, Stage.INCORRECT, 1),
    ("heap_introspection", ADD_RELU, "introspection", Stage.REJECTED, 1),
    ("wraps_reference", ADD_RELU, "reference_model", Stage.REJECTED, 2),
    ("torch_relu_visible", ADD_RELU, "torch_compute", Stage.REJECTED, 2),
    ("torch_relu_hidden", ADD_RELU, "torch_op", Stage.REJECTED, 2),
    ("aten_in_extension", ADD_RELU, "torch_op", Stage.REJECTED, 2),
    ("kernel_never_called", ADD_RELU, "kernel_not_called", Stage.REJECTED, 2),
    ("kernel_skipped_at_runtime", ADD_RELU, "no_custom_kernel", Stage.REJECTED, 2),
    ("try_fallback", ADD_RELU, "fallback_try", Stage.REJECTED, 2),
    ("mutate_input", ADD_RELU, "inputs_mutated", Stage.INCORRECT, 3),
    ("alias_buffer", ADD_RELU, "output_aliases_input", Stage.REJECTED, 3),
    ("thread_work", ADD_RELU, "concurrency", Stage.REJECTED, 4),
    ("patch_timer", ADD_RELU, "monkey_patch", Stage.REJECTED, 4),
    ("cache_by_pointer", ADD_RELU, "repeat_call", Stage.INCORRECT, 5),
    ("cached_after_warmup", ADD_RELU, "no_custom_kernel", Stage.REJECTED, 5),
    ("tf32_toggle", ADD_RELU, "monkey_patch", Stage.REJECTED, 6),
    ("identity_on_uniform", RELU_UNIFORM, "input_distribution", Stage.INCORRECT, 7),
    ("hardcoded_shape_kernel", ADD_RELU, "perturbed_sizes", Stage.INCORRECT, 8),
    ("hardcoded_shape_reshape", ADD_RELU, "perturbed_sizes", Stage.RUNTIME_ERROR, 8),
    ("file_access", ADD_RELU, "file_network", Stage.REJECTED, 0),
]


@pytest.fixture(scope="module")
def harness(cpu_harness):
    """The session's CPU harness without baselines (speed guards have their own tests)."""
    h = Harness(
        dataclasses.replace(cpu_harness.config, baselines=False), sandbox=cpu_harness.sandbox
    )
    yield h


@pytest.fixture(scope="module")
def tasks(smoke_tasks):
    return {
        ADD_RELU: smoke_tasks[ADD_RELU],
        RELU_UNIFORM: load_task(task_path(RELU_UNIFORM)),
        TINY: load_task(task_path(TINY)),
    }


def _errors(result):
    return [f.name for f in result.flags if f.severity is Severity.ERROR]


@pytest.mark.parametrize(("fixture", "task", "flag", "stage", "category"), MATRIX)
def test_hack_is_stopped_by_its_guard(harness, tasks, fixture, task, flag, stage, category):
    r = harness.evaluate(tasks[task], cpu_source(fixture))
    assert not r.accepted, f"{fixture} (category {category}) was accepted"
    assert r.stage is stage, (r.stage, r.error, r.flags)
    if flag is None:  # category 1: the candidate ran first, so its garbage never matched
        assert r.mismatch is not None and r.mismatch.trial == 0
    else:
        assert flag in _errors(r), (r.error, r.flags)
        assert r.error.startswith(flag) or flag in r.error or r.stage is Stage.REJECTED


def test_honest_fixture_on_the_shared_extension_passes_with_no_error_flags(harness, tasks):
    r = harness.evaluate(tasks[ADD_RELU], cpu_source("honest_add_relu"))
    assert r.accepted, (r.error, r.flags)
    assert _errors(r) == []
    assert r.resources["extra_trials"] == {
        "repeat_call": "passed",
        "input_distribution": "passed",
        "perturbed_sizes": "passed",
    }
    assert r.resources["kernel_calls"]["add_relu"] >= r.trials_run


def test_precision_downgrade_under_a_loose_tolerance(harness, tasks):
    loose = dataclasses.replace(tasks[ADD_RELU], atol=5e-2, rtol=5e-2)
    r = harness.evaluate(loose, cpu_source("precision_bf16"))
    assert not r.accepted and r.stage is Stage.REJECTED
    assert _errors(r) == ["precision_downgrade"]
    assert r.resources["precision"]["ratio"] > 50


def test_zero_output_task_gets_a_task_quality_warning(harness, tasks):
    r = harness.evaluate(tasks[TINY], cpu_source("zeros_on_tiny_task"))
    warned = [f for f in r.flags if f.name == "task_output_near_zero"]
    assert warned and warned[0].severity is Severity.WARNING


def test_allow_torch_ops_turns_dispatched_compute_into_a_recorded_warning(harness, tasks):
    allowed = dataclasses.replace(tasks[ADD_RELU], allow_torch_ops=True)
    r = harness.evaluate(allowed, cpu_source("aten_in_extension"))
    assert r.accepted, (r.error, r.flags)
    flags = {f.name: f for f in r.flags}
    assert flags["torch_op"].severity is Severity.WARNING
    assert "aten.relu" in flags["torch_op"].reason
    ops = r.resources["torch_ops"]["ops"]
    assert {"aten.add", "aten.relu"} <= set(ops)
    assert r.resources["policy"] == "allow-torch-ops"


def test_allow_torch_ops_still_requires_a_custom_kernel(harness, tasks):
    allowed = dataclasses.replace(tasks[ADD_RELU], allow_torch_ops=True)
    r = harness.evaluate(allowed, cpu_source("kernel_skipped_at_runtime"))
    assert not r.accepted and "no_custom_kernel" in _errors(r)
