"""The Python API: `run(batch, config)` starts a search, `resume(run_dir)` continues one.

Both return a `RunSummary` and leave the run directory complete: `run.sqlite`, the best kernel
per task under `kernels/`, the frontier prompts under `prompts/`, and `summary.json`.
Usable from a notebook (`await run_async(...)` inside a running event loop).

Stopping: the first Ctrl-C / SIGTERM / `RUN_DIR/STOP` file lets in-flight iterations finish and
saves them (status `stopped`, resumable); a second Ctrl-C cancels at once (`KeyboardInterrupt`);
the store stays consistent because every write is a transaction.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import signal
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from kernelsearch.errors import ConfigError
from kernelsearch.llm import LanguageModel, LiteLLMModel, LLMSettings, check_credentials
from kernelsearch.search import finish
from kernelsearch.search.budget import Budget
from kernelsearch.search.config import STOP_FILENAME, SearchConfig
from kernelsearch.search.engine import Engine, ProgressFn
from kernelsearch.search.messages import seed_instructions
from kernelsearch.search.pareto import aggregate
from kernelsearch.search.recorder import RecordedModel, ReplayLog
from kernelsearch.search.state import EngineState
from kernelsearch.search.summary import CandidateSummary, RunSummary
from kernelsearch.search.trials import FeedbackFn, TrialRunner, make_feedback_fn
from kernelsearch.store import RunStore
from kernelsearch.tasks import Task, load_batch

log = logging.getLogger(__name__)

DEFAULT_RESULTS_DIR = Path("results")
RESUMABLE_OVERRIDES = ("budget", "auto", "max_cost_usd", "max_time_s", "concurrency", "api_base")


def run(
    batch: Path | str | Sequence[Task],
    config: SearchConfig,
    *,
    out: Path | None = None,
    valset: Path | str | Sequence[Task] | None = None,
    testset: Path | str | Sequence[Task] | None = None,
    on_progress: ProgressFn | None = None,
    **injected: Any,
) -> RunSummary:
    """Search for kernels for every task in `batch`. See `run_async` for the arguments."""
    return _run_sync(
        run_async(
            batch,
            config,
            out=out,
            valset=valset,
            testset=testset,
            on_progress=on_progress,
            **injected,
        )
    )


def resume(run_dir: Path, on_progress: ProgressFn | None = None, **overrides: Any) -> RunSummary:
    """Continue the run in `run_dir` (overrides: budget, auto, max_cost_usd, max_time_s, ...)."""
    return _run_sync(resume_async(run_dir, on_progress=on_progress, **overrides))


async def run_async(
    batch: Path | str | Sequence[Task],
    config: SearchConfig,
    *,
    out: Path | None = None,
    valset: Path | str | Sequence[Task] | None = None,
    testset: Path | str | Sequence[Task] | None = None,
    on_progress: ProgressFn | None = None,
    executor: Any = None,
    writer: LanguageModel | None = None,
    reflector: LanguageModel | None = None,
    feedback: FeedbackFn | None = None,
) -> RunSummary:
    """Start a search. `executor`, `writer`, `reflector`, `feedback` replace the defaults
    (the harness's local executor, litellm models, `kernelsearch.feedback`) — for tests and
    for custom cluster executors."""
    train = _tasks(batch, "batch")
    val = _tasks(valset, "--valset") if valset is not None else train
    test = _tasks(testset, "--testset") if testset is not None else []
    executor = executor or _make_executor(config)
    try:
        _check_objective(config, executor)
        writer, reflector = _models(config, writer, reflector)
        run_id = time.strftime("%Y%m%d-%H%M%S") + f"-{config.backend}-{random.randrange(16**4):04x}"
        run_dir = Path(out) if out is not None else DEFAULT_RESULTS_DIR / run_id
        store = RunStore.create(
            run_dir,
            run_id,
            config.to_dict(),
            {
                k: [t.to_dict() for t in ts]
                for k, ts in (("train", train), ("val", val), ("test", test))
            },
        )
        state = EngineState(rng=random.Random(config.seed))
        components = {"instructions": config.seed_instructions or seed_instructions()}
        return await _drive(
            store,
            config,
            train,
            val,
            test,
            state,
            components,
            ReplayLog(),
            executor,
            writer,
            reflector,
            feedback,
            on_progress,
        )
    finally:
        await executor.aclose()


async def resume_async(
    run_dir: Path,
    *,
    on_progress: ProgressFn | None = None,
    executor: Any = None,
    writer: LanguageModel | None = None,
    reflector: LanguageModel | None = None,
    feedback: FeedbackFn | None = None,
    **overrides: Any,
) -> RunSummary:
    """Continue a stopped, crashed or finished run (a finished one only if the budget grew)."""
    store = RunStore.open(Path(run_dir))
    record = store.run()
    bad = sorted(set(overrides) - set(RESUMABLE_OVERRIDES))
    if bad:
        raise ConfigError(f"--resume cannot change {', '.join(bad)}; start a new run instead")
    changes = {k: v for k, v in overrides.items() if v is not None}
    if "budget" in changes:
        changes["auto"] = None
    config = SearchConfig.from_dict(record.config).replace(**changes)
    store.update_config(config.to_dict())
    train = [Task.from_dict(d) for d in record.tasks["train"]]
    val = [Task.from_dict(d) for d in record.tasks["val"]]
    test = [Task.from_dict(d) for d in record.tasks.get("test", [])]
    saved = store.load_engine_state()
    state = EngineState.from_dict(saved) if saved else EngineState(rng=random.Random(config.seed))
    replay = ReplayLog(store, state.completed)
    (Path(run_dir) / STOP_FILENAME).unlink(missing_ok=True)
    components = (
        store.candidate(0).components
        if store.candidates()
        else {"instructions": config.seed_instructions or seed_instructions()}
    )
    executor = executor or _make_executor(config)
    try:
        _check_objective(config, executor)
        writer, reflector = _models(config, writer, reflector)
        store.set_status("running")
        store.add_event("resumed", None, pending_replays=replay.pending)
        return await _drive(
            store,
            config,
            train,
            val,
            test,
            state,
            components,
            replay,
            executor,
            writer,
            reflector,
            feedback,
            on_progress,
        )
    finally:
        await executor.aclose()


# ---------------------------------------------------------------------------------------


async def _drive(
    store: RunStore,
    config: SearchConfig,
    train: list[Task],
    val: list[Task],
    test: list[Task],
    state: EngineState,
    components: dict[str, str],
    replay: ReplayLog,
    executor: Any,
    writer: LanguageModel,
    reflector: LanguageModel,
    feedback: FeedbackFn | None,
    on_progress: ProgressFn | None,
) -> RunSummary:
    run_dir = store.path.parent
    totals = store.totals()
    budget = Budget(
        max_evals=config.evaluation_budget(len(val)),
        max_cost_usd=config.max_cost_usd,
        max_time_s=config.max_time_s,
        stop_file=run_dir / STOP_FILENAME,
        used_evals=state.used_evals,
        cost_usd=totals.cost_usd,
        elapsed_before_s=state.elapsed_s,
    )
    rec_writer = RecordedModel(writer, store, replay, budget)
    rec_reflector = (
        rec_writer if reflector is writer else RecordedModel(reflector, store, replay, budget)
    )
    runner = TrialRunner(
        executor=executor,
        writer=rec_writer,
        store=store,
        replay=replay,
        budget=budget,
        archive=state.archive,
        feedback=feedback or make_feedback_fn(_hardware_for(config.backend)),
        backend=config.backend,
        objective=config.objective,
        baseline=config.baseline,
    )
    engine = Engine(
        config=config,
        train=train,
        val=val,
        trials=runner,
        reflector=rec_reflector,
        store=store,
        budget=budget,
        state=state,
        seed_components=components,
        on_progress=on_progress,
    )
    try:
        with _graceful_signals(budget):
            reason = await engine.run()
    except asyncio.CancelledError:
        store.add_event("aborted", None)
        store.set_status("stopped")
        raise KeyboardInterrupt from None
    except BaseException:
        store.set_status("failed")
        raise
    stopped_by_user = engine._user_stop()
    store.add_event("search_ended", None, reason=reason)
    if not stopped_by_user:
        for t in _all_tasks(train, val):
            await finish.retime_task(runner, store, t, config.retime_top_k, config.retime_trials)
        if test:
            best_id = engine.best_candidate()
            await finish.evaluate_testset(runner, state.pool[best_id].components, best_id, test)
    bests = finish.stored_bests(store, [t.name for t in _all_tasks(train, val)])
    test_names = [t.name for t in test] if not stopped_by_user else []  # untested when stopped
    test_bests = finish.stored_bests(store, test_names, test=True)
    summary = _summarise(
        store,
        config,
        engine,
        budget,
        reason,
        bests,
        test_bests,
        "stopped" if stopped_by_user else "finished",
    )
    store.set_status(summary.status)
    return summary


def _summarise(store, config, engine, budget, reason, bests, test_bests, status) -> RunSummary:  # type: ignore[no-untyped-def]
    run_dir = store.path.parent
    st = engine.state
    front = engine.frontier()
    best = engine.best_candidate()
    bests = finish.write_kernels(run_dir, store, bests)
    files = finish.write_prompts(
        run_dir, {c.id: c.components for c in st.pool.values()}, list(front), best
    )
    files.update({t.task: t.kernel_file for t in bests if t.kernel_file})
    files["store"] = store.path.name
    files["summary"] = finish.SUMMARY_FILE
    totals = store.totals()
    val_names = engine.val_names
    summary = RunSummary(
        run_id=store.run().run_id,
        run_dir=str(run_dir),
        status=status,
        stop_reason=reason,
        objective=config.objective,
        baseline=config.baseline,
        backend=config.backend,
        model=config.model,
        reflection_model=config.reflection_model_name,
        evaluations=budget.used_evals,
        eval_budget=budget.max_evals,
        iterations=st.next_iteration - 1,
        llm_calls=totals.llm_calls,
        tokens_in=totals.tokens_in,
        tokens_out=totals.tokens_out,
        cost_usd=totals.cost_usd,
        cost_complete=totals.cost_unknown_calls == 0,
        elapsed_s=budget.elapsed_s,
        best_candidate=best,
        frontier=tuple(sorted(front)),
        candidates=tuple(
            CandidateSummary(
                id=c.id,
                parents=c.parents,
                origin=c.origin,
                iteration=c.iteration,
                discovery_evals=c.discovery_evals,
                aggregate=aggregate(c.scores, val_names),
                scores={t: s.score for t, s in c.scores.items()},
                on_frontier=c.id in front,
            )
            for c in sorted(st.pool.values(), key=lambda c: c.id)
        ),
        tasks=tuple(bests),
        test=tuple(test_bests),
        files=files,
    )
    finish.write_summary(run_dir, summary)
    return summary


def _all_tasks(train: list[Task], val: list[Task]) -> list[Task]:
    seen: dict[str, Task] = {}
    for t in [*val, *train]:
        seen.setdefault(t.name, t)
    return list(seen.values())


def _tasks(source: Path | str | Sequence[Task], what: str) -> list[Task]:
    tasks = load_batch(source) if isinstance(source, (str, Path)) else list(source)
    if not tasks:
        raise ConfigError(f"{what}: no tasks")
    return tasks


def _make_executor(config: SearchConfig) -> Any:
    from kernelsearch.harness.executor import make_executor

    return make_executor(config.eval)


def _check_objective(config: SearchConfig, executor: Any) -> None:
    if config.objective == "speed" and not executor.can_time():
        raise ConfigError(
            f"the {config.backend} backend cannot time kernels on this machine (no GPU), so "
            "--objective speed has nothing to measure; pass --objective correctness or "
            "--objective compile, or run where the backend can execute"
        )


def _models(
    config: SearchConfig, writer: LanguageModel | None, reflector: LanguageModel | None
) -> tuple[LanguageModel, LanguageModel]:
    """The kernel writer and the reflection model (one shared object when they are the same)."""
    if writer is None:
        check_credentials(config.model, config.api_base)
        writer = LiteLLMModel(_settings(config, config.model), seed=config.seed)
    if reflector is None:
        if config.reflection_model_name == config.model and isinstance(writer, LiteLLMModel):
            reflector = writer
        else:
            check_credentials(config.reflection_model_name, config.api_base)
            reflector = LiteLLMModel(
                _settings(config, config.reflection_model_name), seed=config.seed + 1
            )
    return writer, reflector


def _settings(config: SearchConfig, model: str) -> LLMSettings:
    return LLMSettings(
        model=model,
        api_base=config.api_base,
        temperature=config.temperature,
        max_tokens=config.max_tokens,
        timeout_s=config.llm_timeout_s,
        max_retries=config.llm_max_retries,
        backoff_base_s=config.llm_backoff_base_s,
        concurrency=config.llm_concurrency,
    )


@contextlib.contextmanager
def _graceful_signals(budget: Budget) -> Iterator[None]:
    """First SIGINT/SIGTERM: stop starting work. Second SIGINT: cancel the search task."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    loop = asyncio.get_running_loop()
    main = asyncio.current_task()
    hits = {"n": 0}

    def on_signal(sig: signal.Signals) -> None:
        hits["n"] += 1
        if hits["n"] == 1:
            what = "interrupted (Ctrl-C)" if sig == signal.SIGINT else "terminated (SIGTERM)"
            budget.request_stop(f"{what}: finishing in-flight work")
            log.warning("%s: finishing in-flight work; press Ctrl-C again to abort", what)
        elif main is not None:
            main.cancel()

    installed = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, on_signal, sig)
            installed.append(sig)
        except (NotImplementedError, RuntimeError):
            pass
    try:
        yield
    finally:
        for sig in installed:
            loop.remove_signal_handler(sig)


def _run_sync(coro: Any) -> RunSummary:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    coro.close()
    raise RuntimeError("an event loop is running here (a notebook?): use `await run_async(...)`")


def _hardware_for(backend: str) -> Any:
    """The hardware profile feedback measures rooflines against (None: no profile known)."""
    from kernelsearch.hardware import detect

    try:
        return detect("cpu" if backend == "cpu" else "cuda")
    except Exception as e:  # noqa: BLE001 - feedback works without a profile
        log.warning("no hardware profile for feedback (%s)", e)
        return None
