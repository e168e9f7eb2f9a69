"""Triton launches, observed: ahead-of-time compiles for a target GPU, and compiled-kernel facts.

Without a GPU the candidate runs under the Triton interpreter (`TRITON_INTERPRET=1`), where
`@triton.jit` returns an `InterpretedFunction`. `InterpreterRecorder` wraps its launch and
keeps, for the first launch of each kernel, the argument types (dtype and alignment of each
tensor), scalar values, constexpr values and launch options. `compile_recorded` then compiles
those kernels for the target architecture with the real compiler
(`triton.compile(ASTSource(...), target=GPUTarget(...))`) in a clean child process: the
interpreter patches triton.language while it runs, so compiling in the same process is not
reliable. The child re-imports the candidate file without the interpreter. Compile errors
come back as text; register, shared- and local-memory figures come from the cubin.

On a GPU, `JitRecorder` wraps `JITFunction.run` to keep each kernel's first compiled kernel
(registers and spills as the driver reports them) and any compile error.

Signatures, specialisation (alignment, 1-valued ints) and options are built with Triton's
own binder and `_pack_args`, as a real launch builds them; checked against Triton 3.6 and 3.9.
"""

from __future__ import annotations

import logging
import os
import tempfile
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kernelsearch.backends import resource_usage
from kernelsearch.backends.arch import parse_arch

log = logging.getLogger(__name__)

WARP_SIZE = 32
COMPILE_LOG_CHARS = 8000


@dataclass
class KernelRecord:
    """What was learned about one @triton.jit kernel from its first launch."""

    name: str
    resources: dict[str, Any] = field(default_factory=dict)
    error: str = ""


@dataclass
class Recorder:
    records: dict[str, KernelRecord] = field(default_factory=dict)

    @property
    def compile_errors(self) -> list[KernelRecord]:
        return [r for r in self.records.values() if r.error]

    def resources(self, source: str) -> dict[str, Any]:
        ok = [r for r in self.records.values() if r.resources]
        if not ok:
            return {}
        per_kernel = [r.resources for r in ok]
        out: dict[str, Any] = {
            "resource_source": source,
            "registers": max(k["registers"] for k in per_kernel),
            "shared_mem_bytes": max(k["shared_mem_bytes"] for k in per_kernel),
            "stack_bytes": max(k["stack_bytes"] for k in per_kernel),
            "spills": max(k["spills"] for k in per_kernel),
            "threads_per_block": max(k["threads_per_block"] for k in per_kernel),
            "kernels": per_kernel,
        }
        return out


def _short_error(exc: BaseException) -> str:
    text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    return text if len(text) <= COMPILE_LOG_CHARS else text[:COMPILE_LOG_CHARS] + "\n[...]"


# ---------------------------------------------------------------------------------------
# Ahead-of-time compiles (no GPU)


def gpu_target(arch: str) -> Any:
    """`sm_90a` -> GPUTarget("cuda", 90, 32)."""
    from triton.backends.compiler import GPUTarget

    return GPUTarget("cuda", parse_arch(arch).capability, WARP_SIZE)


def compile_for_target(fn: Any, target: Any, args: tuple, kwargs: dict[str, Any]) -> Any:
    """Compile a JITFunction for `target` exactly as a launch with (args, kwargs) would."""
    import triton
    from triton.compiler import ASTSource, make_backend
    from triton.runtime.jit import create_function_from_signature

    backend = make_backend(target)
    binder = create_function_from_signature(fn.signature, fn.params, backend)
    bound_args, specialization, options = binder(*args, **kwargs)
    options, signature, constexprs, attrs = fn._pack_args(
        backend, kwargs, bound_args, specialization, options
    )
    source = ASTSource(fn, signature, constexprs, attrs)
    return triton.compile(source, target=target, options=options.__dict__)


def cubin_resources(kernel: Any, arch: str) -> dict[str, Any]:
    """Registers, shared and local memory of a compiled kernel, read from its cubin."""
    from kernelsearch.backends.nvcc import cuobjdump_resources

    cubin = kernel.asm.get("cubin")
    metadata = kernel.metadata
    figures: dict[str, Any] = {
        "name": metadata.name,
        "registers": 0,
        "shared_mem_bytes": int(getattr(metadata, "shared", 0) or 0),
        "stack_bytes": 0,
        "spills": 0,
        "threads_per_block": int(metadata.num_warps) * WARP_SIZE,
        "num_warps": int(metadata.num_warps),
        "num_stages": int(metadata.num_stages),
        "arch": arch,
    }
    if cubin:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "kernel.cubin"
            path.write_bytes(cubin)
            kernels: list[resource_usage.KernelResources] = cuobjdump_resources(path)
        if kernels:
            k = kernels[0]
            figures["registers"] = k.registers
            figures["shared_mem_bytes"] = max(figures["shared_mem_bytes"], k.shared_mem_bytes)
            figures["stack_bytes"] = k.stack_bytes
            figures["spills"] = k.stack_bytes // 4  # Triton's n_spills: local bytes / 4
    return figures


# ---- launch specs: what a child process needs to rebuild a launch's argument types ----


def _spec(value: Any) -> Any:
    """A JSON description of one launch argument (tensors by dtype and 16-byte alignment)."""
    if hasattr(value, "data_ptr") and hasattr(value, "dtype"):
        return {
            "tensor": str(value.dtype).replace("torch.", ""),
            "aligned": value.data_ptr() % 16 == 0,
        }
    if value is None or isinstance(value, (bool, int, float, str)):
        return {"value": value}
    if isinstance(value, tuple):
        return {"tuple": [_spec(v) for v in value]}
    if type(value).__name__ == "dtype" and type(value).__module__.startswith("triton"):
        return {"tl_dtype": str(value)}
    if type(value).__name__ == "constexpr":
        return _spec(value.value)
    raise TypeError(f"cannot describe a launch argument of type {type(value).__name__}")


def _rebuild(spec: dict[str, Any]) -> Any:
    import torch

    if "tensor" in spec:
        dtype = getattr(torch, spec["tensor"])
        base = torch.empty(64, dtype=dtype)
        return base if spec["aligned"] else base[1:]
    if "tuple" in spec:
        return tuple(_rebuild(s) for s in spec["tuple"])
    if "tl_dtype" in spec:
        import triton.language as tl

        return getattr(tl, spec["tl_dtype"])
    return spec["value"]


@dataclass
class LaunchSpec:
    module_file: str
    qualname: str
    args: list[Any]
    kwargs: dict[str, Any]


@dataclass
class InterpreterRecorder(Recorder):
    """Record the first launch of each interpreted kernel; compile them later for the target."""

    arch: str = "sm_90a"
    compile_timeout_s: float = 60.0
    launches: dict[str, LaunchSpec] = field(default_factory=dict)

    def install(self) -> InterpreterRecorder:
        from triton.runtime.interpreter import InterpretedFunction

        original = InterpretedFunction.run
        recorder = self

        def run(interp: Any, *args: Any, grid: Any, warmup: bool, **kwargs: Any) -> Any:
            from torch.utils._python_dispatch import _disable_current_modes

            if not warmup:
                recorder.first_launch(interp, args, kwargs)
            # The interpreter emulates the device with host tensor ops (copies, set_, ...):
            # they are the kernel, not PyTorch compute in forward, so dispatch-level tracing
            # (the torch-op guard) must not see them.
            with _disable_current_modes():
                return original(interp, *args, grid=grid, warmup=warmup, **kwargs)

        InterpretedFunction.run = run  # type: ignore[method-assign]
        return self

    def first_launch(self, interp: Any, args: tuple, kwargs: dict[str, Any]) -> None:
        import inspect

        fn = interp.fn
        key = f"{fn.__module__}.{fn.__qualname__}"
        if key in self.records:
            return
        self.records[key] = KernelRecord(name=fn.__name__)
        try:
            self.launches[key] = LaunchSpec(
                module_file=inspect.getsourcefile(fn) or "",
                qualname=fn.__qualname__,
                args=[_spec(a) for a in args],
                kwargs={k: _spec(v) for k, v in kwargs.items()},
            )
        except TypeError as e:
            log.info("no AOT compile for %s: %s", key, e)

    def compile_recorded(self, timeout_s: float) -> None:
        """Compile every recorded launch for the target in a clean child process."""
        import json
        import subprocess
        import sys

        if not self.launches:
            return
        request = {
            "arch": self.arch,
            "launches": {k: vars(v) for k, v in self.launches.items()},
        }
        env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
        try:
            proc = subprocess.run(
                [sys.executable, "-m", __name__],
                input=json.dumps(request),
                capture_output=True,
                text=True,
                timeout=timeout_s,
                env=env,
            )
        except subprocess.TimeoutExpired:
            for key in self.launches:
                self.records[key].error = f"AOT compile exceeded {timeout_s:.0f} s"
            return
        try:
            answers = json.loads(proc.stdout.strip().splitlines()[-1])
        except (json.JSONDecodeError, IndexError):
            log.warning("triton AOT child failed: %s", proc.stderr[-2000:])
            return
        for key, answer in answers.items():
            self.records[key].resources = answer.get("resources") or {}
            self.records[key].error = answer.get("error", "")
        self.launches.clear()


def _compile_in_child(request: dict[str, Any]) -> dict[str, Any]:
    """Child side: import the candidate without the interpreter and compile each launch."""
    import importlib.util

    from triton.runtime.jit import JITFunction

    target = gpu_target(request["arch"])
    modules: dict[str, Any] = {}
    answers: dict[str, Any] = {}
    for key, launch in request["launches"].items():
        try:
            path = launch["module_file"]
            if path not in modules:
                name = f"ks_aot_{len(modules)}"
                spec = importlib.util.spec_from_file_location(name, path)
                module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
                sys_modules_add(name, module)
                spec.loader.exec_module(module)  # type: ignore[union-attr]
                modules[path] = module
            fn: Any = modules[path]
            for part in launch["qualname"].split("."):
                fn = getattr(fn, part)
            while not isinstance(fn, JITFunction) and hasattr(fn, "fn"):
                fn = fn.fn  # autotune / heuristics wrappers
            args = tuple(_rebuild(a) for a in launch["args"])
            kwargs = {k: _rebuild(v) for k, v in launch["kwargs"].items()}
            kernel = compile_for_target(fn, target, args, kwargs)
            answers[key] = {"resources": cubin_resources(kernel, request["arch"])}
        except Exception as e:  # noqa: BLE001 - the candidate's compile error is data
            answers[key] = {"error": _short_error(e)}
    return answers


def sys_modules_add(name: str, module: Any) -> None:
    import sys

    sys.modules[name] = module


def main() -> None:
    import json
    import sys

    request = json.loads(sys.stdin.read())
    answers = _compile_in_child(request)
    sys.stdout.write("\n" + json.dumps(answers) + "\n")


# ---------------------------------------------------------------------------------------
# Real launches (GPU)


@dataclass
class JitRecorder(Recorder):
    """Keep each kernel's first compiled kernel and the first compile error of real launches."""

    def install(self) -> JitRecorder:
        from triton.runtime.jit import JITFunction

        original = JITFunction.run
        recorder = self

        def run(fn: Any, *args: Any, grid: Any, warmup: bool, **kwargs: Any) -> Any:
            try:
                kernel = original(fn, *args, grid=grid, warmup=warmup, **kwargs)
            except Exception as e:
                if _is_compile_error(e):
                    recorder.records.setdefault(
                        fn._fn_name if hasattr(fn, "_fn_name") else str(fn),
                        KernelRecord(name=fn.fn.__name__, error=_short_error(e)),
                    )
                raise
            recorder.first_kernel(fn, kernel)
            return kernel

        JITFunction.run = run  # type: ignore[method-assign]
        return self

    def first_kernel(self, fn: Any, kernel: Any) -> None:
        key = getattr(fn, "_fn_name", None) or repr(fn)
        if key in self.records or kernel is None or not hasattr(kernel, "metadata"):
            return
        metadata = kernel.metadata
        n_spills = int(getattr(kernel, "n_spills", 0) or 0)
        self.records[key] = KernelRecord(
            name=fn.fn.__name__,
            resources={
                "name": metadata.name,
                "registers": int(getattr(kernel, "n_regs", 0) or 0),
                "shared_mem_bytes": int(getattr(metadata, "shared", 0) or 0),
                "stack_bytes": n_spills * 4,
                "spills": n_spills,
                "threads_per_block": int(metadata.num_warps) * WARP_SIZE,
                "num_warps": int(metadata.num_warps),
                "num_stages": int(metadata.num_stages),
                "arch": f"sm_{metadata.target.arch}",
            },
        )


def _is_compile_error(exc: BaseException) -> bool:
    from triton.compiler.errors import CompilationError

    return isinstance(exc, CompilationError) or type(exc).__name__ in (
        "CompilationError",
        "CompileTimeAssertionFailure",
        "UnsupportedLanguageConstruct",
    )


if __name__ == "__main__":
    main()
