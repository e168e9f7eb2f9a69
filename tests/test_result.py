"""EvalResult: the one acceptance predicate, speedups and JSON round trips."""

from __future__ import annotations

import pytest

from kernelsearch.result import EvalResult, Flag, Mismatch, Severity, Stage, TimingStats


def stats(ms: float) -> TimingStats:
    return TimingStats(
        mean=ms, median=ms, std=0.0, min=ms, max=ms, trials=3, method="cpu_perf_counter"
    )


def correct(**kw) -> EvalResult:
    return EvalResult(task="t", backend="cpu", device="x", stage=Stage.CORRECT, correct=True, **kw)


def test_accepted_needs_correct_stage_and_no_error_flag() -> None:
    assert correct().accepted
    assert correct(flags=(Flag("x", Severity.WARNING, "w"),)).accepted
    assert not correct(flags=(Flag("x", Severity.ERROR, "e"),)).accepted
    assert not correct().with_(stage=Stage.INCORRECT).accepted
    assert not correct().with_(correct=False).accepted
    assert not EvalResult(task="t", backend="cpu", device="x", stage=Stage.COMPILED).accepted


def test_speedups_are_baseline_over_kernel() -> None:
    r = correct(runtime=stats(2.0), baseline_eager=stats(4.0), baseline_compile=stats(1.0))
    assert r.speedup_eager == pytest.approx(2.0)
    assert r.speedup_compile == pytest.approx(0.5)
    assert correct().speedup_eager is None


def test_round_trip_keeps_every_field() -> None:
    r = correct(
        runtime=stats(2.0),
        baseline_eager=stats(4.0),
        flags=(Flag("g", Severity.ERROR, "why"),),
        mismatch=Mismatch(trial=1, max_abs_diff=0.5, first_bad_index=[0, 3]),
        resources={"registers": 40},
        flops=10.0,
        bytes_moved=20.0,
        interpreted=True,
    )
    again = EvalResult.from_dict(r.to_dict())
    assert again == r
    assert r.to_dict()["accepted"] is False and r.to_dict()["speedup_eager"] == 2.0
