"""The score: one pure function from an `EvalResult` to the number the search maximises.

Speed objective (the default):
- A kernel that is not `accepted` scores in [0, 1): a ladder by how far it got, so the search
  still prefers "compiles but wrong" over "does not compile" (`FAILURE_LADDER`).
- An accepted kernel scores `1 + s / (1 + s)` in [1, 2) where `s` is its speedup against the
  chosen baseline (eager or torch.compile): bounded, increasing with speedup, and above every
  non-accepted result. Speedup 1 scores 1.5; 3x scores 1.75.
- An accepted kernel without a timing or baseline scores `ACCEPTED_UNTIMED` (1.0).

Correctness objective: accepted scores 1.0, the ladder below. Compile objective: anything that
built scores 1.0 (accepted or not), the ladder below.

Timing noise is not progress. `score_margin()` turns the spread of the kernel's and the
baseline's timings into the uncertainty of the score; `ties()` and `beats()` compare scores
with those margins, at the Pareto frontier and at the minibatch gate. The spread is robust
(interquartile range / 1.349, the standard deviation it implies for normal noise), so one
preempted trial does not turn every comparison into a tie, and a margin never reaches below
the accepted floor: noise in a speedup cannot make an accepted kernel tie a failed one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from kernelsearch.result import EvalResult, Stage, TimingStats

ACCEPTED_UNTIMED = 1.0
PERFECT_CORRECTNESS = 1.0
MIN_RELATIVE_NOISE = 0.01  # timings never count as more precise than 1%
IQR_PER_SIGMA = 1.349  # interquartile range of a normal distribution, in standard deviations
FLOAT_SLACK = 1e-9  # so equal-by-construction differences are not split by rounding

# Score of a non-accepted result, by stage: higher = got further.
FAILURE_LADDER: dict[Stage, float] = {
    Stage.NO_CODE: 0.0,
    Stage.STATIC_FAILED: 0.1,
    Stage.REJECTED: 0.1,
    Stage.COMPILE_FAILED: 0.2,
    Stage.COMPILED: 0.3,
    Stage.CRASHED: 0.4,
    Stage.TIMEOUT: 0.4,
    Stage.RUNTIME_ERROR: 0.4,
    Stage.INCORRECT: 0.6,
    Stage.CORRECT: 0.1,  # correct but rejected by a guard (error flag): treated like `rejected`
}
PARTIAL_CORRECTNESS_WEIGHT = 0.3  # incorrect kernels earn up to this for trials passed
BUILT_STAGES = frozenset(
    {
        Stage.COMPILED,
        Stage.CRASHED,
        Stage.TIMEOUT,
        Stage.RUNTIME_ERROR,
        Stage.INCORRECT,
        Stage.CORRECT,
    }
)


@dataclass(frozen=True)
class Scored:
    """A score with its noise margin (both in score units)."""

    score: float
    margin: float = 0.0


def speedup(result: EvalResult, baseline: str) -> float | None:
    return result.speedup_eager if baseline == "eager" else result.speedup_compile


def failure_score(result: EvalResult) -> float:
    base = FAILURE_LADDER[result.stage]
    if result.stage is Stage.INCORRECT and result.trials_run > 0:
        base += PARTIAL_CORRECTNESS_WEIGHT * result.trials_passed / result.trials_run
    return min(base, 0.99)


def score(result: EvalResult, objective: str = "speed", baseline: str = "eager") -> float:
    """The search's score of one evaluation (see the module docstring)."""
    if objective == "compile":
        guard_rejected = result.stage is Stage.CORRECT and not result.accepted
        built = result.stage in BUILT_STAGES and not guard_rejected
        return 1.0 if built else failure_score(result)
    if not result.accepted:
        return failure_score(result)
    if objective == "correctness":
        return PERFECT_CORRECTNESS
    s = speedup(result, baseline)
    if s is None or not math.isfinite(s) or s <= 0:
        return ACCEPTED_UNTIMED
    return 1.0 + s / (1.0 + s)


def relative_noise(kernel: TimingStats | None, base: TimingStats | None) -> float:
    """Relative uncertainty of a speedup: the kernel's and baseline's spreads combined."""

    def cv(t: TimingStats | None) -> float:
        if t is None or t.median <= 0:
            return 0.0
        spread = t.std if t.iqr is None else t.iqr / IQR_PER_SIGMA
        return spread / t.median

    return max(MIN_RELATIVE_NOISE, math.hypot(cv(kernel), cv(base)))


def score_margin(result: EvalResult, objective: str = "speed", baseline: str = "eager") -> float:
    """How far the score could move from timing noise alone (0 where the score is untimed)."""
    if objective != "speed" or not result.accepted:
        return 0.0
    s = speedup(result, baseline)
    if s is None or not math.isfinite(s) or s <= 0:
        return 0.0
    base = result.baseline_eager if baseline == "eager" else result.baseline_compile
    ds = s * relative_noise(result.runtime, base)
    margin = ds / (1.0 + s) ** 2  # d/ds of s / (1 + s), times the speedup's uncertainty
    return min(margin, s / (1.0 + s))  # the score stays >= 1 however slow the noise says


def scored(result: EvalResult, objective: str = "speed", baseline: str = "eager") -> Scored:
    return Scored(score(result, objective, baseline), score_margin(result, objective, baseline))


def ties(a: Scored, b: Scored) -> bool:
    """True when the two scores differ by no more than their combined noise."""
    return abs(a.score - b.score) <= a.margin + b.margin + FLOAT_SLACK


def beats(a: Scored, b: Scored) -> bool:
    """True when `a` is better than `b` by more than their combined noise."""
    return a.score - b.score > a.margin + b.margin + FLOAT_SLACK


def total(items: Sequence[Scored]) -> Scored:
    """Sum of scores; margins add in quadrature (independent noise)."""
    return Scored(sum(i.score for i in items), math.sqrt(sum(i.margin**2 for i in items)))


def gate_passes(child: Sequence[Scored], parent: Sequence[Scored]) -> bool:
    """The minibatch gate: the child's total strictly beats the parent's, beyond the noise."""
    return beats(total(child), total(parent))
