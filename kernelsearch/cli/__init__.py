"""The `kernelsearch` command: a thin Typer layer over the Python API.

Each command group lives in its own module with a `register(app)` function.
"""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    name="kernelsearch",
    help="Test-time kernel search: evolve kernel-writing prompts with GEPA over a batch of operators.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# Command modules, each exposing register(app). Order = order in --help.
_COMMAND_MODULES = [
    "kernelsearch.cli.run_cmds",
    "kernelsearch.cli.harness_cmds",
    "kernelsearch.cli.docs_cmds",
    "kernelsearch.cli.report_cmds",
]

for _name in _COMMAND_MODULES:
    importlib.import_module(_name).register(app)


def main() -> None:
    app()
