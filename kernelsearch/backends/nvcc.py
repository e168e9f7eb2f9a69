"""Compile-only CUDA builds: what `load_inline` would compile, for the target GPU, without one.

The CPU build of torch cannot link or load a CUDA extension, but nvcc can still compile the
candidate's CUDA sources for the target architecture. `CompileOnly` is the BuildCache hook:

1. it lets torch's own `load_inline` write `main.cpp` (headers + pybind bindings) and `cuda.cu`
   into the build directory, stopping it just before the build;
2. it asks torch's own ninja writer for the flags that build would use (include paths,
   `-D` flags, `-std=`, arch flags from `TORCH_CUDA_ARCH_LIST`, the candidate's extra flags);
3. it runs `nvcc -c cuda.cu -Xptxas -v` (real errors, real register / shared memory / spill
   figures) and, alongside, `c++ -fsyntax-only main.cpp` (the bindings must compile too);
4. it records the outcome in the build directory, so an identical source is not recompiled,
   and raises `CompiledOnly` (object built, not linked, not run) or `BuildError`.
"""

from __future__ import annotations

import inspect
import json
import logging
import os
import re
import shlex
import shutil
import subprocess
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from kernelsearch.backends import resource_usage
from kernelsearch.harness.buildcache import BuildError, CompiledOnly, trim_log

log = logging.getLogger(__name__)

OUTCOME_FILE = "compile_only.json"
NINJA_FILE = "compile_only.ninja"
VERSION_TIMEOUT_S = 60.0
TOOL_TIMEOUT_S = 120.0
CUDA_HOME_GUESSES = ("/usr/local/cuda", "/opt/cuda")
SHIM_DIR = "ks_generated_headers"

# Headers a CUDA build of torch generates at build time and a CPU build does not ship.
# `c10/cuda/CUDAStream.h`, `ATen/cuda/cub.h` and friends include them; their content is the
# configuration of a standard CUDA build of torch.
GENERATED_TORCH_HEADERS = {
    "c10/cuda/impl/cuda_cmake_macros.h": "#pragma once\n#define C10_CUDA_BUILD_SHARED_LIBS\n",
    "ATen/cuda/CUDAConfig.h": (
        "#pragma once\n"
        "#define AT_CUDNN_ENABLED() 1\n"
        "#define AT_CUSPARSELT_ENABLED() 1\n"
        "#define AT_HIPSPARSELT_ENABLED() 0\n"
        "#define AT_ROCM_ENABLED() 0\n"
        "#define AT_MAGMA_ENABLED() 1\n"
        '#define NVCC_FLAGS_EXTRA ""\n'
    ),
}
# CUDA math-library headers: part of a full CUDA toolkit, absent from minimal nvcc installs.
TOOLKIT_LIBRARY_HEADERS = ("cublas", "cusparse", "cusolver", "curand", "cufft", "cudss", "nvrtc")
_MISSING_HEADER = re.compile(r"fatal error: ([\w/.]+\.h)\w*: No such file")


class _StopBeforeBuild(Exception):
    """Raised from the patched `_jit_compile` once load_inline has written its sources."""


# ---------------------------------------------------------------------------------------
# Toolkit discovery


@lru_cache(maxsize=1)
def cuda_home() -> Path | None:
    """The CUDA toolkit root: $CUDA_HOME / $CUDA_PATH, nvcc's parent, or a standard place."""
    candidates = [os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH")]
    nvcc = shutil.which("nvcc")
    if nvcc:
        candidates.append(str(Path(os.path.realpath(nvcc)).parents[1]))
    candidates.extend(CUDA_HOME_GUESSES)
    for c in candidates:
        if (
            c
            and (Path(c) / "bin" / "nvcc").is_file()
            and (Path(c) / "include" / "cuda.h").is_file()
        ):
            return Path(c)
    return None


def nvcc_path() -> Path | None:
    home = cuda_home()
    return home / "bin" / "nvcc" if home else None


@lru_cache(maxsize=1)
def nvcc_version() -> str:
    """`nvcc --version`'s release line, e.g. 'Cuda compilation tools, release 13.0, V13.0.88'."""
    nvcc = nvcc_path()
    if nvcc is None:
        return "no-nvcc"
    try:
        out = subprocess.run(
            [str(nvcc), "--version"], capture_output=True, text=True, timeout=VERSION_TIMEOUT_S
        ).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "unknown-nvcc"
    lines = [ln for ln in out.splitlines() if "release" in ln]
    return lines[-1].strip() if lines else "unknown-nvcc"


def cuobjdump_path() -> Path | None:
    """cuobjdump from the toolkit, else the copy Triton ships."""
    home = cuda_home()
    if home and (home / "bin" / "cuobjdump").is_file():
        return home / "bin" / "cuobjdump"
    try:
        import triton

        bundled = Path(triton.__file__).parent / "backends" / "nvidia" / "bin" / "cuobjdump"
        if bundled.is_file():
            return bundled
    except ImportError:
        pass
    found = shutil.which("cuobjdump")
    return Path(found) if found else None


def cuobjdump_resources(binary: Path) -> list[resource_usage.KernelResources]:
    """Per-kernel resource usage of a cubin, object or shared library ([] when unreadable)."""
    tool = cuobjdump_path()
    if tool is None:
        return []
    try:
        out = subprocess.run(
            [str(tool), "--dump-resource-usage", str(binary)],
            capture_output=True,
            text=True,
            timeout=TOOL_TIMEOUT_S,
        )
    except (OSError, subprocess.TimeoutExpired):
        return []
    return resource_usage.parse_cuobjdump(out.stdout)


# ---------------------------------------------------------------------------------------
# What load_inline would compile, and how


@dataclass(frozen=True)
class BuildPlan:
    """The files load_inline wrote and the compiler command lines its build would run."""

    cpp_source: Path
    cuda_source: Path
    cxx: list[str]  # compile command for main.cpp, without -c/-o
    nvcc: list[str]  # compile command for cuda.cu, without -c/-o


def plan_build(build_dir: Path, args: dict[str, Any]) -> BuildPlan:
    """Let torch write the sources and the ninja file for this load_inline call; read them back."""
    from torch.utils import cpp_extension

    home = cuda_home()
    if home is None:
        raise BuildError(
            "nvcc not found: install the CUDA toolkit or set CUDA_HOME to compile CUDA kernels"
        )
    name = f"ks_{build_dir.name}"
    kwargs = {k: v for k, v in args.items() if k not in ("name", "cpp_sources", "cuda_sources")}
    kwargs.pop("use_pch", None)  # a precompiled header would compile torch's headers twice
    captured = _capture_jit_compile(
        cpp_extension,
        name=name,
        cpp_sources=list(args["cpp_sources"]),
        cuda_sources=list(args["cuda_sources"]),
        build_directory=str(build_dir),
        **kwargs,
    )
    ninja = build_dir / NINJA_FILE
    saved_home = cpp_extension.CUDA_HOME
    cpp_extension.CUDA_HOME = str(home)  # None on CPU builds of torch; include paths need it
    try:
        writer = cpp_extension._write_ninja_file_to_build_library
        accepted = inspect.signature(writer).parameters
        values = {
            "path": str(ninja),
            "name": name,
            "sources": captured["sources"],
            "with_cuda": True,
            "with_sycl": False,
            "is_standalone": False,
        }
        for key in accepted:
            if key.startswith("extra_"):
                values[key] = list(captured.get(key) or [])
        writer(**{k: v for k, v in values.items() if k in accepted})
    finally:
        cpp_extension.CUDA_HOME = saved_home
    variables = _ninja_variables(ninja.read_text())
    sources = [Path(s) for s in captured["sources"]]
    cuda = next(s for s in sources if s.suffix == ".cu")
    cpp = next(s for s in sources if s.suffix == ".cpp")
    nvcc_cmd = [variables.get("nvcc", str(home / "bin" / "nvcc"))]
    nvcc_cmd += shlex.split(variables.get("cuda_cflags", ""))
    nvcc_cmd += shlex.split(variables.get("cuda_post_cflags", ""))
    cxx_cmd = shlex.split(variables.get("cxx", "c++")) + shlex.split(variables.get("cflags", ""))
    cxx_cmd += shlex.split(variables.get("post_cflags", ""))
    if not _has_generated_headers(cpp_extension):
        shim = _write_generated_headers(build_dir / SHIM_DIR)
        nvcc_cmd += ["-isystem", str(shim)]
        cxx_cmd += ["-isystem", str(shim)]
    return BuildPlan(cpp_source=cpp, cuda_source=cuda, cxx=cxx_cmd, nvcc=nvcc_cmd)


def _capture_jit_compile(cpp_extension: Any, **call: Any) -> dict[str, Any]:
    """Run torch's load_inline up to (not into) its build; return `_jit_compile`'s arguments."""
    original_jit = cpp_extension._jit_compile
    load_inline = getattr(cpp_extension, "_original_load_inline", cpp_extension.load_inline)
    captured: dict[str, Any] = {}

    def capture(*a: Any, **kw: Any) -> None:
        captured.update(inspect.signature(original_jit).bind(*a, **kw).arguments)
        raise _StopBeforeBuild

    cpp_extension._jit_compile = capture
    try:
        load_inline(**call)
    except _StopBeforeBuild:
        pass
    finally:
        cpp_extension._jit_compile = original_jit
    if "sources" not in captured:
        raise RuntimeError("torch's load_inline did not reach its build step")
    return captured


def _has_generated_headers(cpp_extension: Any) -> bool:
    root = Path(cpp_extension.include_paths()[0])
    return all((root / rel).is_file() for rel in GENERATED_TORCH_HEADERS)


def _write_generated_headers(root: Path) -> Path:
    for rel, text in GENERATED_TORCH_HEADERS.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def explain_missing_headers(log_text: str) -> str:
    """A note for compile logs that failed on a CUDA library header this toolkit lacks."""
    missing = sorted(
        {h for h in _MISSING_HEADER.findall(log_text) if h.startswith(TOOLKIT_LIBRARY_HEADERS)}
    )
    if not missing:
        return ""
    return (
        f"note: {', '.join(missing)} belong(s) to the CUDA toolkit's math libraries, which this "
        "machine's toolkit does not include; the source may compile where they are installed. "
        "<ATen/cuda/CUDAContext.h> pulls in cuBLAS/cuSPARSE/cuSOLVER headers: for the current "
        "stream alone, include <c10/cuda/CUDAStream.h> and call "
        "c10::cuda::getCurrentCUDAStream()."
    )


def _ninja_variables(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in text.splitlines():
        if line and not line[0].isspace() and " = " in line:
            key, value = line.split(" = ", 1)
            out[key.strip()] = value.strip()
    return out


# ---------------------------------------------------------------------------------------
# The BuildCache hook


@dataclass(frozen=True)
class CompileOnly:
    """BuildCache compile-only hook: nvcc -c for the target, ptxas figures, outcome cached."""

    arch: str  # e.g. "sm_90a" (the flags themselves come from TORCH_CUDA_ARCH_LIST)
    syntax_check_bindings: bool = True

    def __call__(self, build_dir: Path, args: dict[str, Any]) -> None:
        outcome = build_dir / OUTCOME_FILE
        if outcome.is_file():
            _replay(json.loads(outcome.read_text()))
        start = time.perf_counter()
        try:
            plan = plan_build(build_dir, args)
            record = self._compile(build_dir, plan)
        except BuildError as e:
            record = {"stage": "compile_failed", "log": e.log, "resources": {}}
        record["seconds"] = round(time.perf_counter() - start, 2)
        record["arch"] = self.arch
        tmp = outcome.with_suffix(".tmp")
        tmp.write_text(json.dumps(record, indent=1))
        os.replace(tmp, outcome)
        log.info(
            "compile-only %s: %s in %.1f s", build_dir.name, record["stage"], record["seconds"]
        )
        _replay(record)

    def _compile(self, build_dir: Path, plan: BuildPlan) -> dict[str, Any]:
        obj = build_dir / "cuda.cuda.o"
        nvcc_cmd = [*plan.nvcc, "-Xptxas", "-v", "-c", str(plan.cuda_source), "-o", str(obj)]
        procs = {"nvcc": _start(nvcc_cmd, build_dir)}
        if self.syntax_check_bindings:
            cxx_cmd = [*plan.cxx, "-fsyntax-only", str(plan.cpp_source)]
            procs["c++"] = _start(cxx_cmd, build_dir)
        outputs = {tool: p.communicate()[0] for tool, p in procs.items()}
        failed = [tool for tool, p in procs.items() if p.returncode != 0]
        if failed:
            parts = []
            for tool in failed:
                what = "cuda.cu" if tool == "nvcc" else "main.cpp (the pybind11 bindings)"
                parts.append(f"{tool} failed compiling {what}:\n{outputs[tool].strip()}")
            text = "\n\n".join(parts)
            note = explain_missing_headers(text)
            raise BuildError(trim_log(f"{note}\n\n{text}" if note else text))
        kernels = resource_usage.parse_ptxas_verbose(outputs["nvcc"])
        resources = resource_usage.summarize(kernels, source=f"ptxas -v ({self.arch})")
        resources["arch"] = self.arch
        return {"stage": "compiled", "log": trim_log(outputs["nvcc"]), "resources": resources}


def _start(cmd: list[str], cwd: Path) -> subprocess.Popen[str]:
    log.debug("running %s", shlex.join(cmd))
    return subprocess.Popen(
        cmd, cwd=str(cwd), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


def _replay(record: dict[str, Any]) -> None:
    if record["stage"] == "compiled":
        raise CompiledOnly(record["log"], record["resources"])
    raise BuildError(record["log"])
