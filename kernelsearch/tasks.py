"""Tasks and batches in the KernelBench format.

A task file defines `class Model(nn.Module)`, `get_inputs()` and `get_init_inputs()`. The
orchestrator only *parses* task files (never imports them); task code runs in sandbox workers.
Size constants (module-level `NAME = <int>`) can be overridden without editing the file, so a
task written for an 80 GB GPU can be checked on a small machine.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kernelsearch.errors import TaskFormatError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

REQUIRED = (("class", "Model"), ("function", "get_inputs"), ("function", "get_init_inputs"))
_NUMERIC_PREFIX = re.compile(r"^(\d+)")
TASK_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")  # names become kernel file names


@dataclass(frozen=True)
class Task:
    """One operator. `sizes` are the size-constant overrides applied to the source."""

    name: str
    path: Path
    source: str
    sizes: dict[str, int | float] = field(default_factory=dict)
    atol: float | None = None
    rtol: float | None = None
    trials: int | None = None
    allow_torch_ops: bool | None = None
    flops: float | None = None  # manifest override of the counted FLOPs
    bytes: float | None = None  # manifest override of the counted bytes

    @property
    def effective_source(self) -> str:
        """The task source with size overrides applied (what workers execute)."""
        return apply_sizes(self.source, self.sizes, origin=str(self.path))

    @property
    def hash(self) -> str:
        """Identity of what is measured: source, sizes and tolerances."""
        h = hashlib.sha256(self.effective_source.encode())
        h.update(repr((self.atol, self.rtol)).encode())
        return h.hexdigest()[:16]

    def size_constants(self) -> dict[str, int | float]:
        """Module-level numeric constants after overrides (candidates for perturbation)."""
        return size_constants(self.effective_source)

    def with_sizes(self, sizes: dict[str, int | float]) -> Task:
        return dataclasses.replace(self, sizes={**self.sizes, **sizes})

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "path": str(self.path),
            "sizes": dict(self.sizes),
            "atol": self.atol,
            "rtol": self.rtol,
            "trials": self.trials,
            "allow_torch_ops": self.allow_torch_ops,
            "flops": self.flops,
            "bytes": self.bytes,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Task:
        task = load_task(Path(d["path"]))
        return dataclasses.replace(
            task,
            name=d.get("name", task.name),
            sizes=dict(d.get("sizes") or {}),
            atol=d.get("atol"),
            rtol=d.get("rtol"),
            trials=d.get("trials"),
            allow_torch_ops=d.get("allow_torch_ops"),
            flops=d.get("flops"),
            bytes=d.get("bytes"),
        )


# ---------------------------------------------------------------------------------------
# Parsing and validation


def parse_task_source(source: str, origin: str) -> ast.Module:
    """Parse and check the KernelBench structure; raise TaskFormatError naming what is missing."""
    try:
        tree = ast.parse(source, filename=origin)
    except SyntaxError as e:
        raise TaskFormatError(f"{origin}:{e.lineno}: syntax error: {e.msg}") from None
    defined = {("class", n.name) for n in tree.body if isinstance(n, ast.ClassDef)} | {
        ("function", n.name) for n in tree.body if isinstance(n, ast.FunctionDef)
    }
    missing = [name for kind, name in REQUIRED if (kind, name) not in defined]
    if missing:
        raise TaskFormatError(f"{origin}: not a KernelBench task: no {', '.join(missing)} defined")
    return tree


def size_constants(source: str) -> dict[str, int | float]:
    tree = ast.parse(source)
    out: dict[str, int | float] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                try:
                    value = ast.literal_eval(node.value)
                except (ValueError, SyntaxError, TypeError):
                    continue
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    out[target.id] = value
    return out


def apply_sizes(source: str, sizes: dict[str, int | float], origin: str) -> str:
    """Rewrite module-level `NAME = value` lines for each override; keep everything else."""
    if not sizes:
        return source
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    found: set[str] = set()
    # Replace from the bottom so earlier line numbers stay valid.
    assigns = [
        n
        for n in tree.body
        if isinstance(n, ast.Assign)
        and len(n.targets) == 1
        and isinstance(n.targets[0], ast.Name)
        and n.targets[0].id in sizes
    ]
    for node in sorted(assigns, key=lambda n: n.lineno, reverse=True):
        name = node.targets[0].id
        found.add(name)
        start, end = node.lineno - 1, node.end_lineno or node.lineno
        indent = lines[start][: len(lines[start]) - len(lines[start].lstrip())]
        lines[start:end] = [f"{indent}{name} = {sizes[name]!r}  # kernelsearch size override\n"]
    unknown = sorted(set(sizes) - found)
    if unknown:
        raise TaskFormatError(
            f"{origin}: size override names no module-level constant: {', '.join(unknown)}"
        )
    return "".join(lines)


def load_task(path: Path, name: str | None = None) -> Task:
    path = Path(path)
    if not path.is_file():
        raise TaskFormatError(f"{path}: task file does not exist")
    try:
        source = path.read_text()
    except (OSError, UnicodeDecodeError) as e:
        raise TaskFormatError(f"{path}: cannot read task file: {e}") from None
    parse_task_source(source, str(path))
    name = name or path.stem
    if not TASK_NAME.fullmatch(name):
        raise TaskFormatError(
            f"{path}: task name {name!r} cannot be a file name; use letters, digits, '_', '-' "
            "and '.' (rename the file, or set `name` in the manifest)"
        )
    return Task(name=name, path=path.resolve(), source=source)


# ---------------------------------------------------------------------------------------
# Batches: a directory of task files, or a TOML manifest


def _order_key(p: Path) -> tuple[int, str]:
    m = _NUMERIC_PREFIX.match(p.name)
    return (int(m.group(1)) if m else 1 << 30, p.name)


def load_batch(path: Path | str) -> list[Task]:
    """Load a batch: a directory of `*.py` task files, a single task file, or a TOML manifest."""
    path = Path(path)
    if path.is_dir():
        files = sorted((p for p in path.glob("*.py") if not p.name.startswith("_")), key=_order_key)
        if not files:
            raise TaskFormatError(f"{path}: no task files (*.py) in this directory")
        return [load_task(p) for p in files]
    if path.suffix == ".toml":
        return load_manifest(path)
    if path.suffix == ".py":
        return [load_task(path)]
    if not path.exists():
        raise TaskFormatError(f"{path}: no such task file, directory or manifest")
    raise TaskFormatError(f"{path}: expected a .py task, a directory of tasks, or a .toml manifest")


_TASK_KEYS = {
    "path",
    "name",
    "atol",
    "rtol",
    "trials",
    "sizes",
    "allow_torch_ops",
    "flops",
    "bytes",
}


def load_manifest(path: Path) -> list[Task]:
    """A manifest:

    ```toml
    [defaults]            # optional, applied to every task
    atol = 1e-3
    [defaults.sizes]      # only constants a task defines are applied from defaults
    batch_size = 16
    [[task]]
    path = "../level1/19_relu.py"     # relative to the manifest
    trials = 3
    sizes = { dim = 4096 }
    ```
    """
    if not path.is_file():
        raise TaskFormatError(f"{path}: manifest does not exist")
    try:
        data = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as e:
        raise TaskFormatError(f"{path}: malformed TOML: {e}") from None
    entries = data.get("task")
    if not isinstance(entries, list) or not entries:
        raise TaskFormatError(f"{path}: manifest lists no [[task]] entries")
    defaults = data.get("defaults", {})
    tasks: list[Task] = []
    for i, entry in enumerate(entries):
        where = f"{path} [[task]] #{i + 1}"
        unknown = set(entry) - _TASK_KEYS
        if unknown:
            raise TaskFormatError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
        if "path" not in entry:
            raise TaskFormatError(f"{where}: missing 'path'")
        task = load_task((path.parent / entry["path"]), name=entry.get("name"))
        defined = size_constants(task.source)
        sizes = {k: v for k, v in defaults.get("sizes", {}).items() if k in defined}
        sizes.update(entry.get("sizes", {}))
        try:
            apply_sizes(task.source, sizes, origin=f"{where} ({task.path.name})")
        except TaskFormatError:
            raise
        merged = {k: defaults.get(k) for k in ("atol", "rtol", "trials", "allow_torch_ops")}
        merged.update({k: entry[k] for k in entry if k in merged or k in ("flops", "bytes")})
        tasks.append(dataclasses.replace(task, sizes=sizes, **merged))
    names = [t.name for t in tasks]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise TaskFormatError(f"{path}: duplicate task names: {', '.join(dupes)}")
    return tasks
