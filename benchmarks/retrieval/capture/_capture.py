"""Shared helpers for the capture scripts: run a compiler on a broken source, keep its output.

Logs are written once and committed; CI never rebuilds them. Paths inside a log are made
stable (the scratch directory becomes ``/tmp/kscap``) so re-running produces the same text.

`capture_main` is the driver of the blind sets (fresh2 ... fresh5): nvcc, Triton (ahead of
time for sm_90, no GPU needed), g++ and nvcc-with-torch-headers cases, machine paths and object
addresses sanitised. The committed logs were captured while each script carried its own copy
of this driver, so a re-capture differs from them in the driver's own traceback frame (and,
for fresh2, which ran without the TORCH_EXTENSION_NAME define and the <python>/ and address
substitutions, in those too).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import traceback
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
LOG_DIR = HERE.parent / "logs"
SCRATCH = Path("/tmp/kscap")
NVCC_ARCH = "sm_90a"
EXTENSION_NAME = "fused_ext"  # load_inline defines TORCH_EXTENSION_NAME for the module
CAPTURE_DIR_IN_REPO = "<repo>/benchmarks/retrieval/capture/"
SITE_PACKAGES = Path(sysconfig.get_paths()["purelib"])
PYTHON_INCLUDE = Path(sysconfig.get_paths()["include"])
PYTHON_PREFIX = Path(sys.base_prefix)
TritonCase = tuple[Callable[..., Any], dict[str, str], dict[str, Any]]  # fn, signature, constexprs


def torch_include_flags() -> list[str]:
    import sysconfig

    from torch.utils import cpp_extension

    flags = [f"-I{p}" for p in cpp_extension.include_paths()]
    flags.append(f"-I{sysconfig.get_paths()['include']}")
    return flags


def load_inline_nvcc_flags() -> list[str]:
    from torch.utils import cpp_extension

    return list(cpp_extension.COMMON_NVCC_FLAGS)


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


def sanitise(text: str) -> str:
    """Machine paths out (site-packages, Python, the repo) and object addresses get stable names."""
    text = text.replace(f"{SITE_PACKAGES}/", "<site-packages>/")
    text = text.replace(f"{PYTHON_INCLUDE}/", "<python-include>/")
    text = text.replace(f"{PYTHON_PREFIX}/", "<python>/")
    text = re.sub(r" at 0x[0-9a-f]+>", " at 0x...>", text)
    text = text.replace(f"{HERE}/", CAPTURE_DIR_IN_REPO)
    if (REPO / "benchmarks").is_dir():
        text = text.replace(f"{REPO}/", "<repo>/")
    return text


def write_log(out_dir: Path, name: str, text: str) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / f"{name}.log").write_text(sanitise(text))
    sys.stderr.write(f"[{name}] {len(text)} chars\n")


def compile_case(out_dir: Path, name: str, filename: str, source: str, command: list[str]) -> None:
    """Write `source` to a scratch dir, run `command` there, keep the output if it failed."""
    work = SCRATCH / name
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    (work / filename).write_text(source)
    proc = subprocess.run(command, cwd=work, capture_output=True, text=True)
    text = (proc.stdout + proc.stderr).replace(str(work), "/tmp/kscap")
    if proc.returncode == 0 and "error" not in text.lower() and "warning" not in text.lower():
        sys.stderr.write(f"[{name}] compiled cleanly: no log written\n")
        return
    write_log(out_dir, name, text)


def triton_error(fn: Callable[..., Any], signature: dict[str, str], constexprs: dict) -> str:
    """The traceback, preceded by what MLIR wrote straight to the process's stderr (fd 2)."""
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    failure = ""
    with tempfile.TemporaryFile(mode="w+") as native:
        with _fd2_redirected(native):
            try:
                triton.compile(
                    ASTSource(fn=fn, signature=signature, constexprs=constexprs),
                    target=GPUTarget("cuda", 90, 32),
                )
            except Exception as e:  # the compiler's own exception is the log
                failure = "".join(traceback.format_exception(e))
        native.seek(0)
        diagnostics = native.read()
    return diagnostics + failure if failure else ""


@contextlib.contextmanager
def _fd2_redirected(target):  # type: ignore[no-untyped-def]
    sys.stderr.flush()
    saved = os.dup(2)
    os.dup2(target.fileno(), 2)
    try:
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)


def capture_main(
    doc: str,
    nvcc_cases: Mapping[str, str],
    triton_cases: Mapping[str, TritonCase],
    gcc_cases: Mapping[str, str],
    nvcc_torch_cases: Mapping[str, str],
) -> None:
    """Command line of a blind-set script: `[--out DIR] [case ...]` (default: all cases)."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--out", type=Path, default=LOG_DIR, help="log directory")
    parser.add_argument("cases", nargs="*", help="case names (default: all)")
    args = parser.parse_args()

    def chosen(names: Mapping[str, Any]) -> list[str]:
        return [n for n in names if not args.cases or n in args.cases]

    # load_inline always passes torch's COMMON_NVCC_FLAGS (--expt-relaxed-constexpr, the
    # __CUDA_NO_HALF_OPERATORS__ family): without them a capture shows errors the product never
    # sees and misses ones it does. Logs up to fresh9 were captured without them.
    nvcc_flags = load_inline_nvcc_flags()
    for name in chosen(nvcc_cases):
        command = ["nvcc", "-c", f"-arch={NVCC_ARCH}", *nvcc_flags, "kernel.cu"]
        compile_case(args.out, name, "kernel.cu", nvcc_cases[name], command)
    for name in chosen(triton_cases):
        text = triton_error(*triton_cases[name])
        if not text:
            sys.stderr.write(f"[{name}] compiled cleanly: no log written\n")
            continue
        write_log(args.out, name, text)
    flags = [*torch_include_flags(), f"-DTORCH_EXTENSION_NAME={EXTENSION_NAME}"]
    for name in chosen(gcc_cases):
        command = ["g++", "-std=c++20", "-fsyntax-only", "-fopenmp", *flags, "main.cpp"]
        compile_case(args.out, name, "main.cpp", gcc_cases[name], command)
    for name in chosen(nvcc_torch_cases):
        command = [
            "nvcc",
            "-c",
            f"-arch={NVCC_ARCH}",
            "-std=c++20",
            *nvcc_flags,
            *flags,
            "kernel.cu",
        ]
        compile_case(args.out, name, "kernel.cu", nvcc_torch_cases[name], command)
