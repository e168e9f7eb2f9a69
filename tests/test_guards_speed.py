"""Speed guards (orchestrator side) on hand-built results: impossible times, profile sanity,
and re-verification of suspicious speedups through a test-double rerun."""

from __future__ import annotations

from kernelsearch import hardware
from kernelsearch.harness.guards import speed
from kernelsearch.result import EvalResult, Severity, Stage, TimingStats


def stats(ms: float, method: str = "cuda_event_l2_flush") -> TimingStats:
    return TimingStats(mean=ms, median=ms, std=0.0, min=ms, max=ms, trials=5, method=method)


def result(kernel_ms: float, eager_ms: float, method: str = "cuda_event_l2_flush", **kw):
    return EvalResult(
        task="t",
        backend="cuda",
        device="d",
        stage=Stage.CORRECT,
        correct=True,
        runtime=stats(kernel_ms, method),
        baseline_eager=stats(eager_ms, method),
        **kw,
    )


H100 = hardware.get_profile("h100-sxm")
GB = 1e9


def test_bound_is_bytes_over_bandwidth_when_caches_are_flushed():
    bound = speed.lower_bound(H100, 0.0, 4 * GB, "float32", "cuda_event_l2_flush")
    assert bound is not None and bound.kind == "memory"
    assert abs(bound.ms - hardware.roofline_ms(H100, 0.0, 4 * GB, "float32")) < 1e-9


def test_memory_bound_ignored_for_cache_resident_work_without_a_flush():
    cpu = hardware.get_profile("cpu-x86-generic")
    assert speed.lower_bound(cpu, 0.0, 1e6, "float32", "cpu_perf_counter") is None
    assert speed.lower_bound(cpu, 0.0, 1e12, "float32", "cpu_perf_counter") is not None


def test_faster_than_the_roofline_is_an_error():
    bound = speed.Bound(ms=1.0, kind="memory", profile="h100-sxm")
    flags = speed.roofline_flags(result(0.5, 10.0), bound)
    assert [(f.name, f.severity) for f in flags] == [("roofline_impossible", Severity.ERROR)]
    assert speed.roofline_flags(result(1.5, 10.0), bound) == []


def test_eager_also_beating_the_bound_blames_the_profile_not_the_kernel():
    bound = speed.Bound(ms=1.0, kind="compute", profile="p")
    flags = speed.roofline_flags(result(0.5, 0.8), bound)
    assert [(f.name, f.severity) for f in flags] == [("roofline_profile", Severity.WARNING)]


def _review(r, again):
    calls = []

    def rerun(seed, trials):
        calls.append((seed, trials))
        return again

    out = speed.review(r, device_kind="cpu", dtype="float32", trials=5, rerun=rerun)
    return out, calls


def test_large_speedup_is_reverified_and_kept_with_a_warning_when_it_holds():
    r = result(1.0, 50.0, method="cpu_perf_counter", flops=0.0, bytes_moved=1e3)
    out, calls = _review(r, r)
    assert len(calls) == 1 and calls[0][1] == speed.reverify_trials(5) >= 10
    flag = [f for f in out.flags if f.name == "suspicious_speedup"][0]
    assert flag.severity is Severity.WARNING and out.accepted
    assert out.resources["reverify"]["seed"] == calls[0][0]


def test_large_speedup_that_fails_reverification_is_rejected():
    r = result(1.0, 50.0, method="cpu_perf_counter", flops=0.0, bytes_moved=1e3)
    failed = r.with_(stage=Stage.INCORRECT, correct=False, error="values differ")
    out, _ = _review(r, failed)
    assert not out.accepted
    assert [f.severity for f in out.flags if f.name == "suspicious_speedup"] == [Severity.ERROR]


def test_modest_speedup_and_rejected_results_are_not_rerun():
    r = result(1.0, 3.0, method="cpu_perf_counter", flops=0.0, bytes_moved=1e3)
    assert _review(r, r)[1] == []
    bad = result(1.0, 50.0).with_(stage=Stage.INCORRECT, correct=False)
    assert _review(bad, bad)[1] == []
