"""Executors: where evaluations run. The search talks only to the `Executor` protocol.

`LocalExecutor` runs the harness on this machine: builds on a pool of CPU cores ahead of runs,
runs holding an exclusive device slot (the CPU's cores for the cpu backend, one GPU each for
cuda/triton). A cluster executor is another class with the same four methods.
"""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Protocol

from kernelsearch.config import EvalConfig
from kernelsearch.harness.evaluate import Harness
from kernelsearch.harness.slots import CpuSlots, GpuSlots, Slots
from kernelsearch.result import EvalResult
from kernelsearch.tasks import Task

MAX_IN_FLIGHT = 64  # threads waiting on sandboxed jobs (they mostly sleep)


class Executor(Protocol):
    backend: str

    def can_time(self) -> bool: ...

    async def evaluate(self, task: Task, source: str) -> EvalResult: ...

    async def retime(self, task: Task, source: str, trials: int) -> EvalResult: ...

    async def aclose(self) -> None: ...


class LocalExecutor:
    def __init__(
        self, config: EvalConfig, max_builds: int | None = None, harness: Harness | None = None
    ):
        self.harness = harness or Harness(config)
        self.backend = self.harness.backend.name
        builds = max_builds or max(1, os.cpu_count() or 1)
        self.slots: Slots
        if self.harness.backend.device_kind == "cpu" or not self.harness.can_time:
            self.slots = CpuSlots(builds)
        else:
            gpus = self.harness.device_info().gpus
            self.slots = GpuSlots(builds, list(range(max(1, gpus))))
        self._pool = ThreadPoolExecutor(max_workers=MAX_IN_FLIGHT, thread_name_prefix="ks-eval")

    def can_time(self) -> bool:
        return self.harness.can_time

    async def _call(self, fn, *args):  # type: ignore[no-untyped-def]
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    async def evaluate(self, task: Task, source: str) -> EvalResult:
        return await self._call(lambda: self.harness.evaluate(task, source, slots=self.slots))

    async def retime(self, task: Task, source: str, trials: int) -> EvalResult:
        """`trials` fresh processes, each timing the kernel between baseline measurements."""
        return await self._call(
            lambda: self.harness.retime(task, source, rounds=trials, slots=self.slots)
        )

    async def aclose(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        self.harness.close()


def make_executor(config: EvalConfig) -> LocalExecutor:
    return LocalExecutor(config)
