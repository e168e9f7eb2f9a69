"""Who may use the machine when: builds share CPU cores; timed runs hold their device alone.

- `CpuSlots` (cpu backend): up to N builds at once, but a run is exclusive — no build and no
  other run shares the cores while a CPU kernel is being checked and timed.
- `GpuSlots` (cuda/triton): up to N builds on CPU cores in parallel with runs; each run holds
  one GPU exclusively and learns its index (used for CUDA_VISIBLE_DEVICES).
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Iterator
from typing import Protocol


class Slots(Protocol):
    def build(self) -> contextlib.AbstractContextManager[None]: ...

    def run(self) -> contextlib.AbstractContextManager[int | None]: ...


class Unlimited:
    """No scheduling (one evaluation at a time from the CLI)."""

    @contextlib.contextmanager
    def build(self) -> Iterator[None]:
        yield

    @contextlib.contextmanager
    def run(self) -> Iterator[int | None]:
        yield None


class CpuSlots:
    def __init__(self, max_builds: int):
        self._max_builds = max(1, max_builds)
        self._cond = threading.Condition()
        self._builds = 0
        self._running = False
        self._runs_waiting = 0

    @contextlib.contextmanager
    def build(self) -> Iterator[None]:
        with self._cond:
            # Waiting runs go first, so timing is never starved by a stream of builds.
            self._cond.wait_for(
                lambda: (
                    not self._running
                    and self._runs_waiting == 0
                    and self._builds < self._max_builds
                )
            )
            self._builds += 1
        try:
            yield
        finally:
            with self._cond:
                self._builds -= 1
                self._cond.notify_all()

    @contextlib.contextmanager
    def run(self) -> Iterator[int | None]:
        with self._cond:
            self._runs_waiting += 1
            self._cond.wait_for(lambda: not self._running and self._builds == 0)
            self._runs_waiting -= 1
            self._running = True
        try:
            yield None
        finally:
            with self._cond:
                self._running = False
                self._cond.notify_all()


class GpuSlots:
    def __init__(self, max_builds: int, gpus: list[int]):
        if not gpus:
            raise ValueError("GpuSlots needs at least one GPU index")
        self._builds = threading.BoundedSemaphore(max(1, max_builds))
        self._free: queue.Queue[int] = queue.Queue()
        for g in gpus:
            self._free.put(g)

    @contextlib.contextmanager
    def build(self) -> Iterator[None]:
        with self._builds:
            yield

    @contextlib.contextmanager
    def run(self) -> Iterator[int | None]:
        gpu = self._free.get()
        try:
            yield gpu
        finally:
            self._free.put(gpu)
