"""Run store: schema, transactional writes and the read API."""

from __future__ import annotations

import sqlite3

import pytest

from kernelsearch.errors import ConfigError
from kernelsearch.result import EvalResult, Stage, TimingStats
from kernelsearch.store import STORE_FILENAME, RunStore


def _timing(ms: float) -> TimingStats:
    return TimingStats(ms, ms, 0.0, ms, ms, 5, "cpu_perf_counter")


def _result(task: str, stage: Stage = Stage.CORRECT, ms: float = 1.0) -> EvalResult:
    ok = stage is Stage.CORRECT
    return EvalResult(
        task=task,
        backend="cpu",
        device="cpu",
        stage=stage,
        correct=ok,
        runtime=_timing(ms) if ok else None,
        baseline_eager=_timing(2.0),
    )


@pytest.fixture
def store(tmp_path):
    s = RunStore.create(tmp_path / "run", "r1", {"budget": 10}, {"train": [], "val": []})
    yield s
    s.close()


def test_create_writes_one_run_row_that_reads_back(store):
    run = store.run()
    assert run.run_id == "r1"
    assert run.status == "running"
    assert run.config == {"budget": 10}


def test_create_refuses_a_directory_that_already_holds_a_run(store, tmp_path):
    with pytest.raises(ConfigError, match="--resume"):
        RunStore.create(tmp_path / "run", "r2", {}, {})


def test_open_rejects_a_directory_without_a_store(tmp_path):
    with pytest.raises(ConfigError, match="run.sqlite"):
        RunStore.open(tmp_path)


def test_evaluations_round_trip_the_eval_result_and_filter(store):
    store.put_candidate(0, {"instructions": "x"}, (), "seed", 0, 0, "pool")
    store.add_evaluation(
        candidate_id=0,
        task="a",
        purpose="seed_full",
        iteration=0,
        source="src-a",
        result=_result("a", ms=0.5),
        score=1.8,
        score_margin=0.01,
        llm_call_id=None,
    )
    store.add_evaluation(
        candidate_id=0,
        task="b",
        purpose="seed_full",
        iteration=0,
        source="src-b",
        result=_result("b", Stage.COMPILE_FAILED),
        score=0.2,
        score_margin=0.0,
        llm_call_id=None,
    )
    evs = store.evaluations(task="a")
    assert len(evs) == 1
    assert evs[0].result.speedup_eager == pytest.approx(4.0)
    assert evs[0].accepted and evs[0].source_hash
    assert [e.task for e in store.evaluations(accepted_only=True)] == ["a"]
    assert store.evaluations(purpose=("full", "merge")) == []
    assert store.candidate(0).components == {"instructions": "x"}


def test_totals_sum_llm_spend_and_count_unknown_prices(store):
    for cost, known, err in [(0.5, True, ""), (0.0, False, ""), (0.0, True, "429")]:
        store.add_llm_call(
            request_hash="h",
            model="m",
            purpose="generate",
            iteration=1,
            request={},
            response_text="r",
            tokens_in=10,
            tokens_out=5,
            cost_usd=cost,
            cost_known=known,
            latency_s=0.1,
            attempts=1,
            error=err,
        )
    t = store.totals()
    assert (t.llm_calls, t.llm_errors, t.tokens_in, t.cost_unknown_calls) == (3, 1, 30, 1)
    assert t.cost_usd == pytest.approx(0.5)


def test_engine_state_is_replaced_not_appended(store):
    assert store.load_engine_state() is None
    store.save_engine_state({"iteration": 1})
    store.save_engine_state({"iteration": 2})
    assert store.load_engine_state() == {"iteration": 2}


def test_a_failed_write_rolls_back_and_leaves_the_store_usable(store):
    with pytest.raises(ValueError):
        store.add_evaluation(
            candidate_id=None,
            task="a",
            purpose="nonsense",
            iteration=0,
            source="s",
            result=_result("a"),
            score=0.0,
            score_margin=0.0,
            llm_call_id=None,
        )
    with pytest.raises(sqlite3.IntegrityError):
        with store._tx() as c:
            c.execute("INSERT INTO events (ts, kind, data_json) VALUES (1, 'x', '{}')")
            c.execute("INSERT INTO engine_state VALUES (2, '{}', 0)")  # violates CHECK
    assert store.events() == []
    store.add_event("ok", 1, note="after")
    assert store.events()[0].data == {"note": "after"}


def test_reopened_store_sees_committed_writes(store, tmp_path):
    store.add_event("iteration_started", 3)
    store.set_status("stopped")
    with RunStore.open(tmp_path / "run" / STORE_FILENAME) as again:
        assert again.run().status == "stopped"
        assert again.events("iteration_started")[0].iteration == 3
