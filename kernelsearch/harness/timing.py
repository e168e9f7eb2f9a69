"""Timing methods, looked up by name. Statistics in milliseconds.

Timing is only meaningful where the kernel really runs on the device it targets: never time
the Triton interpreter.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Protocol

from kernelsearch.result import TimingStats


class Timer(Protocol):
    method: str

    def time(self, fn: Callable[[], object], warmup: int, trials: int) -> TimingStats: ...


def summarize(samples_ms: list[float], method: str) -> TimingStats:
    return TimingStats(
        mean=statistics.fmean(samples_ms),
        median=statistics.median(samples_ms),
        std=statistics.pstdev(samples_ms) if len(samples_ms) > 1 else 0.0,
        min=min(samples_ms),
        max=max(samples_ms),
        trials=len(samples_ms),
        method=method,
    )


class CpuTimer:
    """Wall clock around each call (CPU kernels are synchronous)."""

    method = "cpu_perf_counter"

    def time(self, fn: Callable[[], object], warmup: int, trials: int) -> TimingStats:
        for _ in range(warmup):
            fn()
        samples = []
        for _ in range(trials):
            start = time.perf_counter()
            fn()
            samples.append((time.perf_counter() - start) * 1e3)
        return summarize(samples, self.method)


class CudaEventTimer:
    """CUDA events around each call, L2 flushed before every trial, full-device sync.

    The flush writes a buffer larger than the device's L2 so no trial starts with a warm
    cache; events are read only after `torch.cuda.synchronize()` so work on any stream
    (including side streams a kernel might use) is inside the measurement window.
    """

    method = "cuda_event_l2_flush"

    def __init__(self, l2_bytes: int | None = None):
        import torch

        props = torch.cuda.get_device_properties(torch.cuda.current_device())
        l2 = l2_bytes or getattr(props, "L2_cache_size", 0) or 64 * 2**20
        self._flush = torch.empty(int(l2 * 2) // 4, dtype=torch.int32, device="cuda")

    def time(self, fn: Callable[[], object], warmup: int, trials: int) -> TimingStats:
        import torch

        for _ in range(warmup):
            fn()
        torch.cuda.synchronize()
        starts = [torch.cuda.Event(enable_timing=True) for _ in range(trials)]
        ends = [torch.cuda.Event(enable_timing=True) for _ in range(trials)]
        for i in range(trials):
            self._flush.zero_()
            starts[i].record()
            fn()
            ends[i].record()
        torch.cuda.synchronize()
        samples = [s.elapsed_time(e) for s, e in zip(starts, ends)]
        return summarize(samples, self.method)


TIMERS: dict[str, type] = {CpuTimer.method: CpuTimer, CudaEventTimer.method: CudaEventTimer}
