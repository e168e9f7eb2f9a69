"""A `RunReport` as Markdown (for pull requests and notes)."""

from __future__ import annotations

from collections.abc import Sequence

from kernelsearch.report import fmt
from kernelsearch.report.metrics import BASELINE_NAMES
from kernelsearch.report.model import RunReport, Scoreboard, fast_p_name


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    def line(cells: Sequence[str]) -> str:
        return (
            "| " + " | ".join(str(c).replace("|", "\\|").replace("\n", " ") for c in cells) + " |"
        )

    return [line(header), "|" + "|".join("---" for _ in header) + "|", *(line(r) for r in rows)]


def _metrics_table(board: Scoreboard) -> list[str]:
    ps = list(next(iter(board.fast_p.values())).keys()) if board.fast_p else []
    header = ["baseline", *(fast_p_name(p) for p in ps), "geomean speedup"]
    rows = [
        [b, *(fmt.pct(board.fast_p[b][p]) for p in ps), fmt.speedup(board.geomean[b])]
        for b in BASELINE_NAMES
        if b in board.fast_p
    ]
    return _table(header, rows)


def _best_table(board: Scoreboard) -> list[str]:
    header = [
        "task",
        "status",
        "vs eager",
        "vs compile",
        "time (ms)",
        "stage",
        "flags",
        "prompt",
        "figures",
    ]
    rows = [
        [
            f"`{b.task}`",
            "accepted" if b.accepted else f"failed: {b.error or b.stage}",
            fmt.speedup(b.speedup_eager),
            fmt.speedup(b.speedup_compile),
            fmt.ms(b.runtime_ms),
            b.stage,
            fmt.flags(b.flags),
            fmt.MISSING if b.candidate_id is None else f"#{b.candidate_id}",
            fmt.FIGURES_LABEL.get(b.figures, fmt.MISSING),
        ]
        for b in board.best
    ]
    return _table(header, rows)


def to_markdown(report: RunReport) -> str:
    out = [f"# kernelsearch run `{report.run_id}`", ""]
    out += _table(
        ["", ""],
        [
            ["status", report.status],
            ["model", f"`{report.model}` (reflection: `{report.reflection_model}`)"],
            ["backend", report.backend],
            *([k, v] for k, v in fmt.measurement(report)),
            ["evaluations", fmt.budget(report)],
            [
                "re-times / test evaluations",
                f"{report.spend.retimes} / {report.spend.test_evaluations}",
            ],
            ["LLM calls", f"{report.spend.llm_calls} ({report.spend.llm_errors} failed)"],
            ["tokens in / out", f"{report.spend.tokens_in} / {report.spend.tokens_out}"],
            ["cost", fmt.cost(report)],
        ],
    )
    board = report.search
    out += ["", f"## fast_p over {len(board.tasks)} tasks", ""]
    out += _metrics_table(board)
    out += ["", "## Best kernel per task", ""]
    out += _best_table(board)
    out += ["", "## Frontier prompts", ""]
    if not report.frontier:
        out.append("No candidate has been fully evaluated yet.")
    for f in report.frontier:
        parents = ", ".join(f"#{p}" for p in f.parents) or "none"
        out += [
            f"### Prompt #{f.candidate_id} ({f.origin}, parents: {parents})",
            "",
            f"Wins {f.share:g} task(s): {fmt.names([f'`{t}`' for t in f.wins])}. "
            f"Mean score {f.mean_score:.3f}; found after {f.discovery_evals} evaluations.",
            "",
            "<details><summary>prompt text</summary>",
            "",
            "```text",
            fmt.prompt_text(f.components),
            "```",
            "",
            "</details>",
            "",
        ]
    out += ["", "## Progress against evaluations spent", ""]
    out += _table(
        ["evaluations", "mean best score", "tasks accepted", "fast_1 eager", "fast_1 compile"],
        [
            [
                str(p.evaluations),
                f"{p.mean_best_score:.3f}",
                str(p.accepted_tasks),
                fmt.pct(p.fast_1_eager),
                fmt.pct(p.fast_1_compile),
            ]
            for p in fmt.sample(report.progress)
        ],
    )
    if report.test is not None:
        out += ["", f"## Held-out test ({len(report.test.tasks)} tasks)", ""]
        out += _metrics_table(report.test)
        out += [""]
        out += _best_table(report.test)
    return "\n".join(out).rstrip() + "\n"
