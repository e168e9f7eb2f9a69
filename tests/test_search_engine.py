"""The GEPA engine end to end with in-process doubles: a scripted model and a fake executor.

The fake executor reads `# speed=X` (or `# broken`) from the kernel source; the scripted model
writes faster kernels when its prompt carries a lesson the reflection taught it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
from pathlib import Path

import pytest
from fakellm import kind_of

from kernelsearch.llm import LLMCallError, LLMReply, LLMSettings
from kernelsearch.result import EvalResult, Stage, TimingStats
from kernelsearch.search import SearchConfig, resume_async, run_async
from kernelsearch.store import RunStore
from kernelsearch.tasks import Task

SMOKE = Path(__file__).resolve().parents[1] / "benchmarks" / "smoke"


class SimulatedCrash(BaseException):
    """Stands in for kill -9: escapes every handler, nothing after it runs."""


def timing(ms: float) -> TimingStats:
    return TimingStats(ms, ms, 0.0, ms, ms, 10, "fake")


class FakeExecutor:
    backend = "cpu"

    def __init__(self, crash_after: int | None = None, can_time: bool = True) -> None:
        self.calls: list[tuple[str, str]] = []
        self.crash_after = crash_after
        self._can_time = can_time
        self.closed = False

    def can_time(self) -> bool:
        return self._can_time

    async def evaluate(self, task: Task, source: str) -> EvalResult:
        self.calls.append(("evaluate", task.name))
        if self.crash_after is not None and len(self.calls) > self.crash_after:
            raise SimulatedCrash()
        await asyncio.sleep(0)
        if "# broken" in source:
            return EvalResult(task.name, "cpu", "cpu", Stage.COMPILE_FAILED, error="boom")
        speed = float(re.search(r"# speed=([\d.]+)", source).group(1))
        return EvalResult(
            task.name,
            "cpu",
            "cpu",
            Stage.CORRECT,
            correct=True,
            runtime=timing(1.0 / speed),
            baseline_eager=timing(1.0),
            baseline_compile=timing(0.8),
        )

    async def retime(self, task: Task, source: str, trials: int) -> EvalResult:
        self.calls.append(("retime", task.name))
        return await self.evaluate(task, source)

    async def aclose(self) -> None:
        self.closed = True


class ScriptedModel:
    """Writes `speed=1` kernels, `speed=3` once the instructions say LESSON; reflects LESSON."""

    def __init__(self, cost: float = 0.0, reflect_failures: int = 0) -> None:
        self.settings = LLMSettings(model="scripted")
        self.calls: list[str] = []
        self.cost = cost
        self.reflect_failures = reflect_failures

    async def complete(self, messages, *, purpose):  # type: ignore[no-untyped-def]
        kind = kind_of({"messages": messages})
        self.calls.append(kind)
        await asyncio.sleep(0)
        if kind == "generate":
            user = messages[-1]["content"]
            speed = 3.0 if "LESSON" in user.split("## Task")[0] else 1.0
            text = f"```python\n# speed={speed}\nclass ModelNew:\n    pass\n```"
        elif kind == "reflect":
            if self.reflect_failures > 0:
                self.reflect_failures -= 1
                raise LLMCallError("injected", attempts=3, retryable=True)
            text = "<instructions>LESSON: fuse loops.</instructions>"
        else:
            text = "<instructions>LESSON merged.</instructions>"
        return LLMReply(
            text=text,
            model="scripted",
            tokens_in=10,
            tokens_out=5,
            cost_usd=self.cost,
            cost_known=True,
        )


def tasks() -> list[Task]:
    from kernelsearch.tasks import load_batch

    return load_batch(SMOKE)[:2]


def config(**kw) -> SearchConfig:  # type: ignore[no-untyped-def]
    base = dict(budget=12, minibatch_size=1, concurrency=1, retime_top_k=2, seed=3, use_merge=False)
    base.update(kw)
    return SearchConfig(**base)


def feedback(result: EvalResult) -> str:
    return f"stage {result.stage.value}"


def go(tmp_path, cfg, model=None, executor=None, **kw):  # type: ignore[no-untyped-def]
    model = model or ScriptedModel()
    return asyncio.run(
        run_async(
            tasks(),
            cfg,
            out=tmp_path / "run",
            executor=executor or FakeExecutor(),
            writer=model,
            reflector=model,
            feedback=feedback,
            **kw,
        )
    )


def test_search_finds_the_faster_kernel_and_writes_the_run_directory(tmp_path):
    summary = go(tmp_path, config())
    assert summary.status == "finished"
    assert len(summary.candidates) >= 2
    best = summary.task("1_add_relu")
    assert best.accepted and best.figures == "retime"
    assert best.speedup_eager == pytest.approx(3.0)
    run_dir = tmp_path / "run"
    kernel = (run_dir / best.kernel_file).read_text()
    assert "class ModelNew" in kernel and "speed=3.0" in kernel
    assert (run_dir / "summary.json").is_file()
    assert "LESSON" in (run_dir / "prompts" / "best.md").read_text()


def test_evaluation_budget_is_never_exceeded(tmp_path):
    summary = go(tmp_path, config(budget=7, concurrency=3))
    assert summary.evaluations <= 7
    with RunStore.open(tmp_path / "run") as store:
        assert store.totals().evaluations <= 7


def test_budget_too_small_for_the_seed_is_a_config_error(tmp_path):
    from kernelsearch.errors import ConfigError

    with pytest.raises(ConfigError, match="raise --budget"):
        go(tmp_path, config(budget=1))


def test_cost_cap_stops_new_llm_calls(tmp_path):
    model = ScriptedModel(cost=0.01)
    summary = go(tmp_path, config(budget=100, max_cost_usd=0.035), model=model)
    assert "cost cap" in summary.stop_reason
    # at most the calls already in flight when the cap was crossed (concurrency 1: one)
    assert summary.cost_usd <= 0.035 + 0.01 + 1e-9


def test_reflection_llm_failure_loses_one_iteration_and_the_run_goes_on(tmp_path):
    model = ScriptedModel(reflect_failures=1)
    summary = go(tmp_path, config(budget=12), model=model)
    with RunStore.open(tmp_path / "run") as store:
        assert len(store.events("iteration_failed")) == 1
    assert summary.task("1_add_relu").speedup_eager == pytest.approx(3.0)


def test_speed_objective_is_refused_where_kernels_cannot_be_timed(tmp_path):
    from kernelsearch.errors import ConfigError

    with pytest.raises(ConfigError, match="--objective correctness"):
        go(tmp_path, config(), executor=FakeExecutor(can_time=False))


def test_correctness_objective_runs_without_timing(tmp_path):
    summary = go(tmp_path, config(objective="correctness"), executor=FakeExecutor(can_time=False))
    assert summary.objective == "correctness"
    assert all(t.accepted for t in summary.tasks)


def _final_state(run_dir: Path) -> dict:
    with RunStore.open(run_dir) as store:
        state = store.load_engine_state()
    return {
        k: state[k]
        for k in (
            "pool",
            "next_candidate_id",
            "next_iteration",
            "archive",
            "used_evals",
            "rng",
            "sampler",
            "round_robin",
        )
    }


@pytest.mark.parametrize("crash_after", [1, 3, 6])
def test_crash_and_resume_ends_in_the_uninterrupted_state_without_paying_twice(
    tmp_path, crash_after
):
    cfg = config(budget=10, use_merge=True)
    go(tmp_path / "a", cfg)
    uninterrupted = _final_state(tmp_path / "a" / "run")

    model = ScriptedModel()
    with pytest.raises(SimulatedCrash):
        go(tmp_path / "b", cfg, model=model, executor=FakeExecutor(crash_after=crash_after))
    paid_before = len(model.calls)
    with RunStore.open(tmp_path / "b" / "run") as store:
        seeds_before = len(store.evaluations(purpose="seed_full"))
        calls_before = len(store.llm_calls())
    summary = asyncio.run(
        resume_async(
            tmp_path / "b" / "run",
            executor=FakeExecutor(),
            writer=model,
            reflector=model,
            feedback=feedback,
        )
    )
    assert summary.status == "finished"
    assert _final_state(tmp_path / "b" / "run") == uninterrupted
    with RunStore.open(tmp_path / "b" / "run") as store:
        if seeds_before == 2:  # seed done before the crash: never evaluated again
            assert len(store.evaluations(purpose="seed_full")) == 2
        # every recorded call was replayed, not paid again
        assert len(store.llm_calls()) == len(model.calls)
        assert calls_before == paid_before


def test_summary_and_report_describe_the_same_kernel_for_search_and_test_tasks(tmp_path):
    from kernelsearch.report import build_report
    from kernelsearch.tasks import load_batch

    held_out = load_batch(SMOKE)[2:3]
    summary = go(tmp_path, config(), testset=held_out)
    report = build_report(tmp_path / "run")
    shown = {b.task: b for b in report.search.best}
    assert {t.task for t in summary.tasks} == set(shown) == {t.name for t in tasks()}
    for t in summary.tasks:
        assert t.kernel_file and (tmp_path / "run" / t.kernel_file).is_file()
        assert dataclasses.replace(t, kernel_file=None) == shown[t.task]
    assert summary.test == report.test.best
    (test_best,) = summary.test
    assert test_best.task == held_out[0].name == "3_row_sum"
    assert test_best.figures == "test" and test_best.accepted
