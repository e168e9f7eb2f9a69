"""Pure rules of the search, on hand-computed cases: score, ties, gate, frontier, sampling,
minibatches, budget, merge eligibility, config."""

from __future__ import annotations

import random

import pytest

from kernelsearch.errors import ConfigError
from kernelsearch.harness.baselines import BaselineCache, Baselines
from kernelsearch.harness.timing import summarize
from kernelsearch.result import EvalResult, Flag, Severity, Stage, TimingStats
from kernelsearch.search.budget import Budget
from kernelsearch.search.config import SearchConfig
from kernelsearch.search.minibatch import EpochSampler
from kernelsearch.search.pareto import aggregate, current_best, frontier, select_pareto
from kernelsearch.search.proposer import Lineage, components_to_update, merge_pairs
from kernelsearch.search.score import (
    Scored,
    beats,
    gate_passes,
    score,
    score_margin,
    ties,
)


def t(ms: float, std: float = 0.0) -> TimingStats:
    return TimingStats(ms, ms, std, ms, ms, 10, "fake")


def ok(speedup: float, std: float = 0.0) -> EvalResult:
    return EvalResult(
        "x",
        "cpu",
        "cpu",
        Stage.CORRECT,
        correct=True,
        runtime=t(1.0 / speedup, std / speedup),
        baseline_eager=t(1.0, std),
        baseline_compile=t(0.5, std),
    )


# ---- score ---------------------------------------------------------------------------


def test_accepted_score_is_one_plus_s_over_one_plus_s():
    assert score(ok(1.0)) == pytest.approx(1.5)
    assert score(ok(3.0)) == pytest.approx(1.75)
    assert score(ok(3.0), baseline="compile") == pytest.approx(1 + 1.5 / 2.5)


def test_every_failure_scores_below_the_slowest_accepted_kernel():
    slowest = score(ok(1e-6))
    for stage in Stage:
        r = EvalResult("x", "cpu", "cpu", stage, trials_passed=4, trials_run=5)
        assert score(r) < slowest
    hacked = ok(100.0).add_flags(Flag("reference_call", Severity.ERROR, "calls torch"))
    assert score(hacked) < slowest


def test_failure_ladder_orders_how_far_a_kernel_got():
    s = {st: score(EvalResult("x", "cpu", "cpu", st)) for st in Stage if st is not Stage.CORRECT}
    assert s[Stage.NO_CODE] < s[Stage.COMPILE_FAILED] < s[Stage.RUNTIME_ERROR] < s[Stage.INCORRECT]
    partial = EvalResult("x", "cpu", "cpu", Stage.INCORRECT, trials_passed=5, trials_run=5)
    assert score(partial) == pytest.approx(0.9)


def test_correctness_and_compile_objectives():
    assert score(ok(3.0), objective="correctness") == 1.0
    assert score(ok(0.1), objective="correctness") == 1.0
    compiled = EvalResult("x", "cuda", "none", Stage.COMPILED)
    assert score(compiled, objective="compile") == 1.0
    assert score(EvalResult("x", "cpu", "cpu", Stage.COMPILE_FAILED), objective="compile") < 1


def test_untimed_accepted_kernel_scores_one_with_no_margin():
    r = EvalResult("x", "cpu", "cpu", Stage.CORRECT, correct=True)
    assert score(r) == 1.0 and score_margin(r) == 0.0


def test_margin_follows_timing_spread_and_has_a_floor():
    quiet = score_margin(ok(1.0))
    noisy = score_margin(ok(1.0, std=0.1))
    assert quiet == pytest.approx(1.0 * 0.01 / 4)
    assert noisy == pytest.approx(1.0 * (2**0.5 * 0.1) / 4)


def test_one_preempted_trial_does_not_swamp_the_margin():
    steady = [1.0 + 0.01 * (i % 5) for i in range(20)]  # a few percent of spread
    base = summarize([*steady[:-1], 500.0], "fake")  # one trial preempted for half a second
    assert base.std > 100 * base.iqr  # the plain standard deviation is all outlier
    kernel = summarize([x / 2 for x in steady], "fake")
    r = EvalResult(
        "x", "cpu", "cpu", Stage.CORRECT, correct=True, runtime=kernel, baseline_eager=base
    )
    assert score_margin(r) < 0.01  # the speedup's spread, not the outlier's
    legacy = t(1.0, std=base.std)  # recorded before iqr existed: the std is what is known
    assert legacy.iqr is None
    assert score_margin(ok(2.0, std=base.std)) > 0.1


def test_noise_never_lets_an_accepted_kernel_tie_a_failed_one():
    wild = ok(1.7, std=50.0)  # spread far beyond the speedup itself
    margin = score_margin(wild)
    assert margin == pytest.approx(score(wild) - 1.0)  # capped at the accepted floor
    failed = EvalResult("x", "cpu", "cpu", Stage.INCORRECT, trials_passed=5, trials_run=5)
    assert gate_passes([Scored(score(wild), margin)], [Scored(score(failed))])


# ---- ties and the gate ---------------------------------------------------------------


def test_ties_and_beats_use_the_combined_margin():
    a, b = Scored(1.50, 0.01), Scored(1.52, 0.01)
    assert ties(a, b) and not beats(b, a)
    assert beats(Scored(1.53, 0.01), a)


def test_gate_needs_a_strict_improvement_beyond_noise():
    parent = [Scored(1.5, 0.01), Scored(0.2)]
    assert not gate_passes([Scored(1.5, 0.01), Scored(0.2)], parent)  # equal
    assert not gate_passes([Scored(1.51, 0.01), Scored(0.2)], parent)  # within noise
    assert gate_passes([Scored(1.5, 0.01), Scored(0.6)], parent)
    assert not gate_passes([], [])


# ---- frontier ------------------------------------------------------------------------


def S(*xs: float) -> dict[str, Scored]:  # noqa: N802
    return {f"t{i}": Scored(x) for i, x in enumerate(xs)}


TASKS = ["t0", "t1", "t2"]


def test_frontier_keeps_specialists_and_drops_the_dominated():
    scores = {0: S(1.0, 1.0, 1.0), 1: S(1.6, 1.0, 1.0), 2: S(1.0, 1.7, 1.0), 3: S(1.6, 1.7, 1.2)}
    assert frontier(scores, TASKS) == {3: frozenset(TASKS)}
    scores = {0: S(1.0, 1.0, 1.5), 1: S(1.6, 1.0, 1.0), 2: S(1.0, 1.7, 1.0)}
    assert frontier(scores, TASKS) == {0: {"t2"}, 1: {"t0"}, 2: {"t1"}}


def test_tied_winners_with_the_same_wins_collapse_to_the_better_aggregate():
    scores = {0: S(1.5, 0.2, 0.2), 1: S(1.5, 0.3, 0.2), 2: S(0.2, 1.8, 1.8)}
    front = frontier(scores, TASKS)
    assert set(front) == {1, 2}  # 0 and 1 tie on t0; 1 also better on t1's runner-up
    exact = {0: S(1.5, 1.5, 1.5), 1: S(1.5, 1.5, 1.5)}
    assert set(frontier(exact, TASKS)) == {0}


def test_ties_within_noise_share_a_task_win():
    scores = {0: {"t0": Scored(1.50, 0.02)}, 1: {"t0": Scored(1.52, 0.02), "t1": Scored(1.0)}}
    assert frontier(scores, ["t0", "t1"]) == {1: frozenset({"t0", "t1"})}
    scores = {0: {"t0": Scored(1.50, 0.02), "t1": Scored(1.1)}, 1: {"t0": Scored(1.52, 0.02)}}
    assert frontier(scores, ["t0", "t1"]) == {0: frozenset({"t0", "t1"})}


def test_empty_inputs():
    assert frontier({}, TASKS) == {}
    assert aggregate({}, []) == 0.0
    with pytest.raises(ValueError):
        select_pareto({}, random.Random(0))
    with pytest.raises(ValueError):
        current_best({}, TASKS)


def test_parent_sampling_is_proportional_to_wins():
    front = {1: frozenset({"t0"}), 2: frozenset({"t1", "t2", "t3"})}
    rng = random.Random(1)
    draws = [select_pareto(front, rng) for _ in range(4000)]
    assert 0.70 < draws.count(2) / len(draws) < 0.80


def test_current_best_is_the_highest_aggregate_and_lowest_id_on_ties():
    assert current_best({0: S(1, 1, 1), 1: S(2, 1, 1), 2: S(1, 2, 1)}, TASKS) == 1


# ---- minibatches ---------------------------------------------------------------------


def test_epochs_visit_every_task_before_repeating():
    sampler = EpochSampler(["a", "b", "c", "d", "e"], 2)
    rng = random.Random(0)
    seen = [x for _ in range(5) for x in sampler.sample(rng)]
    assert sorted(seen[:5]) == ["a", "b", "c", "d", "e"]
    assert sorted(seen[5:]) == ["a", "b", "c", "d", "e"]
    assert all(len(set(sampler.sample(rng))) == 2 for _ in range(20))


def test_minibatch_larger_than_the_set_is_the_whole_set_and_state_round_trips():
    sampler = EpochSampler(["a", "b"], 3)
    assert sorted(sampler.sample(random.Random(0))) == ["a", "b"]
    s1 = EpochSampler(list("abcdef"), 2)
    rng = random.Random(5)
    s1.sample(rng)
    s2 = EpochSampler(list("abcdef"), 2)
    s2.restore(s1.to_dict())
    rng2 = random.Random()
    rng2.setstate(rng.getstate())
    assert s1.sample(rng) == s2.sample(rng2)
    assert EpochSampler([], 3).sample(random.Random(0)) == []


# ---- budget --------------------------------------------------------------------------


def test_budget_reserves_settles_and_stops():
    b = Budget(max_evals=10)
    assert b.reserve(6) and not b.reserve(5) and b.reserve(4)
    for _ in range(3):
        b.spend_eval()
    b.release(3)
    assert b.remaining_evals == 0 + 3  # 10 - 3 used - 4 still reserved
    assert b.exhausted() is None


def test_cost_time_and_stop_file_caps(tmp_path):
    b = Budget(max_evals=10, max_cost_usd=1.0)
    b.add_cost(1.0)
    assert "cost cap" in b.exhausted() and not b.can_spend_llm()
    assert "time cap" in Budget(max_evals=10, max_time_s=1.0, elapsed_before_s=2.0).exhausted()
    (tmp_path / "STOP").touch()
    assert "stop file" in Budget(max_evals=10, stop_file=tmp_path / "STOP").exhausted()


# ---- merge rules and components -------------------------------------------------------


def test_merge_pairs_skip_ancestors_and_pairs_already_merged():
    lineage = Lineage({0: (), 1: (0,), 2: (0,), 3: (1,)})
    assert merge_pairs([1, 2, 3], lineage, set()) == [(1, 2), (2, 3)]
    assert merge_pairs([1, 2, 3], lineage, {(1, 2)}) == [(2, 3)]
    assert lineage.common_ancestor(2, 3) == 0
    assert merge_pairs([], lineage, set()) == []


def test_round_robin_cycles_components_and_all_takes_every_one():
    names = ["a", "b", "c"]
    assert [components_to_update(names, "round_robin", i) for i in range(4)] == [
        ["a"],
        ["b"],
        ["c"],
        ["a"],
    ]
    assert components_to_update(names, "all", 7) == names


# ---- config --------------------------------------------------------------------------


def test_config_validates_and_sizes_auto_budgets():
    with pytest.raises(ConfigError, match="--objective"):
        SearchConfig(objective="fast")
    with pytest.raises(ConfigError, match="not both"):
        SearchConfig(budget=5, auto="light")
    assert SearchConfig(auto="light", minibatch_size=3).evaluation_budget(6) == 6 * 6 + 3 * 6
    cfg = SearchConfig(budget=9, max_cost_usd=2.0)
    assert SearchConfig.from_dict(cfg.to_dict()) == cfg


def test_baselines_cached_without_a_robust_spread_are_measured_again(tmp_path):
    cache = BaselineCache(tmp_path)
    measured = TimingStats(1.0, 1.0, 0.1, 0.9, 1.2, 10, "cpu_perf_counter", iqr=0.05)
    cache.put("new", Baselines("x", measured, None, "cpu"))
    old = Baselines("x", TimingStats(1.0, 1.0, 0.1, 0.9, 1.2, 10, "cpu_perf_counter"), None, "cpu")
    cache.put("old", old)
    assert cache.get("old") is None
    hit = cache.get("new")
    assert hit is not None and hit.cached and hit.eager == measured
