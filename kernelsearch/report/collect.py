"""Reading a run store into a `RunReport` (read only: nothing here writes to the store).

Which kernel a task shows (`final_kernel`):
- The run re-times the top accepted kernels of each task at the end (purpose `retime`): when a
  task has an accepted re-time, its best one is shown, with the re-timed figures.
- Otherwise the task's best accepted search evaluation is shown with the search's figures,
  unless a re-time of that same kernel came back not accepted (a kernel that failed its
  re-check is not shown as best).
- "Best" is the search's score (objective and baseline of the run), the earliest on a tie.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

from kernelsearch.errors import ConfigError
from kernelsearch.report.metrics import (
    BASELINE_NAMES,
    Ownership,
    ProgressSample,
    accepted_speedups,
    fast_p_table,
    frontier_ownership,
    geomean_speedup,
    progress_curve,
)
from kernelsearch.report.model import (
    FIGURES_NONE,
    FIGURES_RETIME,
    FIGURES_SEARCH,
    FIGURES_TEST,
    FrontierPrompt,
    LineageNode,
    RunReport,
    Scoreboard,
    Spend,
    TaskBest,
)
from kernelsearch.result import EvalResult, Severity
from kernelsearch.search.finish import final_evaluation
from kernelsearch.search.pareto import aggregate
from kernelsearch.search.score import Scored
from kernelsearch.store import CandidateRecord, EvaluationRecord, RunStore

log = logging.getLogger(__name__)

NOT_SEARCH = ("retime", "test")  # purposes that do not spend the search budget
# A pool candidate's scores: its full evaluation plus (when valset = trainset) the minibatch runs
# it passed its gate with, as the engine scores it. Parent re-runs are not part of them.
FULL_SCORE_PURPOSES = ("seed_full", "child_minibatch", "merge", "full")
MAX_ERROR_CHARS = 300  # error text kept per task in a report


def build_report(run_dir: Path) -> RunReport:
    """The report of the run in `run_dir` (a run directory or its `run.sqlite`)."""
    with RunStore.open(Path(run_dir)) as store:
        return report_from_store(store, run_dir=Path(run_dir))


def report_from_store(store: RunStore, run_dir: Path) -> RunReport:
    run = store.run()
    config = run.config
    search_tasks, pareto_tasks, test_tasks = task_lists(run.tasks)
    evaluations = store.evaluations()
    search = [e for e in evaluations if e.purpose not in NOT_SEARCH]
    retimes = [e for e in evaluations if e.purpose == "retime"]
    tests = [e for e in evaluations if e.purpose == "test"]
    # Tasks evaluated but missing from the stored task lists still appear (and count).
    search_tasks += [t for t in dict.fromkeys(e.task for e in search) if t not in search_tasks]
    test_tasks += [t for t in dict.fromkeys(e.task for e in tests) if t not in test_tasks]

    board, shown = scoreboard(search_tasks, search, retimes)
    test_board = scoreboard(test_tasks, tests, [], FIGURES_TEST)[0] if test_tasks else None
    candidates = store.candidates()
    matrix = score_matrix(search, {c.id for c in candidates if c.status == "pool"}, pareto_tasks)
    ownership = frontier_ownership(matrix, pareto_tasks)
    samples = (
        ProgressSample(e.task, e.accepted, e.score, e.speedup_eager, e.speedup_compile)
        for e in search
    )
    # What the figures were measured on: the shown kernels, else anything that ran.
    measured = shown or [e.result for e in evaluations if e.result.device not in ("", "none")]
    return RunReport(
        run_id=run.run_id,
        run_dir=str(run_dir),
        status=run.status,
        created_ts=run.created_ts,
        updated_ts=run.updated_ts,
        model=str(config.get("model", "")),
        reflection_model=str(config.get("reflection_model") or config.get("model", "")),
        backend=str(config.get("backend", "")),
        objective=str(config.get("objective", "speed")),
        baseline=str(config.get("baseline", "eager")),
        hardware=_distinct(r.device for r in measured),
        timing_methods=_distinct(r.runtime.method for r in measured if r.runtime),
        search=board,
        spend=spend(store, config, len(pareto_tasks), len(retimes), len(tests)),
        ownership=ownership,
        frontier=frontier_prompts(candidates, ownership, matrix, pareto_tasks),
        lineage=lineage(candidates, ownership, board),
        progress=tuple(progress_curve(samples, search_tasks)),
        test=test_board,
    )


def frontier_prompts(
    candidates: Sequence[CandidateRecord],
    ownership: Ownership,
    matrix: dict[int, dict[str, Scored]],
    pareto_tasks: Sequence[str],
) -> tuple[FrontierPrompt, ...]:
    return tuple(
        FrontierPrompt(
            candidate_id=c.id,
            origin=c.origin,
            parents=c.parents,
            iteration=c.iteration,
            discovery_evals=c.discovery_evals,
            components=dict(c.components),
            wins=ownership.wins[c.id],
            share=ownership.shares[c.id],
            mean_score=aggregate(matrix.get(c.id, {}), pareto_tasks),
        )
        for c in candidates
        if c.id in ownership.wins
    )


def lineage(
    candidates: Sequence[CandidateRecord], ownership: Ownership, board: Scoreboard
) -> tuple[LineageNode, ...]:
    wrote: dict[int, list[str]] = defaultdict(list)
    for b in board.best:
        if b.accepted and b.candidate_id is not None:
            wrote[b.candidate_id].append(b.task)
    return tuple(
        LineageNode(
            id=c.id,
            parents=c.parents,
            origin=c.origin,
            status=c.status,
            iteration=c.iteration,
            discovery_evals=c.discovery_evals,
            on_frontier=c.id in ownership.wins,
            best_kernels=tuple(wrote.get(c.id, ())),
        )
        for c in candidates
    )


def spend(store: RunStore, config: dict, n_pareto_tasks: int, retimes: int, tests: int) -> Spend:
    totals = store.totals()
    return Spend(
        evaluations=totals.evaluations,
        budget=evaluation_budget(config, n_pareto_tasks),
        retimes=retimes,
        test_evaluations=tests,
        llm_calls=totals.llm_calls,
        llm_errors=totals.llm_errors,
        tokens_in=totals.tokens_in,
        tokens_out=totals.tokens_out,
        cost_usd=totals.cost_usd,
        cost_unknown_calls=totals.cost_unknown_calls,
    )


def task_lists(tasks: dict[str, list[dict]]) -> tuple[list[str], list[str], list[str]]:
    """(search tasks = train then val, Pareto tasks = val or else train, test tasks)."""
    train = [t["name"] for t in tasks.get("train") or ()]
    val = [t["name"] for t in tasks.get("val") or ()]
    test = [t["name"] for t in tasks.get("test") or ()]
    search = list(dict.fromkeys(train + val))
    return search, list(dict.fromkeys(val or train)), list(dict.fromkeys(test))


def scoreboard(
    tasks: Sequence[str],
    evaluations: Sequence[EvaluationRecord],
    retimes: Sequence[EvaluationRecord],
    figures: str = FIGURES_SEARCH,
) -> tuple[Scoreboard, list[EvalResult]]:
    """Per-task bests and the metrics over them; also the accepted results shown.

    `figures` names where un-retimed figures come from (the search, or a test evaluation).
    """
    by_task: dict[str, list[EvaluationRecord]] = defaultdict(list)
    for e in evaluations:
        by_task[e.task].append(e)
    retimes_by_task: dict[str, list[EvaluationRecord]] = defaultdict(list)
    for e in retimes:
        retimes_by_task[e.task].append(e)
    best: list[TaskBest] = []
    shown: dict[str, EvalResult | None] = {}
    for task in tasks:
        tb, result = task_best(task, by_task.get(task, []), retimes_by_task.get(task, []), figures)
        best.append(tb)
        shown[task] = result
    fast = {}
    geo = {}
    for baseline in BASELINE_NAMES:
        speedups = accepted_speedups(shown, baseline)
        fast[baseline] = fast_p_table(speedups, tasks)
        geo[baseline] = geomean_speedup(speedups)
    board = Scoreboard(tasks=tuple(tasks), best=tuple(best), fast_p=fast, geomean=geo)
    return board, [r for r in shown.values() if r is not None]


def _rank(e: EvaluationRecord) -> tuple[float, int]:
    return (e.score, -e.id)


def final_kernel(
    search: Sequence[EvaluationRecord],
    retimes: Sequence[EvaluationRecord],
    figures: str = FIGURES_SEARCH,
) -> tuple[EvaluationRecord | None, str]:
    """The evaluation to show for one task and where its figures come from (module doc).

    The choice itself is the search's own rule (`search.finish.final_evaluation`), so the
    report, the run's summary.json and its kernels/ folder always name the same kernel.
    """
    chosen = final_evaluation(search, retimes)
    if chosen is None:
        return None, FIGURES_NONE
    return chosen, FIGURES_RETIME if chosen.purpose == "retime" else figures


def task_best(
    task: str,
    search: Sequence[EvaluationRecord],
    retimes: Sequence[EvaluationRecord],
    figures: str = FIGURES_SEARCH,
) -> tuple[TaskBest, EvalResult | None]:
    chosen, figures = final_kernel(search, retimes, figures)
    if chosen is None:
        furthest = max(search, key=_rank) if search else None
        return (
            TaskBest(
                task=task,
                accepted=False,
                figures=FIGURES_NONE,
                stage=furthest.stage if furthest else "not_evaluated",
                evaluation_id=furthest.id if furthest else None,
                candidate_id=furthest.candidate_id if furthest else None,
                error=_why_not(furthest.result) if furthest else "no evaluation of this task",
                attempts=len(search),
            ),
            None,
        )
    r = chosen.result
    writer = chosen.candidate_id
    if writer is None:  # re-times may not name the prompt; the first evaluation of it does
        writer = next((e.candidate_id for e in search if e.source_hash == chosen.source_hash), None)
    return (
        TaskBest(
            task=task,
            accepted=True,
            figures=figures,
            stage=chosen.stage,
            evaluation_id=chosen.id,
            candidate_id=writer,
            source_hash=chosen.source_hash,
            score=chosen.score,
            runtime_ms=r.runtime_ms,
            eager_ms=r.baseline_eager_ms,
            compile_ms=r.baseline_compile_ms,
            speedup_eager=r.speedup_eager,
            speedup_compile=r.speedup_compile,
            timing_method=r.runtime.method if r.runtime else "",
            device=r.device,
            flags=tuple(r.flags),
            attempts=len(search),
        ),
        r,
    )


def _why_not(result: EvalResult) -> str:
    errors = [f"{f.name}: {f.reason}" for f in result.flags if f.severity is Severity.ERROR]
    text = result.error or "; ".join(errors)
    if not text and result.mismatch is not None:
        text = result.mismatch.reason
    text = " ".join(text.split())
    return text[:MAX_ERROR_CHARS] + ("..." if len(text) > MAX_ERROR_CHARS else "")


def score_matrix(
    evaluations: Iterable[EvaluationRecord], pool: set[int], tasks: Sequence[str]
) -> dict[int, dict[str, Scored]]:
    """Pool candidates' scores on the Pareto tasks (`FULL_SCORE_PURPOSES`, latest per task)."""
    wanted = set(tasks)
    matrix: dict[int, dict[str, Scored]] = {c: {} for c in sorted(pool)}
    for e in evaluations:
        if e.purpose in FULL_SCORE_PURPOSES and e.candidate_id in pool and e.task in wanted:
            matrix[e.candidate_id][e.task] = Scored(e.score, e.score_margin)
    return {c: row for c, row in matrix.items() if row}


def evaluation_budget(config: dict, n_pareto_tasks: int) -> int | None:
    """The run's evaluation cap as the search computed it (None when it cannot be read)."""
    from kernelsearch.search.config import SearchConfig

    try:
        return SearchConfig.from_dict(config).evaluation_budget(n_pareto_tasks)
    except (ConfigError, TypeError, ValueError, KeyError) as e:
        log.debug("budget not derivable from the stored config (%s)", e)
        budget = config.get("budget")
        return int(budget) if isinstance(budget, int) else None


def _distinct(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(v for v in dict.fromkeys(values) if v)
