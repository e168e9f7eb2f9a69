"""`kernelsearch report`, `export` and `leaderboard`: thin commands over `kernelsearch.report`."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from kernelsearch.cli.common import EXIT_BAD_INPUT, console, err_console, setup_logging, user_errors
from kernelsearch.report import build_report, export_run, to_markdown, write_html
from kernelsearch.report import leaderboard as lb
from kernelsearch.report.metrics import BASELINE_NAMES
from kernelsearch.report.terminal import render

RUN_DIR_HELP = "A run directory (holds run.sqlite; `results/<run-id>/` by default)."


def _one_format(json_out: bool, markdown: bool) -> None:
    if json_out and markdown:
        err_console.print("[bold red]error:[/] give --json or --markdown, not both")
        raise typer.Exit(EXIT_BAD_INPUT)


def report(
    run_dir: Path = typer.Argument(..., help=RUN_DIR_HELP),
    json_out: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    markdown: bool = typer.Option(False, "--markdown", help="Print the report as Markdown."),
    html: Path | None = typer.Option(
        None, "--html", help="Also write a self-contained HTML page with plots to this path."
    ),
    verbose: bool = typer.Option(False, "--verbose", "-v"),
) -> None:
    """Show one run: per-task best kernels, fast_p, geomean, spend, frontier, progress.

    Speedups are against PyTorch eager and torch.compile; the figures are the final re-timed
    ones where the run has them.
    """
    setup_logging(verbose)
    _one_format(json_out, markdown)
    with user_errors():
        result = build_report(run_dir)
        if html is not None:
            path = write_html(result, html)
            err_console.print(f"wrote {path}")
    if json_out:
        typer.echo(json.dumps(result.to_dict(), indent=2))
    elif markdown:
        typer.echo(to_markdown(result), nl=False)
    else:
        console.print(render(result))


def export(
    run_dir: Path = typer.Argument(..., help=RUN_DIR_HELP),
    to: Path = typer.Option(..., "--to", help="Directory to write the kernels, prompts, results."),
    force: bool = typer.Option(False, "--force", help="Replace a previous export in --to."),
    verbose: bool = typer.Option(False, "--verbose", "-v"),
) -> None:
    """Export the best accepted kernels, a results JSON and the frontier prompts.

    Each task's best accepted kernel becomes `<task>.py` (a drop-in ModelNew); results.json
    follows KernelBench's fields. Re-verify with `kernelsearch eval BATCH --kernels DIR`.
    """
    setup_logging(verbose)
    with user_errors():
        manifest = export_run(run_dir, to, force=force)
    console.print(
        f"exported {len(manifest.kernels)} kernel(s)"
        + (f" (+{len(manifest.test_kernels)} test)" if manifest.test_kernels else "")
        + f" and {len(manifest.prompts)} frontier prompt(s) to {manifest.directory}"
    )
    for task, rel in {**manifest.kernels, **manifest.test_kernels}.items():
        console.print(f"  {task}: {rel}", highlight=False)
    console.print(f"re-verify: kernelsearch eval BATCH --kernels {manifest.directory}")


def leaderboard_cmd(
    run_dirs: list[Path] = typer.Argument(..., help="Run directories to compare."),
    baseline: str = typer.Option("eager", "--baseline", help="fast_p against eager|compile."),
    json_out: bool = typer.Option(False, "--json", help="Print the rows as JSON."),
    markdown: bool = typer.Option(False, "--markdown", help="Print a Markdown table."),
    verbose: bool = typer.Option(False, "--verbose", "-v"),
) -> None:
    """Compare runs side by side: model, backend, hardware, budget, fast_p, geomean."""
    setup_logging(verbose)
    _one_format(json_out, markdown)
    if baseline not in BASELINE_NAMES:
        err_console.print(
            f"[bold red]error:[/] --baseline must be one of {', '.join(BASELINE_NAMES)}"
        )
        raise typer.Exit(EXIT_BAD_INPUT)
    with user_errors():
        rows = lb.leaderboard_rows(run_dirs, baseline)
    if json_out:
        typer.echo(json.dumps([r.to_dict() for r in rows], indent=2))
    elif markdown:
        typer.echo(lb.to_markdown(rows, baseline), nl=False)
    else:
        console.print(lb.table(rows, baseline))
        for note in lb.caveats(rows):
            console.print(f"[yellow]note:[/] {note}")


def register(app: typer.Typer) -> None:
    app.command("report")(report)
    app.command("export")(export)
    app.command("leaderboard")(leaderboard_cmd)
