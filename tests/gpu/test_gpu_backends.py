"""CUDA and Triton kernels on a real GPU: correct and timed, faults contained to one evaluation."""

from __future__ import annotations

import pytest

from kernelsearch.backends import RunMode
from kernelsearch.result import Stage

pytestmark = pytest.mark.gpu


def test_gpu_harnesses_run_for_real(cuda_harness, triton_harness):
    assert cuda_harness.mode is RunMode.RUN and triton_harness.mode is RunMode.RUN
    assert cuda_harness.arch.startswith("sm_")


def test_good_cuda_kernel_is_correct_and_timed_with_cuda_events(
    cuda_harness, add_relu_task, fixture_source
):
    result = cuda_harness.evaluate(add_relu_task, fixture_source("cuda", "1_add_relu.py"))
    assert result.stage is Stage.CORRECT, result.error
    assert result.runtime is not None and result.runtime.method == "cuda_event_l2_flush"
    assert result.runtime.trials == cuda_harness.config.gpu_timing_trials
    assert result.interpreted is False
    assert result.resources.get("registers", 0) > 0


def test_cuda_illegal_address_costs_one_eval_and_next_eval_runs(
    cuda_harness, add_relu_task, fixture_source
):
    bad = cuda_harness.evaluate(
        add_relu_task, fixture_source("cuda", "1_add_relu_illegal_address.py")
    )
    assert bad.stage is Stage.RUNTIME_ERROR, bad.error
    assert "illegal" in bad.error.lower() or "CUDA error" in bad.error
    good = cuda_harness.evaluate(add_relu_task, fixture_source("cuda", "1_add_relu.py"))
    assert good.stage is Stage.CORRECT, good.error


def test_triton_kernel_runs_on_the_gpu_and_is_timed(triton_harness, add_relu_task, fixture_source):
    result = triton_harness.evaluate(add_relu_task, fixture_source("triton", "1_add_relu.py"))
    assert result.stage is Stage.CORRECT, result.error
    assert result.interpreted is False
    assert result.runtime is not None and result.runtime.method == "cuda_event_l2_flush"
    assert result.resources["threads_per_block"] == 128


def test_triton_illegal_address_costs_one_eval_and_next_eval_runs(
    triton_harness, add_relu_task, fixture_source
):
    bad = triton_harness.evaluate(
        add_relu_task, fixture_source("triton", "1_add_relu_illegal_address.py")
    )
    assert bad.stage in (Stage.RUNTIME_ERROR, Stage.CRASHED), bad.error
    good = triton_harness.evaluate(add_relu_task, fixture_source("triton", "1_add_relu.py"))
    assert good.stage is Stage.CORRECT, good.error


def test_triton_compile_error_on_gpu_is_compile_failed(
    triton_harness, add_relu_task, fixture_source
):
    result = triton_harness.evaluate(
        add_relu_task, fixture_source("triton", "1_add_relu_compile_error.py")
    )
    assert result.stage is Stage.COMPILE_FAILED, result.error
    assert "ZERO" in result.compile_log
