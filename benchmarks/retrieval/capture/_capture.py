"""Shared helpers for the capture scripts: run a compiler on a broken source, keep its output.

Logs are written once and committed; CI never rebuilds them. Paths inside a log are made
stable (the scratch directory becomes ``/tmp/kscap``) so re-running produces the same text.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

LOG_DIR = Path(__file__).resolve().parent.parent / "logs"
SCRATCH = Path("/tmp/kscap")


def torch_include_flags() -> list[str]:
    import sysconfig

    from torch.utils import cpp_extension

    flags = [f"-I{p}" for p in cpp_extension.include_paths()]
    flags.append(f"-I{sysconfig.get_paths()['include']}")
    return flags


def run_case(name: str, filename: str, source: str, command: list[str]) -> str:
    """Write `source` to a scratch dir, run `command` there, save combined output as a log."""
    work = SCRATCH / name
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    (work / filename).write_text(source)
    proc = subprocess.run(command, cwd=work, capture_output=True, text=True)
    text = (proc.stdout + proc.stderr).replace(str(work), "/tmp/kscap")
    if proc.returncode == 0 and "error" not in text.lower() and "warning" not in text.lower():
        sys.stderr.write(f"[{name}] compiled cleanly: no log written\n")
        return ""
    LOG_DIR.mkdir(parents=True, exist_ok=True)
    (LOG_DIR / f"{name}.log").write_text(text)
    sys.stderr.write(f"[{name}] rc={proc.returncode}, {len(text)} chars\n")
    return text


def selected(names: list[str]) -> list[str]:
    """Names given on the command line, or all of them."""
    wanted = sys.argv[1:]
    return [n for n in names if not wanted or n in wanted]
