"""`RunSummary`: what a finished (or stopped) search found, as a frozen, serialisable record.

Its per-task entries are `kernelsearch.bests.TaskBest`, the same record every report shows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kernelsearch.bests import TaskBest


@dataclass(frozen=True)
class CandidateSummary:
    id: int
    parents: tuple[int, ...]
    origin: str
    iteration: int
    discovery_evals: int
    aggregate: float
    scores: dict[str, float]
    on_frontier: bool

    def to_dict(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["parents"] = list(self.parents)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> CandidateSummary:
        return cls(**{**d, "parents": tuple(d["parents"])})


@dataclass(frozen=True)
class RunSummary:
    run_id: str
    run_dir: str
    status: str  # finished | stopped
    stop_reason: str
    objective: str
    baseline: str
    backend: str
    model: str
    reflection_model: str
    evaluations: int
    eval_budget: int
    iterations: int
    llm_calls: int
    tokens_in: int
    tokens_out: int
    cost_usd: float
    cost_complete: bool  # False when some model had no price (tokens only)
    elapsed_s: float
    best_candidate: int
    frontier: tuple[int, ...]
    candidates: tuple[CandidateSummary, ...]
    tasks: tuple[TaskBest, ...]
    test: tuple[TaskBest, ...] = ()
    files: dict[str, str] = field(default_factory=dict)

    def task(self, name: str) -> TaskBest:
        return next(t for t in self.tasks if t.task == name)

    def to_dict(self) -> dict[str, Any]:
        d = {k: v for k, v in self.__dict__.items()}
        d["frontier"] = list(self.frontier)
        d["candidates"] = [c.to_dict() for c in self.candidates]
        d["tasks"] = [t.to_dict() for t in self.tasks]
        d["test"] = [t.to_dict() for t in self.test]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RunSummary:
        return cls(
            **{
                **d,
                "frontier": tuple(d["frontier"]),
                "candidates": tuple(CandidateSummary.from_dict(c) for c in d["candidates"]),
                "tasks": tuple(TaskBest.from_dict(t) for t in d["tasks"]),
                "test": tuple(TaskBest.from_dict(t) for t in d.get("test", ())),
            }
        )
