"""Shared CLI helpers: consoles, exit codes, and one-line errors for bad input."""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import Iterator

import typer
from rich.console import Console

from kernelsearch.errors import KernelSearchError

# Exit codes shared by every command.
EXIT_OK = 0
EXIT_NOT_ACCEPTED = 1
EXIT_BAD_INPUT = 2
EXIT_INCOMPLETE = 3  # evaluated as far as this machine allows (e.g. compile-only)

console = Console()
err_console = Console(stderr=True)


def setup_logging(verbose: bool) -> None:
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )


@contextlib.contextmanager
def user_errors() -> Iterator[None]:
    """Turn a KernelSearchError into one clear red line on stderr and exit code 2."""
    try:
        yield
    except KernelSearchError as e:
        err_console.print(f"[bold red]error:[/] {e}", highlight=False, soft_wrap=True)
        raise typer.Exit(EXIT_BAD_INPUT) from None
