"""A `RunReport` as one self-contained HTML page: inline CSS, plots as inline SVG, the report
JSON embedded; nothing fetched from the network, so it reads the same offline.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape
from pathlib import Path

from kernelsearch.report import fmt, plots
from kernelsearch.report.metrics import BASELINE_NAMES
from kernelsearch.report.model import RunReport, Scoreboard, fast_p_name

_CSS = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.ok { color: #137333; } .bad { color: #b3261e; }
figure { margin: 1em 0 2em; } figure svg { max-width: 100%; height: auto; }
pre { background: #f6f6f6; padding: 0.8em; white-space: pre-wrap; font-size: 0.85em; }
"""


def _table(header: Sequence[str] | None, rows: Sequence[Sequence[str]], table_id: str = "") -> str:
    """`rows` cells are HTML already (escape text before passing it); no header when None."""
    ident = f' id="{table_id}"' if table_id else ""
    head = ""
    if header is not None:
        head = "<thead><tr>" + "".join(f"<th>{escape(h)}</th>" for h in header) + "</tr></thead>"
    body = "".join("<tr>" + "".join(_cell(c) for c in r) + "</tr>" for r in rows)
    return f"<table{ident}>{head}<tbody>{body}</tbody></table>"


def _cell(cell: str) -> str:
    if cell.startswith(("<td", "<th")):
        return cell
    return f"<td>{cell}</td>"


def _num(text: str) -> str:
    return f'<td class="num">{escape(text)}</td>'


def _metrics(board: Scoreboard, table_id: str) -> str:
    ps = list(board.fast_p.get("eager", {}))
    rows = [
        [
            escape(b),
            *(_num(fmt.pct(board.fast_p[b][p])) for p in ps),
            _num(fmt.speedup(board.geomean[b])),
        ]
        for b in BASELINE_NAMES
        if b in board.fast_p
    ]
    return _table(["baseline", *(fast_p_name(p) for p in ps), "geomean speedup"], rows, table_id)


def _best(board: Scoreboard, table_id: str) -> str:
    rows = []
    for b in board.best:
        status = (
            '<span class="ok">accepted</span>'
            if b.accepted
            else f'<span class="bad">{escape(b.error or b.stage)}</span>'
        )
        rows.append(
            [
                f"<code>{escape(b.task)}</code>",
                _num(fmt.speedup(b.speedup_eager)),
                _num(fmt.speedup(b.speedup_compile)),
                _num(fmt.ms(b.runtime_ms)),
                _num(fmt.ms(b.eager_ms)),
                _num(fmt.ms(b.compile_ms)),
                escape(b.stage),
                escape(fmt.flags(b.flags)),
                escape(fmt.MISSING if b.candidate_id is None else f"#{b.candidate_id}"),
                escape(fmt.FIGURES_LABEL.get(b.figures, fmt.MISSING)),
                status,
            ]
        )
    header = [
        "task",
        "vs eager",
        "vs compile",
        "kernel ms",
        "eager ms",
        "compile ms",
        "stage",
        "flags",
        "prompt",
        "figures",
        "status",
    ]
    return _table(header, rows, table_id)


def _overview(report: RunReport) -> str:
    s = report.spend
    rows = [
        ("status", report.status),
        ("model", f"{report.model} (reflection: {report.reflection_model})"),
        ("backend", report.backend),
        *fmt.measurement(report),
        ("evaluations", fmt.budget(report)),
        ("re-times / test evaluations", f"{s.retimes} / {s.test_evaluations}"),
        ("LLM calls", f"{s.llm_calls} ({s.llm_errors} failed)"),
        ("tokens in / out", f"{s.tokens_in} / {s.tokens_out}"),
        ("cost", fmt.cost(report)),
    ]
    return _table(None, [[f"<th>{escape(k)}</th>", escape(v)] for k, v in rows], "overview")


def _frontier(report: RunReport) -> str:
    if not report.frontier:
        return "<p>No candidate has been fully evaluated yet.</p>"
    parts = []
    for f in report.frontier:
        parents = ", ".join(f"#{p}" for p in f.parents) or "none"
        wins = ", ".join(f"<code>{escape(t)}</code>" for t in f.wins) or fmt.MISSING
        parts.append(
            f'<section class="prompt" id="prompt-{f.candidate_id}">'
            f"<h3>Prompt #{f.candidate_id} ({escape(f.origin)}, parents: {parents})</h3>"
            f"<p>Wins {f.share:g} task(s): {wins}. Mean score {f.mean_score:.3f}; found after "
            f"{f.discovery_evals} evaluations.</p>"
            f"<details><summary>prompt text</summary><pre>"
            f"{escape(fmt.prompt_text(f.components))}</pre></details></section>"
        )
    return "".join(parts)


def _figure(svg: str, caption: str) -> str:
    return f"<figure>{svg}<figcaption>{escape(caption)}</figcaption></figure>"


def _embedded_json(report: RunReport) -> str:
    data = json.dumps(report.to_dict(), sort_keys=True).replace("</", "<\\/")
    return f'<script type="application/json" id="report-data">{data}</script>'


def to_html(report: RunReport) -> str:
    svgs = plots.all_plots(report)
    board = report.search
    progress_rows = [
        [
            _num(str(p.evaluations)),
            _num(f"{p.mean_best_score:.3f}"),
            _num(str(p.accepted_tasks)),
            _num(fmt.pct(p.fast_1_eager)),
            _num(fmt.pct(p.fast_1_compile)),
        ]
        for p in fmt.sample(report.progress)
    ]
    body = [
        f"<h1>kernelsearch run <code>{escape(report.run_id)}</code></h1>",
        _overview(report),
        f"<h2>fast_p over {len(board.tasks)} tasks</h2>",
        _metrics(board, "fast-p"),
        _figure(
            svgs["plot-fast-p"],
            "fast_p against the speedup threshold p; dots: the reported thresholds.",
        ),
        "<h2>Best kernel per task</h2>",
        _figure(
            svgs["plot-speedup"],
            "Speedup of each task's best accepted kernel (dashed: 1x). "
            "Tasks marked (none) have no accepted kernel.",
        ),
        _best(board, "best"),
        "<h2>Progress against evaluations spent</h2>",
        _figure(
            svgs["plot-progress"],
            "Mean best score per task and fast_1 (search timings) "
            "against evaluations spent; dotted: the budget.",
        ),
        _table(
            ["evaluations", "mean best score", "tasks accepted", "fast_1 eager", "fast_1 compile"],
            progress_rows,
            "progress",
        ),
        "<h2>Frontier prompts</h2>",
        _frontier(report),
        "<h2>Candidate lineage</h2>",
        _figure(
            svgs["plot-lineage"],
            "Every proposed prompt at the evaluations spent when it was "
            "proposed, joined to its parents; ringed: on the Pareto frontier.",
        ),
    ]
    if report.test is not None:
        body += [
            f"<h2>Held-out test ({len(report.test.tasks)} tasks)</h2>",
            _metrics(report.test, "test-fast-p"),
            _best(report.test, "test-best"),
        ]
    title = escape(f"kernelsearch run {report.run_id}")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{title}</title><style>{_CSS}</style></head><body>"
        + "\n".join(body)
        + _embedded_json(report)
        + "</body></html>\n"
    )


def write_html(report: RunReport, path: Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(to_html(report), encoding="utf-8")
    return path
