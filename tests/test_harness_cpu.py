"""The CPU backend end to end, with real builds. One C++ source (smoke add_relu) is built once
per session; variants change only its Python side, so each stage costs no new build."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from kernelsearch.config import EvalConfig
from kernelsearch.harness.evaluate import Harness
from kernelsearch.result import Stage

pytestmark = pytest.mark.slow

CALL = "return _ext.add_relu(a, b)"


def variant(kernel: str, body: str, prelude: str = "") -> str:
    assert CALL in kernel
    return prelude + kernel.replace(CALL, body)


def test_good_kernel_is_correct_timed_and_compared_with_both_baselines(
    cpu_harness, smoke_tasks, add_relu_kernel
):
    r = cpu_harness.evaluate(smoke_tasks["1_add_relu"], add_relu_kernel)
    assert r.stage is Stage.CORRECT and r.accepted, r.error or r.compile_log
    assert r.trials_passed == r.trials_run == 5
    assert (
        r.runtime is not None and r.runtime.method == "cpu_perf_counter" and r.runtime.trials == 5
    )
    assert r.baseline_eager is not None and r.speedup_eager and r.speedup_eager > 0
    assert r.baseline_compile is not None and r.speedup_compile and r.speedup_compile > 0
    assert r.bytes_moved and r.bytes_moved > 0
    assert r.device and not r.interpreted


def test_identical_source_builds_once(cpu_harness, smoke_tasks, add_relu_kernel, cache_dir):
    task = smoke_tasks["1_add_relu"]
    cpu_harness.evaluate(task, add_relu_kernel)
    libs = sorted((cache_dir / "builds").glob("*/*.so"))
    mtimes = [p.stat().st_mtime_ns for p in libs]
    marker = cpu_harness._marker(add_relu_kernel)
    assert marker.exists()
    again = cpu_harness.evaluate(task, add_relu_kernel + "\n# same kernel, other text\n")
    assert again.accepted
    assert [p.stat().st_mtime_ns for p in libs] == mtimes  # nothing was rebuilt
    assert sorted((cache_dir / "builds").glob("*/*.so")) == libs


def test_runtime_error_in_forward(cpu_harness, smoke_tasks, add_relu_kernel):
    r = cpu_harness.evaluate(
        smoke_tasks["1_add_relu"], variant(add_relu_kernel, "return _ext.add_relu(a, b[:1])")
    )
    assert r.stage is Stage.RUNTIME_ERROR and not r.accepted
    assert "same shape" in r.error


def test_wrong_values_are_incorrect_with_figures(cpu_harness, smoke_tasks, add_relu_kernel):
    r = cpu_harness.evaluate(
        smoke_tasks["1_add_relu"], variant(add_relu_kernel, "return _ext.add_relu(a, a)")
    )
    assert r.stage is Stage.INCORRECT and not r.accepted
    m = r.mismatch
    assert m is not None and m.trial == 0 and m.max_abs_diff > 0 and 0 < m.bad_fraction <= 1
    assert m.first_bad_index is not None and len(m.first_bad_index) == 2


def test_input_mutation_fails_the_check(cpu_harness, smoke_tasks, add_relu_kernel):
    body = "out = _ext.add_relu(a, b)\n        a.mul_(2.0)\n        return out"
    # run() skips the static guards (which reject mul_ in forward): this is the runtime check.
    r = cpu_harness.run(smoke_tasks["1_add_relu"], variant(add_relu_kernel, body))
    assert not r.accepted
    assert "modified its input" in r.error or any("input" in f.name for f in r.flags)


@pytest.mark.parametrize(
    ("body", "stage", "words"),
    [
        ("import ctypes; ctypes.string_at(0)", Stage.CRASHED, "SIGSEGV"),
        ("import os; os._exit(7)", Stage.CRASHED, "code 7"),
        ("import time; time.sleep(600)", Stage.TIMEOUT, "wall-clock limit"),
        ("x = torch.empty(8 * 2**30); return x", Stage.RUNTIME_ERROR, ""),
    ],
)
def test_crash_hang_and_oom_each_cost_one_evaluation(
    cpu_harness, smoke_tasks, add_relu_kernel, body, stage, words
):
    short = Harness(
        dataclasses.replace(cpu_harness.config, run_timeout_s=15, memory_limit_mb=2048),
        sandbox=cpu_harness.sandbox,
    )
    task = smoke_tasks["1_add_relu"]
    source = variant(add_relu_kernel, body)
    assert short.build(task, source) is None  # cached build: the run gets only its own limit
    r = short.run(task, source)
    assert r.stage is stage and not r.accepted
    assert words in r.error
    assert short.run(task, add_relu_kernel).accepted  # the next evaluation is unaffected


def test_compile_error_is_compile_failed_with_the_compiler_message(
    cpu_harness, smoke_tasks, add_relu_kernel
):
    broken = add_relu_kernel.replace(
        "const float s = pa[i] + pb[i];", "const float s = pa[i] + undeclared_q;"
    )
    r = cpu_harness.evaluate(smoke_tasks["1_add_relu"], broken)
    assert r.stage is Stage.COMPILE_FAILED and not r.accepted
    assert "undeclared_q" in r.compile_log and "error" in r.compile_log


def test_source_without_model_new_is_static_failed(cpu_harness, smoke_tasks):
    r = cpu_harness.evaluate(smoke_tasks["1_add_relu"], "import torch\nclass Other: pass\n")
    assert r.stage is Stage.STATIC_FAILED and "ModelNew" in r.error
    r = cpu_harness.evaluate(smoke_tasks["1_add_relu"], "def broken(:\n")
    assert r.stage is Stage.STATIC_FAILED and "syntax" in r.error


def test_baselines_are_cached_per_task_and_sizes(cpu_harness, smoke_tasks, tmp_path: Path):
    harness = Harness(
        dataclasses.replace(cpu_harness.config, cache_dir=tmp_path), sandbox=cpu_harness.sandbox
    )
    task = smoke_tasks["3_row_sum"]
    first = harness.baseline(task)
    second = harness.baseline(task)
    assert not first.cached and second.cached and second.eager == first.eager
    resized = harness.baseline(task.with_sizes({next(iter(task.size_constants())): 8}))
    assert not resized.cached
    assert len(list((tmp_path / "baselines").glob("*.json"))) == 2


def test_retime_interleaves_fresh_processes(cpu_harness, smoke_tasks, add_relu_kernel):
    r = cpu_harness.retime(smoke_tasks["1_add_relu"], add_relu_kernel, rounds=2)
    assert r.accepted and r.runtime.trials == 2 and "interleaved" in r.runtime.method
    assert r.baseline_eager is not None and r.baseline_eager.trials == 2


def test_worker_has_private_network_and_no_privileges(cpu_harness):
    sb = cpu_harness.device_info().sandbox
    if os.geteuid() == 0:
        assert sb["network"] == "private"
        assert sb["privileges"] in ("nobody", "capabilities")


def test_timeout_defaults_leave_room_for_nvcc():
    assert EvalConfig().compile_timeout_s >= 300
