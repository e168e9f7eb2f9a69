"""When the search stops: evaluation budget, dollar cap, wall-clock cap, stop requests.

Evaluations are *reserved* before an iteration starts (its worst case: parent and child on the
minibatch plus a full evaluation) and settled as they complete, so with several iterations in
flight the run never starts more evaluations than `--budget` allows.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Budget:
    max_evals: int
    max_cost_usd: float | None = None
    max_time_s: float | None = None
    stop_file: Path | None = None
    used_evals: int = 0
    reserved: int = 0
    cost_usd: float = 0.0
    elapsed_before_s: float = 0.0  # wall time spent by earlier sessions of a resumed run
    started: float = field(default_factory=time.monotonic)
    stop_reason: str | None = None

    @property
    def elapsed_s(self) -> float:
        return self.elapsed_before_s + time.monotonic() - self.started

    @property
    def remaining_evals(self) -> int:
        return max(0, self.max_evals - self.used_evals - self.reserved)

    def request_stop(self, reason: str) -> None:
        if self.stop_reason is None:
            self.stop_reason = reason

    def exhausted(self) -> str | None:
        """Why no new work may start, or None. Sets `stop_reason` the first time."""
        if self.stop_reason:
            return self.stop_reason
        if self.max_cost_usd is not None and self.cost_usd >= self.max_cost_usd:
            self.request_stop(f"cost cap reached (${self.cost_usd:.4f} of ${self.max_cost_usd})")
        elif self.max_time_s is not None and self.elapsed_s >= self.max_time_s:
            self.request_stop(f"time cap reached ({self.elapsed_s:.0f}s of {self.max_time_s:.0f}s)")
        elif self.stop_file is not None and self.stop_file.exists():
            self.request_stop(f"stop file {self.stop_file} found")
        elif self.used_evals >= self.max_evals:
            self.request_stop(f"evaluation budget spent ({self.used_evals}/{self.max_evals})")
        return self.stop_reason

    def reserve(self, n: int) -> bool:
        """Hold `n` evaluations for an iteration; False if they do not fit (or a cap is hit)."""
        if self.exhausted() is not None or n > self.remaining_evals:
            return False
        self.reserved += n
        return True

    def release(self, n: int) -> None:
        self.reserved = max(0, self.reserved - n)

    def spend_eval(self) -> None:
        """One evaluation done, out of an earlier reservation."""
        self.used_evals += 1
        self.release(1)

    def add_cost(self, usd: float) -> None:
        self.cost_usd += usd

    def can_spend_llm(self) -> bool:
        return self.max_cost_usd is None or self.cost_usd < self.max_cost_usd


@dataclass
class Ledger:
    """Evaluations one iteration has spent out of its reservation."""

    reserved: int
    spent: int = 0
