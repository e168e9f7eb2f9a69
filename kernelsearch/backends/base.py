"""The Backend protocol: one implementation per kernel language, looked up by name.

A backend answers two kinds of question:
- in the orchestrator: what this machine can do with its kernels (`run_mode`), and what the
  sandbox worker needs (`worker_env`, memory-limit mode);
- inside the sandbox worker: how to prepare the process before the candidate is imported
  (`prepare`: build cache, compile-only hooks, interpreter), which device tensors live on,
  and how to time (`timer`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, Protocol

from kernelsearch.config import EvalConfig
from kernelsearch.harness.timing import Timer


class RunMode(str, Enum):
    RUN = "run"  # build, check and time for real
    INTERPRET = "interpret"  # correctness only (e.g. Triton interpreter on a CPU); never timed
    COMPILE_ONLY = "compile_only"  # built for the target architecture; nothing runs


@dataclass(frozen=True)
class WorkerContext:
    """What a backend gets inside the sandbox worker."""

    config: EvalConfig
    mode: RunMode
    arch: str
    scratch: Path
    cache_dir: Path


class Backend(Protocol):
    name: str
    language: str  # shown to the LLM: "C++ (CPU)", "CUDA C++", "Triton"
    device_kind: str  # "cpu" or "cuda": which device slots its runs hold

    def run_mode(self, config: EvalConfig) -> RunMode: ...

    def default_arch(self) -> str: ...

    def worker_env(self, config: EvalConfig, mode: RunMode) -> dict[str, str]: ...

    def memory_mode(self, mode: RunMode) -> str: ...  # "address_space" or "rss"

    # ---- inside the worker ----
    def prepare(self, ctx: WorkerContext) -> Any: ...  # returns the BuildCache (or similar)

    def device(self, ctx: WorkerContext) -> str: ...

    def timer(self, ctx: WorkerContext) -> Timer: ...

    def synchronize(self) -> None: ...

    def resources(self, prepared: Any) -> dict[str, Any]: ...
