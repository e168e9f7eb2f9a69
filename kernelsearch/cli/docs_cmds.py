"""`kernelsearch docs search | build | add`: the documentation index from the command line."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.markdown import Markdown
from rich.panel import Panel

from kernelsearch.cli.common import console, setup_logging, user_errors
from kernelsearch.retrieval import (
    DEFAULT_MAX_CHARS,
    DEFAULT_TOP_K,
    DocsIndex,
    add_documents,
    cap_sections,
)

docs_app = typer.Typer(
    name="docs",
    help="Search, rebuild or extend the documentation index that feedback draws on.",
    no_args_is_help=True,
)


@docs_app.command("search")
def search_cmd(
    text: str = typer.Argument(..., help="Query: an error message, an API name, a symptom."),
    k: int = typer.Option(DEFAULT_TOP_K, "-k", "--top", min=1, help="How many sections."),
    max_chars: int = typer.Option(DEFAULT_MAX_CHARS, "--max-chars", min=1, help="Text cap in all."),
    ids_only: bool = typer.Option(False, "--ids", help="Print section ids only."),
    verbose: bool = typer.Option(False, "-v", "--verbose"),
) -> None:
    """Show the sections a query retrieves, best first."""
    setup_logging(verbose)
    with user_errors():
        index = DocsIndex()
        scored = index.search_scored(text, k=k)
        shown = {s.id: s for s in cap_sections([s for s, _ in scored], max_chars)}
    if not scored:
        console.print("[yellow]No section matches that query.[/]")
        raise typer.Exit(0)
    for rank, (section, score) in enumerate(scored, 1):
        if ids_only:
            console.print(section.id, highlight=False)
            continue
        if section.id not in shown:
            break
        title = f"{rank}. {section.id}  [dim](bm25 {score:.2f}, {section.source})[/]"
        console.print(Panel(Markdown(shown[section.id].text), title=title, title_align="left"))


@docs_app.command("build")
def build_cmd(
    force: bool = typer.Option(True, "--force/--if-changed", help="Rebuild even if unchanged."),
    verbose: bool = typer.Option(False, "-v", "--verbose"),
) -> None:
    """(Re)build the index from docs_index/ and the added documents."""
    setup_logging(verbose)
    with user_errors():
        index = DocsIndex()
        rebuilt = index.build(force=force)
        count = len(index.sections())
    state = "rebuilt" if rebuilt else "already current"
    console.print(f"Docs index {state}: {count} sections at {index.db_path}")


@docs_app.command("add")
def add_cmd(
    paths: list[Path] = typer.Argument(..., help="Markdown, text or HTML files or directories."),
    verbose: bool = typer.Option(False, "-v", "--verbose"),
) -> None:
    """Add your own documents; they are searched alongside ours."""
    setup_logging(verbose)
    with user_errors():
        stored = add_documents(paths)
        count = len(DocsIndex().sections())
    for path in stored:
        console.print(f"added {path.name}", highlight=False)
    console.print(f"Docs index: {count} sections.")


def register(app: typer.Typer) -> None:
    app.add_typer(docs_app, name="docs")
