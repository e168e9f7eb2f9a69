"""A `RunReport` as Rich renderables for the terminal (the CLI prints them)."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from kernelsearch.bests import TaskBest
from kernelsearch.report import fmt
from kernelsearch.report.metrics import BASELINE_NAMES
from kernelsearch.report.model import RunReport, Scoreboard, fast_p_name

PROMPT_PREVIEW_CHARS = 160  # characters of each frontier prompt shown in the terminal


def overview(report: RunReport) -> Table:
    t = Table(title=f"run {report.run_id}", show_header=False, title_justify="left")
    t.add_column(style="bold")
    t.add_column()
    t.add_row("status", report.status)
    t.add_row("model", f"{report.model} (reflection: {report.reflection_model})")
    t.add_row("backend", report.backend)
    for key, value in fmt.measurement(report):
        t.add_row(key, value)
    t.add_row("evaluations", fmt.budget(report))
    t.add_row("re-times / test", f"{report.spend.retimes} / {report.spend.test_evaluations}")
    t.add_row("LLM calls", f"{report.spend.llm_calls} ({report.spend.llm_errors} failed)")
    t.add_row("cost", fmt.cost(report))
    return t


def metrics_table(board: Scoreboard, title: str) -> Table:
    t = Table(title=title, title_justify="left")
    t.add_column("baseline")
    ps = list(board.fast_p.get("eager", {}))
    for p in ps:
        t.add_column(fast_p_name(p), justify="right")
    t.add_column("geomean", justify="right")
    for b in BASELINE_NAMES:
        if b in board.fast_p:
            t.add_row(b, *(fmt.pct(board.fast_p[b][p]) for p in ps), fmt.speedup(board.geomean[b]))
    return t


def _speedup_cell(x: float | None) -> Text:
    style = "green" if x is not None and x > 1 else "yellow" if x is not None else "dim"
    return Text(fmt.speedup(x), style=style)


def _status_cell(b: TaskBest) -> Text:
    if b.accepted:
        return Text("accepted", style="green")
    return Text(f"{b.stage}: {b.error}" if b.error else b.stage, style="red")


def best_table(board: Scoreboard, title: str) -> Table:
    t = Table(title=title, title_justify="left")
    for name, justify in [
        ("task", "left"),
        ("vs eager", "right"),
        ("vs compile", "right"),
        ("ms", "right"),
        ("flags", "left"),
        ("prompt", "right"),
        ("figures", "left"),
        ("status", "left"),
    ]:
        t.add_column(name, justify=justify, overflow="fold")
    for b in board.best:
        t.add_row(
            b.task,
            _speedup_cell(b.speedup_eager),
            _speedup_cell(b.speedup_compile),
            fmt.ms(b.runtime_ms),
            fmt.flags(b.flags),
            fmt.MISSING if b.candidate_id is None else f"#{b.candidate_id}",
            fmt.FIGURES_LABEL.get(b.figures, fmt.MISSING),
            _status_cell(b),
        )
    return t


def frontier_table(report: RunReport) -> Table:
    t = Table(title="frontier prompts", title_justify="left")
    for name in ("prompt", "origin", "parents", "wins", "tasks won", "mean score", "text"):
        t.add_column(name, overflow="fold")
    for f in report.frontier:
        text = " ".join(fmt.prompt_text(f.components).split())
        if len(text) > PROMPT_PREVIEW_CHARS:
            text = text[:PROMPT_PREVIEW_CHARS] + "..."
        t.add_row(
            f"#{f.candidate_id}",
            f.origin,
            ", ".join(f"#{p}" for p in f.parents) or fmt.MISSING,
            f"{f.share:g}",
            fmt.names(f.wins),
            f"{f.mean_score:.3f}",
            text,
        )
    return t


def progress_table(report: RunReport) -> Table:
    t = Table(title="progress against evaluations spent", title_justify="left")
    for name in (
        "evaluations",
        "mean best score",
        "tasks accepted",
        "fast_1 eager",
        "fast_1 compile",
    ):
        t.add_column(name, justify="right")
    for p in fmt.sample(report.progress):
        t.add_row(
            str(p.evaluations),
            f"{p.mean_best_score:.3f}",
            str(p.accepted_tasks),
            fmt.pct(p.fast_1_eager),
            fmt.pct(p.fast_1_compile),
        )
    return t


def render(report: RunReport) -> RenderableType:
    parts: list[RenderableType] = [
        overview(report),
        metrics_table(report.search, f"fast_p over {len(report.search.tasks)} tasks"),
        best_table(report.search, "best kernel per task"),
        frontier_table(report),
        progress_table(report),
    ]
    if report.test is not None:
        parts.append(metrics_table(report.test, f"held-out test: {len(report.test.tasks)} tasks"))
        parts.append(best_table(report.test, "held-out test: best kernel per task"))
    return Group(*parts)
