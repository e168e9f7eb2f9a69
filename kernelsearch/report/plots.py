"""The report's plots, drawn with matplotlib's object API (no pyplot, no GUI backend) and
returned as SVG text to inline into the HTML page.

Each function takes a `RunReport` and returns one `<svg>` element whose `id` is the plot's
name (`PLOT_IDS`), so a page and its tests can find it.
"""

from __future__ import annotations

import html
import io
import math
import re
from collections import defaultdict

from kernelsearch.errors import ConfigError
from kernelsearch.report.metrics import BASELINE_NAMES, FAST_P_THRESHOLDS, fast_p
from kernelsearch.report.model import LineageNode, RunReport

PLOT_IDS = ("plot-speedup", "plot-fast-p", "plot-progress", "plot-lineage")
FIG_SIZE_IN = (8.0, 4.0)
FAST_P_CURVE_POINTS = 200
FAST_P_CURVE_MIN_P = 2.5  # the fast_p curve spans at least 0..this
LOG_SCALE_RATIO = 20.0  # speedup bars switch to a log axis when the largest/smallest exceeds this
MAX_LINEAGE_LABELS = 60  # beyond this many candidates, only pool members are labelled
COLORS = {"eager": "#1f77b4", "compile": "#ff7f0e"}
STATUS_COLORS = {"pool": "#1f77b4", "proposed": "#ff7f0e", "rejected": "#b0b0b0"}
_SVG_OPEN = re.compile(r"<svg\b")


def _matplotlib():
    try:
        import matplotlib
        from matplotlib.figure import Figure
    except ImportError:  # pragma: no cover - depends on the environment
        raise ConfigError(
            "--html needs matplotlib: install it with `pip install matplotlib`"
        ) from None
    return matplotlib, Figure


def _new_figure(height_in: float | None = None):
    _, Figure = _matplotlib()
    w, h = FIG_SIZE_IN
    fig = Figure(figsize=(w, height_in or h), layout="constrained")
    return fig, fig.add_subplot()


def _svg(fig, plot_id: str, title: str) -> str:
    matplotlib, _ = _matplotlib()
    buf = io.StringIO()
    # A salt per plot keeps the ids matplotlib generates distinct across plots on one page.
    with matplotlib.rc_context({"svg.hashsalt": plot_id, "svg.fonttype": "none"}):
        fig.savefig(buf, format="svg", metadata={"Date": None})
    text = buf.getvalue()
    text = text[text.index("<svg") :]
    label = html.escape(title, quote=True)
    return _SVG_OPEN.sub(f'<svg id="{plot_id}" role="img" aria-label="{label}"', text, count=1)


def _empty(ax, message: str) -> None:
    ax.text(0.5, 0.5, message, ha="center", va="center", transform=ax.transAxes, color="gray")
    ax.set_xticks([])
    ax.set_yticks([])


def speedup_bars(report: RunReport) -> str:
    """Per-task speedup of the best accepted kernel against eager and torch.compile."""
    best = report.search.best
    fig, ax = _new_figure()
    title = "Best accepted kernel per task: speedup"
    if not best:
        _empty(ax, "no tasks")
    else:
        width = 0.4
        xs = range(len(best))
        for i, baseline in enumerate(BASELINE_NAMES):
            values = [b.speedup(baseline) for b in best]
            ax.bar(
                [x + (i - 0.5) * width for x in xs],
                [v if v is not None else math.nan for v in values],
                width,
                label=f"vs {baseline}",
                color=COLORS[baseline],
            )
        ax.axhline(1.0, color="black", linewidth=0.8, linestyle="--")
        finite = [s for b in best for s in (b.speedup_eager, b.speedup_compile) if s and s > 0]
        if finite and max(finite) / min(finite) > LOG_SCALE_RATIO:
            ax.set_yscale("log")
        ax.set_xticks(list(xs))
        ax.set_xticklabels(
            [b.task if b.accepted else f"{b.task} (none)" for b in best],
            rotation=30,
            ha="right",
            fontsize=8,
        )
        for label, b in zip(ax.get_xticklabels(), best):
            if not b.accepted:
                label.set_color("red")
        ax.set_ylabel("speedup (baseline time / kernel time)")
        ax.legend()
    ax.set_title(title)
    return _svg(fig, "plot-speedup", title)


def fast_p_curve(report: RunReport) -> str:
    """fast_p as a function of p against both baselines, the standard thresholds marked."""
    board = report.search
    fig, ax = _new_figure()
    title = f"fast_p over {len(board.tasks)} tasks"
    top = FAST_P_CURVE_MIN_P
    speedups = {}
    for baseline in BASELINE_NAMES:
        s = {b.task: b.speedup(baseline) for b in board.best if b.accepted}
        speedups[baseline] = s
        finite = [v for v in s.values() if v is not None and math.isfinite(v)]
        top = max([top, *(1.1 * v for v in finite)])
    ps = [top * i / (FAST_P_CURVE_POINTS - 1) for i in range(FAST_P_CURVE_POINTS)]
    for baseline in BASELINE_NAMES:
        s = speedups[baseline]
        ax.step(
            ps,
            [fast_p(s, board.tasks, p) for p in ps],
            where="post",
            color=COLORS[baseline],
            label=f"vs {baseline}",
        )
        ax.plot(
            FAST_P_THRESHOLDS,
            [board.fast_p[baseline][p] for p in FAST_P_THRESHOLDS],
            "o",
            color=COLORS[baseline],
        )
    ax.set_xlabel("p (speedup threshold)")
    ax.set_ylabel("fraction of tasks accepted and faster than p")
    ax.set_ylim(-0.02, 1.02)
    ax.legend()
    ax.set_title(title)
    return _svg(fig, "plot-fast-p", title)


def progress(report: RunReport) -> str:
    """Mean best score and fast_1 against evaluations spent, with the budget marked."""
    points = report.progress
    fig, ax = _new_figure()
    title = "Progress against evaluations spent"
    if not points:
        _empty(ax, "no evaluations yet")
    else:
        xs = [p.evaluations for p in points]
        ax.step(
            xs,
            [p.mean_best_score for p in points],
            where="post",
            color="black",
            label="mean best score",
        )
        ax.set_xlabel("evaluations")
        ax.set_ylabel("mean best score per task")
        right = ax.twinx()
        for baseline in BASELINE_NAMES:
            key = f"fast_1_{baseline}"
            right.step(
                xs,
                [getattr(p, key) for p in points],
                where="post",
                color=COLORS[baseline],
                label=f"fast_1 vs {baseline}",
            )
        right.set_ylabel("fast_1")
        right.set_ylim(-0.02, 1.02)
        if report.spend.budget:
            ax.axvline(report.spend.budget, color="red", linestyle=":", label="budget")
            ax.set_xlim(0, max(report.spend.budget, xs[-1]) * 1.02)
        lines = ax.get_legend_handles_labels()
        more = right.get_legend_handles_labels()
        ax.legend(lines[0] + more[0], lines[1] + more[1], loc="lower right", fontsize=8)
    ax.set_title(title)
    return _svg(fig, "plot-progress", title)


def lineage_rows(nodes: tuple[LineageNode, ...]) -> dict[int, int]:
    """A row per candidate: depth-first from the seeds, children under their first parent."""
    ids = {n.id for n in nodes}
    children: dict[int | None, list[int]] = defaultdict(list)
    for n in sorted(nodes, key=lambda n: n.id):
        parent = next((p for p in n.parents if p in ids), None)
        children[parent].append(n.id)
    rows: dict[int, int] = {}
    stack = list(reversed(children[None]))
    while stack:
        c = stack.pop()
        if c in rows:
            continue
        rows[c] = len(rows)
        stack.extend(reversed(children[c]))
    for n in nodes:  # a cycle cannot happen, but never drop a node
        rows.setdefault(n.id, len(rows))
    return rows


def lineage_tree(report: RunReport) -> str:
    """Every proposed candidate placed at the evaluations spent when it was proposed, joined
    to its parents; frontier members ringed, rejected ones grey."""
    nodes = report.lineage
    rows = lineage_rows(nodes)
    height = min(12.0, max(FIG_SIZE_IN[1], 0.25 * len(nodes)))
    fig, ax = _new_figure(height)
    title = "Candidate lineage"
    if not nodes:
        _empty(ax, "no candidates yet")
    else:
        by_id = {n.id: n for n in nodes}
        for n in nodes:
            for p in n.parents:
                if p in by_id:
                    ax.plot(
                        [by_id[p].discovery_evals, n.discovery_evals],
                        [rows[p], rows[n.id]],
                        color="#888888",
                        linewidth=0.8,
                        zorder=1,
                    )
        for status, color in STATUS_COLORS.items():
            group = [n for n in nodes if n.status == status]
            if group:
                ax.scatter(
                    [n.discovery_evals for n in group],
                    [rows[n.id] for n in group],
                    color=color,
                    label=status,
                    zorder=2,
                    s=30,
                )
        front = [n for n in nodes if n.on_frontier]
        if front:
            ax.scatter(
                [n.discovery_evals for n in front],
                [rows[n.id] for n in front],
                facecolors="none",
                edgecolors="red",
                s=160,
                linewidths=1.5,
                label="frontier",
                zorder=3,
            )
        label_all = len(nodes) <= MAX_LINEAGE_LABELS
        for n in nodes:
            if label_all or n.status == "pool":
                k = len(n.best_kernels)
                text = f"#{n.id}" + (f" (best kernel of {k} task{'s' * (k > 1)})" if k else "")
                ax.annotate(
                    text,
                    (n.discovery_evals, rows[n.id]),
                    xytext=(6, -3),
                    textcoords="offset points",
                    fontsize=7,
                )
        ax.margins(x=0.15, y=0.1)
        ax.invert_yaxis()
        ax.set_yticks([])
        ax.set_xlabel("evaluations spent when proposed")
        ax.legend(loc="upper right", fontsize=8)
    ax.set_title(title)
    return _svg(fig, "plot-lineage", title)


def all_plots(report: RunReport) -> dict[str, str]:
    """Plot id -> inline SVG, in `PLOT_IDS` order."""
    return {
        "plot-speedup": speedup_bars(report),
        "plot-fast-p": fast_p_curve(report),
        "plot-progress": progress(report),
        "plot-lineage": lineage_tree(report),
    }
