"""Perturbed sizes: the task re-run with its size constants changed, to catch hard-coded shapes.

The orchestrator computes the perturbed task sources (through the size-override mechanism of
`kernelsearch.tasks`) and passes them to the worker, which tries them in order: the first
whose *reference* runs is the extra trial. Only integer constants of at least
`PERTURB_MIN_SIZE` are changed, so axis indices, kernel sizes, strides and paddings keep
their values. Each plan shrinks the sizes slightly so the trial never costs more than the
task itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kernelsearch.errors import TaskFormatError
from kernelsearch.tasks import Task

PERTURB_MIN_SIZE = 8  # smaller integer constants (dims, kernel sizes, strides) stay as they are
MULTIPLE = 8  # the second plan keeps sizes multiples of 8 apart from a different multiple


def _minus_one(v: int) -> int:
    return v - 1


def _other_multiple(v: int) -> int:
    # A different multiple of 8 below v (v=64 -> 56, v=1000 -> 992): breaks "assume 1024"
    # while keeping the alignment a vectorised kernel may legitimately require.
    return max(MULTIPLE, (v - 1) // MULTIPLE * MULTIPLE)


# name -> rule; tried in this order
PLANS: dict[str, Callable[[int], int]] = {
    "minus_one": _minus_one,
    "other_multiple_of_8": _other_multiple,
}


def perturbed_sizes(constants: dict[str, int | float], rule: Callable[[int], int]) -> dict:
    out = {}
    for name, value in constants.items():
        if isinstance(value, int) and not isinstance(value, bool) and value >= PERTURB_MIN_SIZE:
            new = rule(value)
            if new != value and new > 0:
                out[name] = new
    return out


def perturbations(task: Task) -> list[dict[str, Any]]:
    """[{"plan", "sizes", "source"}] for the worker to try in order (may be empty)."""
    try:
        constants = task.size_constants()
    except SyntaxError:
        return []
    plans: list[dict[str, Any]] = []
    seen: list[dict] = []
    for plan, rule in PLANS.items():
        sizes = perturbed_sizes(constants, rule)
        if not sizes or sizes in seen:
            continue
        seen.append(sizes)
        try:
            source = task.with_sizes(sizes).effective_source
        except TaskFormatError:
            continue
        plans.append({"plan": plan, "sizes": sizes, "source": source})
    return plans
