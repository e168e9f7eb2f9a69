"""`kernelsearch.bests`: the one rule for a task's final kernel and the one `TaskBest` record,
shared by the search's summary.json / kernels/ and every report."""

from __future__ import annotations

import dataclasses
import json

import pytest
import test_report_data as data

from kernelsearch.bests import (
    FIGURES_NONE,
    FIGURES_RETIME,
    FIGURES_SEARCH,
    FIGURES_TEST,
    TaskBest,
    final_evaluation,
    task_best,
    task_bests,
    top_accepted,
)
from kernelsearch.report import build_report
from kernelsearch.result import Stage
from kernelsearch.search import finish
from kernelsearch.search.summary import RunSummary
from kernelsearch.store import RunStore


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    return data.build_run(tmp_path_factory.mktemp("bests") / "run")


def _records(tmp_path, rows):
    store = RunStore.create(tmp_path / "r", "r", {}, {"train": [{"name": "t"}]})
    for candidate, purpose, source, stage, times in rows:
        data.add(store, candidate, purpose, 1, source, data.result("t", stage, times))
    out = store.evaluations()
    store.close()
    return [e for e in out if e.purpose != "retime"], [e for e in out if e.purpose == "retime"]


def test_an_accepted_retime_wins_over_a_faster_search_timing(tmp_path):
    search, retimes = _records(
        tmp_path,
        [
            (0, "full", "A", Stage.CORRECT, (0.5, 2.0, 2.0)),
            (0, "full", "B", Stage.CORRECT, (1.0, 2.0, 2.0)),
            (None, "retime", "B", Stage.CORRECT, (1.1, 2.0, 2.0)),
        ],
    )
    chosen = final_evaluation(search, retimes)
    assert (chosen.source, chosen.purpose) == ("B", "retime")
    best, result = task_best("t", search, retimes)
    assert best.figures == FIGURES_RETIME and best.runtime_ms == 1.1
    assert best.candidate_id == 0  # the re-time names no prompt; the search evaluation of B does
    assert result is chosen.result


def test_a_kernel_whose_retime_failed_is_not_shown(tmp_path):
    search, retimes = _records(
        tmp_path,
        [
            (0, "full", "A", Stage.CORRECT, (0.5, 2.0, 2.0)),
            (0, "full", "B", Stage.CORRECT, (1.0, 2.0, 2.0)),
            (None, "retime", "A", Stage.INCORRECT, None),
        ],
    )
    assert final_evaluation(search, retimes).source == "B"
    assert task_best("t", search, retimes)[0].figures == FIGURES_SEARCH


def test_tied_scores_go_to_the_earliest_and_no_acceptance_gives_none(tmp_path):
    search, retimes = _records(
        tmp_path,
        [
            (0, "full", "first", Stage.CORRECT, (1.0, 2.0, 2.0)),
            (1, "full", "second", Stage.CORRECT, (1.0, 2.0, 2.0)),
        ],
    )
    assert final_evaluation(search, retimes).source == "first"
    search, retimes = _records(tmp_path / "x", [(0, "full", "A", Stage.INCORRECT, None)])
    assert final_evaluation(search, retimes) is None


def test_a_task_without_an_accepted_kernel_shows_its_furthest_attempt_without_figures(tmp_path):
    search, retimes = _records(
        tmp_path,
        [
            (0, "full", "A", Stage.COMPILE_FAILED, None),
            (1, "full", "B", Stage.INCORRECT, None),
        ],
    )
    best, result = task_best("t", search, retimes)
    assert result is None
    assert (best.accepted, best.figures, best.stage) == (False, FIGURES_NONE, "incorrect")
    assert best.candidate_id == 1 and best.attempts == 2
    assert best.speedup_eager is None and best.runtime_ms is None
    nothing, _ = task_best("u", [], [])
    assert (nothing.stage, nothing.evaluation_id, nothing.attempts) == ("not_evaluated", None, 0)


def test_top_accepted_keeps_the_best_distinct_sources_in_score_order(tmp_path):
    search, _ = _records(
        tmp_path,
        [
            (0, "full", "slow", Stage.CORRECT, (2.0, 2.0, 2.0)),
            (0, "full", "fast", Stage.CORRECT, (0.5, 2.0, 2.0)),
            (1, "full", "fast", Stage.CORRECT, (0.5, 2.0, 2.0)),
            (1, "full", "wrong", Stage.INCORRECT, None),
            (1, "full", "mid", Stage.CORRECT, (1.0, 2.0, 2.0)),
        ],
    )
    assert [e.source for e in top_accepted(search, 2)] == ["fast", "mid"]
    assert [e.id for e in top_accepted(search, 5)] == [2, 5, 1]  # the earlier "fast" only


def test_test_tasks_use_test_evaluations_only_with_test_figures(run_dir):
    with RunStore.open(run_dir) as store:
        evaluations = store.evaluations()
    ((gelu, result),) = task_bests(["9_gelu"], evaluations, test=True)
    assert gelu.accepted and gelu.figures == FIGURES_TEST and result is not None
    ((relu, _),) = task_bests(["1_relu"], evaluations, test=True)
    assert not relu.accepted and relu.stage == "not_evaluated"  # search evaluations not counted


def test_summary_bests_and_report_bests_are_the_same_records(run_dir):
    with RunStore.open(run_dir) as store:
        summary_bests = finish.stored_bests(store, list(data.TASKS))
        summary_test = finish.stored_bests(store, list(data.TEST_TASKS), test=True)
    report = build_report(run_dir)
    assert tuple(summary_bests) == report.search.best
    assert tuple(summary_test) == report.test.best
    assert {b.task: b.figures for b in summary_bests} == data.EXPECTED["figures"]


def test_written_kernels_are_the_shown_evaluations_and_name_their_file(run_dir, tmp_path):
    with RunStore.open(run_dir) as store:
        bests = finish.stored_bests(store, list(data.TASKS))
        written = finish.write_kernels(tmp_path, store, bests)
    by_task = {b.task: b for b in written}
    assert by_task["1_relu"].kernel_file == "kernels/1_relu.py"
    relu = (tmp_path / "kernels" / "1_relu.py").read_text()
    assert relu.endswith(data.RELU_FAST) and "re-timed)" in relu.splitlines()[0]
    assert "search timing)" in (tmp_path / "kernels" / "2_matmul.py").read_text()
    assert by_task["5_layernorm"].kernel_file is None
    assert not (tmp_path / "kernels" / "5_layernorm.py").exists()
    assert [dataclasses.replace(b, kernel_file=None) for b in written] == bests


def test_run_summary_round_trips_through_json_with_its_task_bests(run_dir):
    with RunStore.open(run_dir) as store:
        bests = finish.stored_bests(store, list(data.TASKS))
    bests[3] = dataclasses.replace(bests[3], kernel_file="kernels/4_conv.py")
    assert bests[3].flags  # conv's warning flag must survive the trip
    summary = RunSummary(
        run_id="r",
        run_dir="/runs/r",
        status="finished",
        stop_reason="budget",
        objective="speed",
        baseline="eager",
        backend="cpu",
        model="m",
        reflection_model="m",
        evaluations=10,
        eval_budget=20,
        iterations=2,
        llm_calls=4,
        tokens_in=1,
        tokens_out=2,
        cost_usd=0.1,
        cost_complete=True,
        elapsed_s=1.0,
        best_candidate=1,
        frontier=(0, 1),
        candidates=(),
        tasks=tuple(bests),
        test=(TaskBest("9_gelu", False, FIGURES_NONE, "not_evaluated"),),
    )
    again = RunSummary.from_dict(json.loads(json.dumps(summary.to_dict())))
    assert again == summary
    assert again.task("4_conv").kernel_file == "kernels/4_conv.py"
