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
    quartiles = statistics.quantiles(samples_ms, n=4) if len(samples_ms) > 1 else None
    return TimingStats(
        mean=statistics.fmean(samples_ms),
        median=statistics.median(samples_ms),
        std=statistics.pstdev(samples_ms) if len(samples_ms) > 1 else 0.0,
        min=min(samples_ms),
        max=max(samples_ms),
        trials=len(samples_ms),
        method=method,
        iqr=quartiles[2] - quartiles[0] if quartiles else 0.0,
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


# GPU timing defaults (trial count: EvalConfig.gpu_timing_trials).
L2_FLUSH_FACTOR = 2  # the flush buffer is this many times the device's L2
FALLBACK_L2_BYTES = 64 * 2**20  # when the device does not report its L2 size
GPU_WARMUP_MS = 25.0  # warm up until at least this much GPU time has run (clocks, caches)
MAX_WARMUP_CALLS = 500
ESTIMATE_CALLS = 3


class CudaEventTimer:
    """CUDA events around each call, L2 flushed before every trial, full-device sync.

    Per trial: write a buffer larger than the device's L2 (so no trial starts with a warm
    cache), record a start event, call, record an end event. The host queues every trial
    before reading any event, so launch overhead overlaps the GPU work as it does in a real
    pipeline; events are read only after `torch.cuda.synchronize()` (the whole device, so work
    a kernel queued on any stream has finished). Warm-up runs `warmup` calls and then enough
    more to fill GPU_WARMUP_MS.
    """

    method = "cuda_event_l2_flush"

    def __init__(self, l2_bytes: int | None = None):
        import torch

        props = torch.cuda.get_device_properties(torch.cuda.current_device())
        l2 = l2_bytes or getattr(props, "L2_cache_size", 0) or FALLBACK_L2_BYTES
        self._flush = torch.empty(int(l2 * L2_FLUSH_FACTOR) // 4, dtype=torch.int32, device="cuda")

    def flush_l2(self) -> None:
        self._flush.zero_()

    def _estimate_ms(self, fn: Callable[[], object]) -> float:
        import torch

        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda.synchronize()
        start.record()
        for _ in range(ESTIMATE_CALLS):
            fn()
        end.record()
        torch.cuda.synchronize()
        return start.elapsed_time(end) / ESTIMATE_CALLS

    def time(self, fn: Callable[[], object], warmup: int, trials: int) -> TimingStats:
        import torch

        for _ in range(warmup):
            fn()
        per_call = self._estimate_ms(fn)
        extra = min(MAX_WARMUP_CALLS, int(GPU_WARMUP_MS / max(per_call, 1e-3)))
        for _ in range(extra):
            fn()
        torch.cuda.synchronize()
        starts = [torch.cuda.Event(enable_timing=True) for _ in range(trials)]
        ends = [torch.cuda.Event(enable_timing=True) for _ in range(trials)]
        for i in range(trials):
            self.flush_l2()
            starts[i].record()
            fn()
            ends[i].record()
        torch.cuda.synchronize()
        samples = [s.elapsed_time(e) for s, e in zip(starts, ends)]
        return summarize(samples, self.method)


TIMERS: dict[str, type] = {CpuTimer.method: CpuTimer, CudaEventTimer.method: CudaEventTimer}
