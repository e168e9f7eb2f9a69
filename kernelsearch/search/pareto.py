"""The Pareto frontier over per-task scores, and how a parent is chosen from it.

A candidate *wins* a task when its score there ties the best score on that task (within timing
noise, see `score.ties`). The frontier is every candidate that wins at least one task, minus
dominated ones: `c` is dominated by `d` when `d` wins every task `c` wins and more, or exactly
the same tasks with a higher aggregate (then the lower id stays on an exact tie). Parents are
drawn with probability proportional to the number of tasks they win.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from kernelsearch.search.score import Scored, ties

ScoreMatrix = Mapping[int, Mapping[str, Scored]]


def aggregate(row: Mapping[str, Scored], tasks: Sequence[str]) -> float:
    """Mean score over `tasks`; a task without a score counts as 0."""
    if not tasks:
        return 0.0
    return sum(row[t].score if t in row else 0.0 for t in tasks) / len(tasks)


def task_winners(scores: ScoreMatrix, tasks: Sequence[str]) -> dict[str, set[int]]:
    """For each task, the candidates whose score ties the best one there."""
    winners: dict[str, set[int]] = {}
    for t in tasks:
        scored = {c: row[t] for c, row in scores.items() if t in row}
        if not scored:
            winners[t] = set()
            continue
        best = max(scored.values(), key=lambda s: s.score)
        winners[t] = {c for c, s in scored.items() if s.score >= best.score or ties(s, best)}
    return winners


def frontier(scores: ScoreMatrix, tasks: Sequence[str]) -> dict[int, frozenset[str]]:
    """Non-dominated candidates, each with the set of tasks it wins."""
    wins: dict[int, set[str]] = {}
    for t, cands in task_winners(scores, tasks).items():
        for c in cands:
            wins.setdefault(c, set()).add(t)
    agg = {c: aggregate(scores[c], tasks) for c in wins}

    def dominated(c: int) -> bool:
        for d in wins:
            if d == c:
                continue
            if wins[c] < wins[d]:
                return True
            if wins[c] == wins[d] and (agg[d], -d) > (agg[c], -c):
                return True
        return False

    return {c: frozenset(w) for c, w in sorted(wins.items()) if not dominated(c)}


def select_pareto(front: Mapping[int, frozenset[str]], rng: random.Random) -> int:
    """A frontier member, drawn with probability proportional to its number of wins."""
    if not front:
        raise ValueError("the frontier is empty: evaluate the seed candidate first")
    ids = sorted(front)
    return rng.choices(ids, weights=[len(front[c]) for c in ids], k=1)[0]


def current_best(scores: ScoreMatrix, tasks: Sequence[str]) -> int:
    """The candidate with the highest aggregate score (lowest id on a tie)."""
    if not scores:
        raise ValueError("no candidate has been scored")
    return max(sorted(scores), key=lambda c: aggregate(scores[c], tasks))
