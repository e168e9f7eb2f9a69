"""How numbers and labels read in every rendering (terminal, markdown, HTML)."""

from __future__ import annotations

from collections.abc import Sequence

from kernelsearch.bests import FIGURES_RETIME, FIGURES_SEARCH, FIGURES_TEST, TaskBest
from kernelsearch.report.model import RunReport
from kernelsearch.result import Flag

MISSING = "–"
FIGURES_LABEL = {FIGURES_RETIME: "re-timed", FIGURES_SEARCH: "search", FIGURES_TEST: "test"}


def speedup(x: float | None) -> str:
    return MISSING if x is None else f"{x:.2f}x"


def ms(x: float | None) -> str:
    return MISSING if x is None else f"{x:.4g}"


def pct(x: float | None) -> str:
    return MISSING if x is None else f"{100 * x:.1f}%"


def money(x: float) -> str:
    return f"${x:.4f}" if x < 1 else f"${x:.2f}"


def flags(items: Sequence[Flag]) -> str:
    return ", ".join(f"{f.name} ({f.severity.value})" for f in items) or MISSING


def names(items: Sequence[str]) -> str:
    return ", ".join(items) or MISSING


def status(b: TaskBest) -> str:
    return "accepted" if b.accepted else f"no accepted kernel ({b.stage})"


def budget(report: RunReport) -> str:
    s = report.spend
    return f"{s.evaluations} / {s.budget}" if s.budget is not None else str(s.evaluations)


def cost(report: RunReport) -> str:
    s = report.spend
    text = money(s.cost_usd)
    if s.cost_unknown_calls:
        text += f" (+{s.cost_unknown_calls} calls with no known price)"
    return text


def measurement(report: RunReport) -> list[tuple[str, str]]:
    """The lines that say what the figures mean: objective, hardware, timing, provenance."""
    board = report.search
    accepted = sum(b.accepted for b in board.best)
    return [
        ("objective", f"{report.objective} (search baseline: {report.baseline})"),
        ("hardware", names(report.hardware)),
        ("timing method", names(report.timing_methods)),
        (
            "figures",
            f"re-timed at the end for {report.retimed_tasks} of {accepted} tasks with an "
            "accepted kernel; the rest are the search's own timings",
        ),
    ]


PROGRESS_ROWS = 10  # rows of the progress table in text renderings


def sample(items: Sequence, k: int = PROGRESS_ROWS) -> list:
    """At most `k` items spread evenly, always keeping the first and the last."""
    n = len(items)
    if n <= k:
        return list(items)
    if k <= 1:
        return [items[-1]]
    picks = sorted({round(i * (n - 1) / (k - 1)) for i in range(k)})
    return [items[i] for i in picks]


def prompt_text(components: dict[str, str]) -> str:
    if list(components) == ["instructions"]:
        return components["instructions"].strip()
    return "\n\n".join(f"## {name}\n\n{text.strip()}" for name, text in components.items())
