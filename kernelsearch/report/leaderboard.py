"""`kernelsearch leaderboard`: several runs side by side (model, backend, hardware, budget,
fast_p, geomean), ranked by fast_1 then geomean against one baseline.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.table import Table

from kernelsearch.report import fmt
from kernelsearch.report.collect import build_report
from kernelsearch.report.metrics import BASELINE_NAMES
from kernelsearch.report.model import RunReport, fast_p_from_dict, fast_p_name, fast_p_to_dict

SHOWN_THRESHOLDS = (0.0, 1.0, 1.5, 2.0)  # fast_p columns in the tables (JSON has them all)


@dataclass(frozen=True)
class LeaderboardRow:
    run_id: str
    run_dir: str
    status: str
    model: str
    backend: str
    hardware: tuple[str, ...]
    objective: str
    budget: int | None
    evaluations: int
    cost_usd: float
    tasks: tuple[str, ...]
    fast_p: dict[str, dict[float, float]]
    geomean: dict[str, float | None]

    @classmethod
    def from_report(cls, r: RunReport) -> LeaderboardRow:
        return cls(
            run_id=r.run_id,
            run_dir=r.run_dir,
            status=r.status,
            model=r.model,
            backend=r.backend,
            hardware=r.hardware,
            objective=r.objective,
            budget=r.spend.budget,
            evaluations=r.spend.evaluations,
            cost_usd=r.spend.cost_usd,
            tasks=r.search.tasks,
            fast_p=r.search.fast_p,
            geomean=r.search.geomean,
        )

    def to_dict(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["hardware"], d["tasks"] = list(self.hardware), list(self.tasks)
        d["fast_p"] = fast_p_to_dict(self.fast_p)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> LeaderboardRow:
        d = dict(d)
        d["hardware"], d["tasks"] = tuple(d["hardware"]), tuple(d["tasks"])
        d["fast_p"] = fast_p_from_dict(d["fast_p"])
        return cls(**d)


def rank(rows: Iterable[LeaderboardRow], baseline: str = "eager") -> list[LeaderboardRow]:
    """Best first: fast_1, then geomean (missing lowest); input order breaks ties."""

    def key(r: LeaderboardRow) -> tuple[float, float]:
        g = r.geomean.get(baseline)
        return (-r.fast_p[baseline].get(1.0, 0.0), -(g if g is not None else -math.inf))

    return sorted(rows, key=key)


def caveats(rows: Sequence[LeaderboardRow]) -> list[str]:
    """Why the runs may not be comparable (different tasks, hardware or objective)."""
    out = []
    if len({r.tasks for r in rows}) > 1:
        out.append("the runs cover different task sets; fast_p compares different things")
    if len({r.hardware for r in rows}) > 1:
        out.append("the runs were timed on different hardware; speedups are per machine")
    if len({r.objective for r in rows}) > 1:
        out.append("the runs optimised different objectives")
    return out


def leaderboard_rows(run_dirs: Iterable[Path], baseline: str = "eager") -> list[LeaderboardRow]:
    if baseline not in BASELINE_NAMES:
        raise ValueError(f"baseline must be one of {BASELINE_NAMES}")
    rows = [LeaderboardRow.from_report(build_report(Path(d))) for d in run_dirs]
    return rank(rows, baseline)


def _cells(r: LeaderboardRow, baseline: str) -> list[str]:
    return [
        r.run_id,
        r.model,
        r.backend,
        fmt.names(r.hardware),
        r.objective,
        f"{r.evaluations} / {r.budget}" if r.budget is not None else str(r.evaluations),
        fmt.money(r.cost_usd),
        str(len(r.tasks)),
        *(fmt.pct(r.fast_p[baseline].get(p)) for p in SHOWN_THRESHOLDS),
        fmt.speedup(r.geomean.get("eager")),
        fmt.speedup(r.geomean.get("compile")),
    ]


def _header(baseline: str) -> list[str]:
    return [
        "run",
        "model",
        "backend",
        "hardware",
        "objective",
        "evaluations",
        "cost",
        "tasks",
        *(f"{fast_p_name(p)} ({baseline})" for p in SHOWN_THRESHOLDS),
        "geomean eager",
        "geomean compile",
    ]


def table(rows: Sequence[LeaderboardRow], baseline: str = "eager") -> Table:
    """Runs as columns, side by side (best first), one row per field: fits a terminal."""
    t = Table(title=f"leaderboard (fast_p against {baseline})", title_justify="left")
    t.add_column("", style="bold")
    for r in rows:
        t.add_column(r.run_id, overflow="fold")
    cells = [_cells(r, baseline) for r in rows]
    for i, name in enumerate(_header(baseline)[1:], start=1):
        t.add_row(name, *(c[i] for c in cells))
    return t


def to_markdown(rows: Sequence[LeaderboardRow], baseline: str = "eager") -> str:
    header = _header(baseline)
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += [
        "| " + " | ".join(c.replace("|", "\\|") for c in _cells(r, baseline)) + " |" for r in rows
    ]
    lines += [f"\nNote: {c}." for c in caveats(rows)]
    return "\n".join(lines) + "\n"
