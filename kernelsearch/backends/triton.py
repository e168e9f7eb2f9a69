"""Triton kernels: `@triton.jit` functions in the candidate module, launched from `forward`.

- RUN (a CUDA GPU): real Triton on the GPU, timed with CUDA events; registers, spills and
  shared memory of each kernel's first compiled variant.
- INTERPRET (no GPU): kernels run under the Triton interpreter for correctness only (never
  timed, `interpreted: true`); the first launch of each kernel is recorded and compiled ahead
  of time for the target architecture (real Triton compile errors, resource usage from the
  cubin).

A compile error found either way is kept by the recorder and reported by `resources()` as
a `BuildError`, so the evaluation ends as `compile_failed` with Triton's message.
"""

from __future__ import annotations

from typing import Any

from kernelsearch.backends import triton_aot
from kernelsearch.backends.arch import cuda_gpu_available, default_gpu_arch
from kernelsearch.backends.base import RunMode, WorkerContext
from kernelsearch.config import EvalConfig
from kernelsearch.harness import buildcache
from kernelsearch.harness.timing import CpuTimer, CudaEventTimer, Timer

# The AOT compile runs inside the evaluation's run time limit, after the interpreter.
AOT_SHARE_OF_RUN_TIMEOUT = 0.5


class TritonBackend:
    name = "triton"
    language = "Triton (@triton.jit kernels launched from forward)"
    device_kind = "cuda"

    def run_mode(self, config: EvalConfig) -> RunMode:
        return RunMode.RUN if cuda_gpu_available() else RunMode.INTERPRET

    def default_arch(self) -> str:
        return default_gpu_arch()

    def worker_env(self, config: EvalConfig, mode: RunMode) -> dict[str, str]:
        # Keep Triton's long-standing default (FMA fusion on) explicit: 3.9 warns when unset.
        env = {"TRITON_DEFAULT_FP_FUSION": "1"}
        if mode is RunMode.INTERPRET:
            env["TRITON_INTERPRET"] = "1"
        return env

    def memory_mode(self, mode: RunMode) -> str:
        return "rss" if mode is RunMode.RUN else "address_space"

    # ---- inside the worker ----
    def prepare(self, ctx: WorkerContext) -> Any:
        if ctx.mode is RunMode.INTERPRET:
            recorder = triton_aot.InterpreterRecorder(arch=ctx.arch)
            recorder.compile_timeout_s = ctx.config.run_timeout_s * AOT_SHARE_OF_RUN_TIMEOUT
            return recorder.install()
        return triton_aot.JitRecorder().install()

    def device(self, ctx: WorkerContext) -> str:
        # The executor sets CUDA_VISIBLE_DEVICES per run: the assigned GPU is always cuda:0.
        return "cuda:0" if ctx.mode is RunMode.RUN else "cpu"

    def timer(self, ctx: WorkerContext) -> Timer:
        # The interpreter is never timed; CPU baselines (eager, compile) still can be.
        return CudaEventTimer() if ctx.mode is RunMode.RUN else CpuTimer()

    def synchronize(self) -> None:
        import torch

        if torch.cuda.is_initialized():
            torch.cuda.synchronize()

    def resources(self, prepared: Any) -> dict[str, Any]:
        """Per-kernel figures of what launched; raises BuildError if a kernel did not compile."""
        recorder: triton_aot.Recorder = prepared
        if isinstance(recorder, triton_aot.InterpreterRecorder):
            recorder.compile_recorded(recorder.compile_timeout_s)
        failed = recorder.compile_errors
        if failed:
            log_text = "\n\n".join(f"{r.name}:\n{r.error}" for r in failed)
            raise buildcache.BuildError(log_text)
        source = (
            "cuobjdump of the AOT cubin"
            if isinstance(recorder, triton_aot.InterpreterRecorder)
            else "triton compiled kernel"
        )
        return recorder.resources(source)
