"""Pure functions for every number a report shows: fast_p, geometric-mean speedup, frontier
ownership and progress curves.

Conventions (KernelBench's, see KERNELBENCH.md):
- `fast_p` is the fraction of *all* tasks whose kernel is accepted AND faster than `p` times
  the baseline. A task with no accepted kernel, or missing altogether, counts as a failure.
  `fast_0` is the correctness rate: every accepted kernel counts, timed or not.
- The geometric mean is over accepted kernels that have a speedup; untimed ones are skipped.

Inputs that say which kernels count are built with `accepted_speedups()`, which reads
`EvalResult.accepted` and nothing else.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kernelsearch.result import EvalResult
from kernelsearch.search.pareto import ScoreMatrix, frontier, task_winners

FAST_P_THRESHOLDS: tuple[float, ...] = (0.0, 0.5, 0.8, 1.0, 1.5, 2.0)
BASELINE_NAMES: tuple[str, ...] = ("eager", "compile")

# Speedups by task, for the tasks that have an accepted kernel only. None: accepted, untimed.
Speedups = Mapping[str, float | None]


def accepted_speedups(
    results: Mapping[str, EvalResult | None], baseline: str = "eager"
) -> dict[str, float | None]:
    """The `fast_p` / geomean input: each accepted result's speedup against `baseline`.

    Results that are not `accepted` (and None) are left out, so they count as failures.
    """
    if baseline not in BASELINE_NAMES:
        raise ValueError(f"baseline must be one of {BASELINE_NAMES}, got {baseline!r}")
    out: dict[str, float | None] = {}
    for task, result in results.items():
        if result is None or not result.accepted:
            continue
        out[task] = result.speedup_eager if baseline == "eager" else result.speedup_compile
    return out


def fast_p(speedups_by_task: Speedups, all_tasks: Iterable[str], p: float) -> float:
    """Fraction of `all_tasks` with an accepted kernel (a key of `speedups_by_task`) whose
    speedup is > p. For p == 0 every accepted kernel counts (the correctness rate). Keys not
    in `all_tasks` are ignored; no tasks at all gives 0.0.
    """
    tasks = list(dict.fromkeys(all_tasks))
    if not tasks:
        return 0.0
    wins = 0
    for task in tasks:
        if task not in speedups_by_task:
            continue
        s = speedups_by_task[task]
        if p <= 0 or (s is not None and math.isfinite(s) and s > p):
            wins += 1
    return wins / len(tasks)


def fast_p_table(
    speedups_by_task: Speedups,
    all_tasks: Iterable[str],
    thresholds: Sequence[float] = FAST_P_THRESHOLDS,
) -> dict[float, float]:
    """`fast_p` for every threshold in `thresholds`, keyed by p."""
    tasks = list(all_tasks)
    return {p: fast_p(speedups_by_task, tasks, p) for p in thresholds}


def geomean_speedup(speedups_by_task: Speedups) -> float | None:
    """Geometric mean of the (positive, finite) speedups; None when there is none."""
    values = [s for s in speedups_by_task.values() if s is not None and math.isfinite(s) and s > 0]
    if not values:
        return None
    return math.exp(sum(math.log(s) for s in values) / len(values))


# ---------------------------------------------------------------------------------------
# Frontier ownership


@dataclass(frozen=True)
class Ownership:
    """Which frontier prompt wins which tasks. A tie shares the task between its winners."""

    wins: dict[int, tuple[str, ...]]  # frontier candidate -> tasks it wins (task order)
    owners: dict[str, tuple[int, ...]]  # task -> frontier candidates that win it (id order)
    shares: dict[int, float]  # frontier candidate -> tasks won, a k-way tie counting 1/k

    def to_dict(self) -> dict[str, Any]:
        return {
            "wins": {str(c): list(t) for c, t in self.wins.items()},
            "owners": {t: list(c) for t, c in self.owners.items()},
            "shares": {str(c): s for c, s in self.shares.items()},
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Ownership:
        return cls(
            wins={int(c): tuple(t) for c, t in d["wins"].items()},
            owners={t: tuple(c) for t, c in d["owners"].items()},
            shares={int(c): float(s) for c, s in d["shares"].items()},
        )


def frontier_ownership(scores: ScoreMatrix, tasks: Sequence[str]) -> Ownership:
    """The engine's Pareto frontier (`search.pareto.frontier`, ties within timing noise) with
    each member's tasks. A task nobody has a score on has no owner."""
    order = list(dict.fromkeys(tasks))
    front = frontier(scores, order)
    winners = task_winners(scores, order)
    owners = {t: tuple(sorted(c for c in winners[t] if c in front)) for t in order}
    wins = {c: tuple(t for t in order if c in owners[t]) for c in sorted(front)}
    shares = {c: sum(1.0 / len(owners[t]) for t in won) for c, won in wins.items()}
    return Ownership(wins=wins, owners=owners, shares=shares)


# ---------------------------------------------------------------------------------------
# Progress against evaluations spent


@dataclass(frozen=True)
class ProgressSample:
    """One search evaluation, in the order it was spent."""

    task: str
    accepted: bool
    score: float
    speedup_eager: float | None = None
    speedup_compile: float | None = None


@dataclass(frozen=True)
class ProgressPoint:
    """The state of the search after `evaluations` evaluations."""

    evaluations: int
    mean_best_score: float  # mean over all tasks of each task's best score so far (none: 0)
    accepted_tasks: int  # tasks with an accepted kernel so far
    fast_1_eager: float
    fast_1_compile: float

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ProgressPoint:
        return cls(**d)


def progress_curve(
    samples: Iterable[ProgressSample], all_tasks: Sequence[str]
) -> list[ProgressPoint]:
    """One point per evaluation: best score and fast_1 (both baselines) reached so far.

    A task's fast_1 counts once any accepted kernel for it beat the baseline. Samples for
    tasks outside `all_tasks` still spend an evaluation but move no figure.
    """
    tasks = list(dict.fromkeys(all_tasks))
    known = set(tasks)
    best_score: dict[str, float] = {}
    best_eager: dict[str, float | None] = {}
    best_compile: dict[str, float | None] = {}
    points: list[ProgressPoint] = []
    for n, s in enumerate(samples, start=1):
        if s.task in known:
            best_score[s.task] = max(best_score.get(s.task, s.score), s.score)
            if s.accepted:
                best_eager[s.task] = _max_speedup(best_eager.get(s.task), s.speedup_eager)
                best_compile[s.task] = _max_speedup(best_compile.get(s.task), s.speedup_compile)
        mean = sum(best_score.values()) / len(tasks) if tasks else 0.0
        points.append(
            ProgressPoint(
                evaluations=n,
                mean_best_score=mean,
                accepted_tasks=len(best_eager),
                fast_1_eager=fast_p(best_eager, tasks, 1.0),
                fast_1_compile=fast_p(best_compile, tasks, 1.0),
            )
        )
    return points


def _max_speedup(a: float | None, b: float | None) -> float | None:
    if a is None:
        return b
    if b is None:
        return a
    return max(a, b)
