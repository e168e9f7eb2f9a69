"""Proposing new candidates: reflective mutation of a parent, and system-aware merge of two.

Reflection sees, per minibatch task, the task, the kernel the parent wrote and its feedback, and
rewrites one component (round-robin) or all of them. Merge takes, per component, the text of
the parent whose lineage changed it; where both changed it, the merge LLM writes one text that
keeps each side's strategies and resolves contradictions.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from kernelsearch.search.messages import (
    ReflectionExample,
    merge_messages,
    parse_instructions,
    reflection_messages,
)
from kernelsearch.search.recorder import RecordedModel


@dataclass(frozen=True)
class Lineage:
    """Parents of every candidate ever added to the pool (the seed has none)."""

    parents: Mapping[int, tuple[int, ...]]

    def ancestors(self, c: int) -> set[int]:
        seen: set[int] = set()
        stack = list(self.parents.get(c, ()))
        while stack:
            p = stack.pop()
            if p not in seen:
                seen.add(p)
                stack.extend(self.parents.get(p, ()))
        return seen

    def related(self, a: int, b: int) -> bool:
        """True when one is the other's ancestor (such pairs are never merged)."""
        return a in self.ancestors(b) or b in self.ancestors(a)

    def common_ancestor(self, a: int, b: int) -> int | None:
        """The most recent (highest id) ancestor shared by both."""
        shared = self.ancestors(a) & self.ancestors(b)
        return max(shared) if shared else None


def components_to_update(components: Sequence[str], selector: str, counter: int) -> list[str]:
    """`round_robin`: one component, the counter-th in turn; `all`: every component."""
    if selector == "all":
        return list(components)
    return [list(components)[counter % len(components)]]


def merge_pairs(
    frontier: Sequence[int], lineage: Lineage, done: set[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Frontier pairs that may be merged: not merged before, neither an ancestor of the other."""
    ids = sorted(frontier)
    return [
        (a, b)
        for i, a in enumerate(ids)
        for b in ids[i + 1 :]
        if (a, b) not in done and not lineage.related(a, b)
    ]


def pick_pair(pairs: Sequence[tuple[int, int]], rng: random.Random) -> tuple[int, int] | None:
    return rng.choice(list(pairs)) if pairs else None


async def reflect(
    model: RecordedModel,
    component: str,
    current: str,
    examples: Sequence[ReflectionExample],
    iteration: int,
) -> str | None:
    """New text for `component`, or None when the reply held none."""
    reply, _ = await model.complete(
        reflection_messages(component, current, examples), purpose="reflect", iteration=iteration
    )
    return parse_instructions(reply.text)


async def merge_components(
    model: RecordedModel,
    a: Mapping[str, str],
    b: Mapping[str, str],
    ancestor: Mapping[str, str],
    wins_a: Sequence[str],
    wins_b: Sequence[str],
    iteration: int,
) -> dict[str, str]:
    """One candidate from two: per component, the side that changed it, or an LLM merge."""
    merged: dict[str, str] = {}
    for name in a:
        ta, tb, base = a[name], b.get(name, a[name]), ancestor.get(name, "")
        if ta == tb or tb == base:
            merged[name] = ta
        elif ta == base:
            merged[name] = tb
        else:
            reply, _ = await model.complete(
                merge_messages(name, base, ta, tb, wins_a, wins_b),
                purpose="merge",
                iteration=iteration,
            )
            merged[name] = parse_instructions(reply.text) or ta
    return merged
