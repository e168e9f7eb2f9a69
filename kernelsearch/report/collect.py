"""Reading a run store into a `RunReport` (read only: nothing here writes to the store).

Which kernel a task shows, and the record of it, is `kernelsearch.bests`: the same rule and
`TaskBest` the search writes its summary.json and kernels/ with.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

from kernelsearch.bests import NOT_SEARCH, RETIME_PURPOSE, TEST_PURPOSE, TaskBest, task_bests
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
from kernelsearch.report.model import FrontierPrompt, LineageNode, RunReport, Scoreboard, Spend
from kernelsearch.result import EvalResult
from kernelsearch.search.pareto import aggregate
from kernelsearch.search.score import Scored
from kernelsearch.store import CandidateRecord, EvaluationRecord, RunStore

log = logging.getLogger(__name__)

# A pool candidate's scores: its full evaluation plus (when valset = trainset) the minibatch runs
# it passed its gate with, as the engine scores it. Parent re-runs are not part of them.
FULL_SCORE_PURPOSES = ("seed_full", "child_minibatch", "merge", "full")


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
    retimes = [e for e in evaluations if e.purpose == RETIME_PURPOSE]
    tests = [e for e in evaluations if e.purpose == TEST_PURPOSE]
    # Tasks evaluated but missing from the stored task lists still appear (and count).
    search_tasks += [t for t in dict.fromkeys(e.task for e in search) if t not in search_tasks]
    test_tasks += [t for t in dict.fromkeys(e.task for e in tests) if t not in test_tasks]

    board, shown = scoreboard(task_bests(search_tasks, evaluations))
    test_board = (
        scoreboard(task_bests(test_tasks, evaluations, test=True))[0] if test_tasks else None
    )
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
    bests: Sequence[tuple[TaskBest, EvalResult | None]],
) -> tuple[Scoreboard, list[EvalResult]]:
    """Per-task bests (`kernelsearch.bests.task_bests`) and the metrics over them; also the
    accepted results shown."""
    tasks = [b.task for b, _ in bests]
    shown = {b.task: result for b, result in bests}
    fast = {}
    geo = {}
    for baseline in BASELINE_NAMES:
        speedups = accepted_speedups(shown, baseline)
        fast[baseline] = fast_p_table(speedups, tasks)
        geo[baseline] = geomean_speedup(speedups)
    board = Scoreboard(
        tasks=tuple(tasks), best=tuple(b for b, _ in bests), fast_p=fast, geomean=geo
    )
    return board, [r for r in shown.values() if r is not None]


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
