"""Timing methods: statistics, call counts, and (with a GPU) CUDA-event timing."""

from __future__ import annotations

import pytest

from kernelsearch.backends.arch import cuda_gpu_available
from kernelsearch.harness.timing import TIMERS, CpuTimer, CudaEventTimer, summarize


def test_summary_statistics_of_hand_computed_samples():
    stats = summarize([1.0, 2.0, 3.0, 10.0], method="m")
    assert (stats.mean, stats.median, stats.min, stats.max) == (4.0, 2.5, 1.0, 10.0)
    assert stats.trials == 4 and stats.method == "m"
    assert stats.std == pytest.approx(3.5355, rel=1e-4)


def test_single_sample_has_zero_spread():
    stats = summarize([2.0], method="m")
    assert stats.std == 0.0 and stats.median == 2.0


def test_cpu_timer_runs_warmup_then_exactly_the_trials():
    calls = []
    stats = CpuTimer().time(lambda: calls.append(1), warmup=3, trials=7)
    assert len(calls) == 10 and stats.trials == 7 and stats.method == "cpu_perf_counter"


def test_timers_are_registered_by_method_name():
    assert TIMERS["cuda_event_l2_flush"] is CudaEventTimer
    assert TIMERS["cpu_perf_counter"] is CpuTimer


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_gpu_available(), reason="needs a CUDA GPU")
def test_cuda_event_timer_times_a_matmul_with_every_trial():
    import torch

    a = torch.randn(2048, 2048, device="cuda")
    timer = CudaEventTimer()
    assert timer._flush.numel() * 4 >= torch.cuda.get_device_properties(0).L2_cache_size
    stats = timer.time(lambda: a @ a, warmup=3, trials=20)
    assert stats.trials == 20 and stats.method == "cuda_event_l2_flush"
    assert 0 < stats.min <= stats.median <= stats.max
