"""The pure functions behind every number a report shows, on hand-computed cases."""

from __future__ import annotations

import math

import pytest

from kernelsearch.report.metrics import (
    FAST_P_THRESHOLDS,
    ProgressSample,
    accepted_speedups,
    fast_p,
    fast_p_table,
    frontier_ownership,
    geomean_speedup,
    progress_curve,
)
from kernelsearch.result import EvalResult, Flag, Severity, Stage, TimingStats
from kernelsearch.search.score import Scored


def _t(ms: float) -> TimingStats:
    return TimingStats(ms, ms, 0.0, ms, ms, 5, "cpu_perf_counter")


def _r(stage=Stage.CORRECT, correct=True, kernel=1.0, eager=2.0, compile_=None, flags=()):
    return EvalResult(
        task="t",
        backend="cpu",
        device="cpu",
        stage=stage,
        correct=correct,
        runtime=_t(kernel) if kernel is not None else None,
        baseline_eager=_t(eager) if eager is not None else None,
        baseline_compile=_t(compile_) if compile_ is not None else None,
        flags=tuple(flags),
    )


# ---- fast_p ----------------------------------------------------------------------------


def test_fast_p_counts_missing_tasks_as_failures():
    speedups = {"a": 2.0, "b": 0.5, "c": None}
    tasks = ["a", "b", "c", "d"]
    assert fast_p(speedups, tasks, 0) == 0.75  # a, b, c accepted (c untimed still counts)
    assert fast_p(speedups, tasks, 1) == 0.25  # only a
    assert fast_p(speedups, tasks, 0.5) == 0.25  # b's 0.5 is not > 0.5
    assert fast_p(speedups, tasks, 2) == 0.0  # a's 2.0 is not > 2


def test_fast_0_is_the_correctness_rate_even_for_slow_kernels():
    assert fast_p({"a": 0.01, "b": 0.2}, ["a", "b", "c", "d", "e"], 0) == 0.4


def test_fast_p_with_no_accepted_kernel_is_zero_at_every_threshold():
    assert fast_p_table({}, ["a", "b"]) == {p: 0.0 for p in FAST_P_THRESHOLDS}


def test_fast_p_of_no_tasks_is_zero_and_ignores_speedups_of_unlisted_tasks():
    assert fast_p({"a": 3.0}, [], 1) == 0.0
    assert fast_p({"a": 3.0, "x": 9.0}, ["a", "b"], 1) == 0.5


def test_fast_p_counts_a_task_listed_twice_once():
    assert fast_p({"a": 3.0}, ["a", "a", "b"], 1) == 0.5


def test_fast_p_table_reports_the_kernelbench_thresholds():
    table = fast_p_table({"a": 1.6, "b": 0.9}, ["a", "b"])
    assert list(table) == [0.0, 0.5, 0.8, 1.0, 1.5, 2.0]
    assert table == {0.0: 1.0, 0.5: 1.0, 0.8: 1.0, 1.0: 0.5, 1.5: 0.5, 2.0: 0.0}


def test_fast_p_ignores_non_finite_speedups_above_zero():
    assert fast_p({"a": math.nan, "b": math.inf}, ["a", "b"], 1) == 0.0
    assert fast_p({"a": math.nan}, ["a"], 0) == 1.0


# ---- which kernels count ------------------------------------------------------------------


def test_accepted_speedups_keeps_only_accepted_results():
    results = {
        "ok": _r(kernel=1.0, eager=3.0, compile_=1.5),
        "warned": _r(flags=[Flag("w", Severity.WARNING, "slow")]),
        "guarded": _r(flags=[Flag("hack", Severity.ERROR, "calls torch")]),
        "wrong": _r(stage=Stage.INCORRECT, correct=False),
        "stage_says_correct_but_not_correct": _r(correct=False),
        "untimed": _r(kernel=None),
        "missing": None,
    }
    eager = accepted_speedups(results, "eager")
    assert eager == {"ok": 3.0, "warned": 2.0, "untimed": None}
    assert accepted_speedups(results, "compile") == {"ok": 1.5, "warned": None, "untimed": None}


def test_accepted_speedups_rejects_an_unknown_baseline():
    with pytest.raises(ValueError, match="baseline"):
        accepted_speedups({}, "inductor")


# ---- geomean -----------------------------------------------------------------------------


def test_geomean_of_two_and_eight_is_four():
    assert geomean_speedup({"a": 2.0, "b": 8.0}) == pytest.approx(4.0)


def test_geomean_skips_untimed_kernels_and_is_none_without_any_speedup():
    assert geomean_speedup({"a": 0.5, "b": None}) == pytest.approx(0.5)
    assert geomean_speedup({"a": None}) is None
    assert geomean_speedup({}) is None


def test_geomean_of_reciprocal_speedups_is_one():
    assert geomean_speedup({"a": 4.0, "b": 0.25}) == pytest.approx(1.0)


# ---- frontier ownership -----------------------------------------------------------------------


def _m(**rows):
    return {int(c[1:]): {t: Scored(s, m) for t, (s, m) in row.items()} for c, row in rows.items()}


def test_each_task_is_owned_by_the_candidate_with_the_best_score():
    scores = _m(c0={"a": (1.8, 0.0), "b": (1.2, 0.0)}, c1={"a": (1.5, 0.0), "b": (1.6, 0.0)})
    own = frontier_ownership(scores, ["a", "b"])
    assert own.wins == {0: ("a",), 1: ("b",)}
    assert own.owners == {"a": (0,), "b": (1,)}
    assert own.shares == {0: 1.0, 1: 1.0}


def test_a_tied_task_is_shared_between_its_winners():
    scores = _m(
        c0={"a": (1.5, 0.0), "b": (1.9, 0.0)},
        c1={"a": (1.5, 0.0), "b": (1.1, 0.0), "c": (1.7, 0.0)},
    )
    own = frontier_ownership(scores, ["a", "b", "c"])
    assert own.owners["a"] == (0, 1)
    assert own.shares == {0: 1.5, 1: 1.5}


def test_scores_within_timing_noise_tie():
    scores = _m(c0={"a": (1.60, 0.02)}, c1={"a": (1.63, 0.02)}, c2={"a": (1.70, 0.01)})
    own = frontier_ownership(scores, ["a"])
    # 1.63 vs 1.70: the gap 0.07 is more than the combined noise 0.03, so only c2 wins.
    assert own.owners["a"] == (2,)
    # 1.68 +- 0.02 and 1.70 +- 0.01 tie on a; each also wins a task of its own.
    scores = _m(c0={"a": (1.68, 0.02), "b": (1.9, 0.0)}, c1={"a": (1.70, 0.01), "c": (1.9, 0.0)})
    assert frontier_ownership(scores, ["a", "b", "c"]).owners["a"] == (0, 1)


def test_a_dominated_candidate_is_not_on_the_frontier():
    scores = _m(c0={"a": (1.5, 0.0), "b": (1.5, 0.0)}, c1={"a": (1.5, 0.0), "b": (1.8, 0.0)})
    own = frontier_ownership(scores, ["a", "b"])
    assert set(own.wins) == {1}
    assert own.owners == {"a": (1,), "b": (1,)}


def test_a_task_nobody_scored_has_no_owner_and_empty_inputs_give_an_empty_frontier():
    own = frontier_ownership(_m(c0={"a": (1.5, 0.0)}), ["a", "b"])
    assert own.owners["b"] == ()
    assert own.wins == {0: ("a",)}
    empty = frontier_ownership({}, ["a"])
    assert empty.wins == {} and empty.owners == {"a": ()} and empty.shares == {}


def test_ownership_round_trips_through_its_dict():
    from kernelsearch.report.metrics import Ownership

    own = frontier_ownership(_m(c0={"a": (1.5, 0.0)}, c3={"a": (1.5, 0.0)}), ["a"])
    assert Ownership.from_dict(own.to_dict()) == own


# ---- progress ----------------------------------------------------------------------------


def test_progress_tracks_best_score_and_fast_1_per_evaluation():
    samples = [
        ProgressSample("a", False, 0.6),
        ProgressSample("a", True, 1.4, 0.7, 0.5),
        ProgressSample("b", True, 1.6, 1.5, 0.9),
        ProgressSample("a", False, 0.2),  # a worse result never lowers the best
        ProgressSample("a", True, 1.7, 2.4, 1.2),
    ]
    points = progress_curve(samples, ["a", "b", "c"])
    assert [p.evaluations for p in points] == [1, 2, 3, 4, 5]
    assert [p.mean_best_score for p in points] == pytest.approx(
        [0.6 / 3, 1.4 / 3, 3.0 / 3, 3.0 / 3, 3.3 / 3]
    )
    assert [p.accepted_tasks for p in points] == [0, 1, 2, 2, 2]
    assert [p.fast_1_eager for p in points] == pytest.approx([0, 0, 1 / 3, 1 / 3, 2 / 3])
    assert [p.fast_1_compile for p in points] == pytest.approx([0, 0, 0, 0, 1 / 3])


def test_progress_of_no_evaluations_is_empty_and_unknown_tasks_only_spend():
    assert progress_curve([], ["a"]) == []
    points = progress_curve([ProgressSample("zzz", True, 1.9, 9.0, 9.0)], ["a"])
    assert points[0].evaluations == 1
    assert points[0].mean_best_score == 0.0 and points[0].fast_1_eager == 0.0
