"""The report's shape: frozen dataclasses with `to_dict` / `from_dict`. The `--json` output is
`RunReport.to_dict()`; markdown, terminal tables and HTML all render a `RunReport`. A task's
shown kernel is `kernelsearch.bests.TaskBest`, the record the run's summary.json holds too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kernelsearch.bests import FIGURES_RETIME, TaskBest
from kernelsearch.report.metrics import Ownership, ProgressPoint


def fast_p_name(p: float) -> str:
    """0 -> "fast_0", 0.5 -> "fast_0.5" (KernelBench's spelling)."""
    return f"fast_{p:g}"


def fast_p_to_dict(table: dict[str, dict[float, float]]) -> dict[str, dict[str, float]]:
    return {b: {fast_p_name(p): v for p, v in row.items()} for b, row in table.items()}


def fast_p_from_dict(d: dict[str, dict[str, float]]) -> dict[str, dict[float, float]]:
    return {b: {float(k.removeprefix("fast_")): v for k, v in row.items()} for b, row in d.items()}


@dataclass(frozen=True)
class Scoreboard:
    """Per-task bests over a task list, with fast_p and geomean against both baselines."""

    tasks: tuple[str, ...]
    best: tuple[TaskBest, ...]
    fast_p: dict[str, dict[float, float]]  # baseline -> p -> fraction
    geomean: dict[str, float | None]  # baseline -> geometric-mean speedup

    def to_dict(self) -> dict[str, Any]:
        return {
            "tasks": list(self.tasks),
            "best": [b.to_dict() for b in self.best],
            "fast_p": fast_p_to_dict(self.fast_p),
            "geomean": dict(self.geomean),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Scoreboard:
        return cls(
            tasks=tuple(d["tasks"]),
            best=tuple(TaskBest.from_dict(b) for b in d["best"]),
            fast_p=fast_p_from_dict(d["fast_p"]),
            geomean=dict(d["geomean"]),
        )


@dataclass(frozen=True)
class Spend:
    evaluations: int  # search evaluations (re-times and test evaluations excluded)
    budget: int | None
    retimes: int
    test_evaluations: int
    llm_calls: int
    llm_errors: int
    tokens_in: int
    tokens_out: int
    cost_usd: float
    cost_unknown_calls: int  # calls to models without a price: their cost is not in cost_usd

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Spend:
        return cls(**d)


@dataclass(frozen=True)
class FrontierPrompt:
    candidate_id: int
    origin: str
    parents: tuple[int, ...]
    iteration: int
    discovery_evals: int
    components: dict[str, str]
    wins: tuple[str, ...]
    share: float  # tasks won, a k-way tie counting 1/k
    mean_score: float  # over the Pareto tasks; a task without a score counts 0

    def to_dict(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["parents"], d["wins"] = list(self.parents), list(self.wins)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> FrontierPrompt:
        d = dict(d)
        d["parents"], d["wins"] = tuple(d["parents"]), tuple(d["wins"])
        return cls(**d)


@dataclass(frozen=True)
class LineageNode:
    """One proposed candidate, for the lineage tree."""

    id: int
    parents: tuple[int, ...]
    origin: str
    status: str  # pool, proposed, rejected
    iteration: int
    discovery_evals: int
    on_frontier: bool
    best_kernels: tuple[str, ...]  # tasks whose shown best kernel this candidate wrote

    def to_dict(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["parents"], d["best_kernels"] = list(self.parents), list(self.best_kernels)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> LineageNode:
        d = dict(d)
        d["parents"], d["best_kernels"] = tuple(d["parents"]), tuple(d["best_kernels"])
        return cls(**d)


@dataclass(frozen=True)
class RunReport:
    run_id: str
    run_dir: str
    status: str
    created_ts: float
    updated_ts: float
    model: str
    reflection_model: str
    backend: str
    objective: str
    baseline: str  # the baseline the search optimised against; both are always reported
    hardware: tuple[str, ...]  # devices the shown figures were measured on
    timing_methods: tuple[str, ...]
    search: Scoreboard
    spend: Spend
    ownership: Ownership
    frontier: tuple[FrontierPrompt, ...]
    lineage: tuple[LineageNode, ...]
    progress: tuple[ProgressPoint, ...]
    test: Scoreboard | None = None  # held-out test tasks (--testset), when evaluated

    @property
    def retimed_tasks(self) -> int:
        return sum(b.figures == FIGURES_RETIME for b in self.search.best)

    def to_dict(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "run_dir": self.run_dir,
            "status": self.status,
            "created_ts": self.created_ts,
            "updated_ts": self.updated_ts,
            "model": self.model,
            "reflection_model": self.reflection_model,
            "backend": self.backend,
            "objective": self.objective,
            "baseline": self.baseline,
            "hardware": list(self.hardware),
            "timing_methods": list(self.timing_methods),
            "search": self.search.to_dict(),
            "spend": self.spend.to_dict(),
            "ownership": self.ownership.to_dict(),
            "frontier": [f.to_dict() for f in self.frontier],
            "lineage": [n.to_dict() for n in self.lineage],
            "progress": [p.to_dict() for p in self.progress],
            "test": self.test.to_dict() if self.test else None,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RunReport:
        return cls(
            run_id=d["run_id"],
            run_dir=d["run_dir"],
            status=d["status"],
            created_ts=d["created_ts"],
            updated_ts=d["updated_ts"],
            model=d["model"],
            reflection_model=d["reflection_model"],
            backend=d["backend"],
            objective=d["objective"],
            baseline=d["baseline"],
            hardware=tuple(d["hardware"]),
            timing_methods=tuple(d["timing_methods"]),
            search=Scoreboard.from_dict(d["search"]),
            spend=Spend.from_dict(d["spend"]),
            ownership=Ownership.from_dict(d["ownership"]),
            frontier=tuple(FrontierPrompt.from_dict(f) for f in d["frontier"]),
            lineage=tuple(LineageNode.from_dict(n) for n in d["lineage"]),
            progress=tuple(ProgressPoint.from_dict(p) for p in d["progress"]),
            test=Scoreboard.from_dict(d["test"]) if d.get("test") else None,
        )
