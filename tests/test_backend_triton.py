"""Triton backend without a GPU: interpreter for correctness, real AOT compiles for sm_90a."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kernelsearch.backends import RunMode, get_backend
from kernelsearch.backends.arch import cuda_gpu_available
from kernelsearch.backends.triton_aot import _rebuild, _spec
from kernelsearch.config import EvalConfig
from kernelsearch.harness.evaluate import Harness
from kernelsearch.result import Stage
from kernelsearch.tasks import load_task

ROOT = Path(__file__).resolve().parents[1]
SMOKE = ROOT / "benchmarks" / "smoke"
FIXTURES = ROOT / "tests" / "fixtures" / "kernels" / "triton"

no_gpu_only = pytest.mark.skipif(
    cuda_gpu_available(), reason="with a GPU the triton backend runs for real (tests/gpu)"
)


def _config() -> EvalConfig:
    cache = os.environ.get("KERNELSEARCH_CACHE")
    base = EvalConfig(backend="triton", arch="sm_90a", baselines=False)
    return base.replace(cache_dir=Path(cache)) if cache else base


@pytest.fixture(scope="module")
def harness():
    with Harness(_config()) as h:
        yield h


def test_triton_backend_is_registered_with_gpu_run_modes():
    backend = get_backend("triton")
    assert backend.name == "triton" and backend.device_kind == "cuda"
    expected = RunMode.RUN if cuda_gpu_available() else RunMode.INTERPRET
    assert backend.run_mode(EvalConfig(backend="triton")) is expected


def test_interpret_mode_sets_the_interpreter_env_and_run_mode_does_not():
    backend = get_backend("triton")
    config = EvalConfig(backend="triton")
    assert backend.worker_env(config, RunMode.INTERPRET)["TRITON_INTERPRET"] == "1"
    assert "TRITON_INTERPRET" not in backend.worker_env(config, RunMode.RUN)


def test_launch_spec_keeps_dtype_alignment_and_constexpr_values():
    import torch

    t = torch.zeros(8, dtype=torch.float16)
    specs = [_spec(t), _spec(t[1:]), _spec(1024), _spec(None), _spec((2, 3.5))]
    rebuilt = [_rebuild(s) for s in specs]
    assert rebuilt[0].dtype == torch.float16 and rebuilt[0].data_ptr() % 16 == 0
    assert rebuilt[1].dtype == torch.float16 and rebuilt[1].data_ptr() % 16 != 0
    assert rebuilt[2:] == [1024, None, (2, 3.5)]


@no_gpu_only
@pytest.mark.slow
def test_good_triton_kernel_is_correct_under_interpreter_with_aot_resources(harness):
    task = load_task(SMOKE / "1_add_relu.py")
    result = harness.evaluate(task, (FIXTURES / "1_add_relu.py").read_text())
    assert result.stage is Stage.CORRECT, result.error
    assert result.interpreted is True
    assert result.runtime is None  # the interpreter is never timed
    assert result.resources["registers"] > 0
    assert result.resources["threads_per_block"] == 4 * 32
    assert result.resources["kernels"][0]["arch"] == "sm_90a"


@no_gpu_only
@pytest.mark.slow
@pytest.mark.parametrize("name", ["2_row_softmax", "4_matmul"])
def test_kernels_calling_tritons_library_functions_run_in_the_interpreter(harness, name):
    # tl.max, tl.sum, tl.zeros are @triton.jit functions of Triton itself: the worker must
    # import Triton with TRITON_INTERPRET already set, or they refuse to run ("Cannot call
    # @triton.jit'd outside of the scope of a kernel").
    result = harness.evaluate(
        load_task(SMOKE / f"{name}.py"), (FIXTURES / f"{name}.py").read_text()
    )
    assert result.stage is Stage.CORRECT, result.error
    assert result.interpreted is True


@no_gpu_only
@pytest.mark.slow
def test_kernel_the_interpreter_accepts_but_triton_cannot_compile_is_compile_failed(harness):
    task = load_task(SMOKE / "1_add_relu.py")
    result = harness.evaluate(task, (FIXTURES / "1_add_relu_compile_error.py").read_text())
    assert result.stage is Stage.COMPILE_FAILED, result.error
    assert "Cannot access global variable ZERO" in result.compile_log
    assert not result.accepted
