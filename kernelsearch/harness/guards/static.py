"""Static guards: checks on the candidate's source before anything runs.

A registry of named checks; each returns Flags (severity `error` rejects the candidate).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from kernelsearch.result import Flag, Severity

StaticCheck = Callable[[ast.Module | None, str, str, bool], list[Flag]]

# Checks whose failure means "not a usable candidate" (stage static_failed) rather than
# "a guard rejected it" (stage rejected).
STRUCTURAL = {"syntax", "model_new"}

REGISTRY: dict[str, StaticCheck] = {}


def register(name: str) -> Callable[[StaticCheck], StaticCheck]:
    def deco(fn: StaticCheck) -> StaticCheck:
        REGISTRY[name] = fn
        return fn

    return deco


@register("model_new")
def _model_new(tree: ast.Module | None, source: str, backend: str, allow: bool) -> list[Flag]:
    if tree is None:
        return []
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == "ModelNew":
            if any(isinstance(b, ast.FunctionDef) and b.name == "forward" for b in node.body):
                return []
            return [Flag("model_new", Severity.ERROR, "class ModelNew defines no forward()")]
    return [Flag("model_new", Severity.ERROR, "the source defines no class ModelNew")]


def check_source(source: str, backend: str, allow_torch_ops: bool = False) -> list[Flag]:
    """Run every registered static check; a syntax error short-circuits the rest."""
    try:
        tree = ast.parse(source)
    except SyntaxError as e:
        return [Flag("syntax", Severity.ERROR, f"line {e.lineno}: {e.msg}")]
    flags: list[Flag] = []
    for check in REGISTRY.values():
        flags.extend(check(tree, source, backend, allow_torch_ops))
    return flags


def first_error(flags: list[Flag]) -> Flag | None:
    return next((f for f in flags if f.severity is Severity.ERROR), None)
