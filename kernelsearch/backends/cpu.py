"""CPU C++ kernels: `ModelNew` built with `load_inline` (OpenMP allowed), run and timed for real."""

from __future__ import annotations

import platform
import shutil
import subprocess
from functools import lru_cache
from typing import Any

from kernelsearch.backends.base import RunMode, WorkerContext
from kernelsearch.config import EvalConfig
from kernelsearch.harness import buildcache
from kernelsearch.harness.timing import CpuTimer, Timer


@lru_cache(maxsize=1)
def cxx_version() -> str:
    cxx = shutil.which("c++") or shutil.which("g++")
    if not cxx:
        return "no-c++"
    try:
        out = subprocess.run([cxx, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "unknown-c++"
    return out.splitlines()[0] if out else "unknown-c++"


class CpuBackend:
    name = "cpu"
    language = "C++ (CPU, torch load_inline, OpenMP allowed)"
    device_kind = "cpu"

    def run_mode(self, config: EvalConfig) -> RunMode:
        return RunMode.RUN

    def default_arch(self) -> str:
        return platform.machine()

    def worker_env(self, config: EvalConfig, mode: RunMode) -> dict[str, str]:
        env = {"MAX_JOBS": "2"}
        if config.threads:
            env["OMP_NUM_THREADS"] = str(config.threads)
        return env

    def memory_mode(self, mode: RunMode) -> str:
        return "address_space"

    def prepare(self, ctx: WorkerContext) -> Any:
        import torch

        return buildcache.install(
            ctx.cache_dir / "builds",
            toolchain=f"cpu|{cxx_version()}|torch {torch.__version__}",
        )

    def device(self, ctx: WorkerContext) -> str:
        return "cpu"

    def timer(self, ctx: WorkerContext) -> Timer:
        return CpuTimer()

    def synchronize(self) -> None:
        return None

    def resources(self, prepared: Any) -> dict[str, Any]:
        return {}
