"""What actually ran in `forward`: a dispatcher-level op trace and a custom-kernel call count.

`OpTrace` is a `TorchDispatchMode`: it sees every aten op, including ops that a C++ extension
calls through the dispatcher (`at::matmul` inside a load_inline function), and attributes
FLOPs to them with PyTorch's own FLOP formulas. Extension functions themselves bypass the
dispatcher, so `KernelCounter` counts them by wrapping what `load_inline` returns; Triton
launches are counted by wrapping the JIT launch entry points (compiled and interpreted).
"""

from __future__ import annotations

import functools
import logging
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from kernelsearch.harness.guards.policy import classify, dtype_change

log = logging.getLogger(__name__)


@dataclass
class OpRecord:
    """Aggregate of one aten op in a trace."""

    calls: int = 0
    flops: float = 0.0
    detail: str = ""  # e.g. "float32->float16" for a dtype-changing copy


@dataclass
class TraceReport:
    """What one traced forward ran."""

    compute: dict[str, OpRecord] = field(default_factory=dict)  # policy-governed aten ops
    allowed: Counter = field(default_factory=Counter)  # allocation/view/copy ops
    custom_ops: Counter = field(default_factory=Counter)  # dispatcher ops outside aten
    total_flops: float = 0.0  # FLOPs PyTorch's formulas attribute to all traced ops

    @property
    def compute_flops(self) -> float:
        return sum(r.flops for r in self.compute.values())

    def describe_compute(self, limit: int = 6) -> str:
        """'aten.mm x1, aten.relu x2' - the compute ops, most-called first."""
        items = sorted(self.compute.items(), key=lambda kv: -kv[1].calls)
        parts = [
            f"aten.{op} x{r.calls}" + (f" ({r.detail})" if r.detail else "")
            for op, r in items[:limit]
        ]
        more = len(items) - limit
        return ", ".join(parts) + (f", and {more} more" if more > 0 else "")

    def to_dict(self, reference_flops: float | None) -> dict[str, Any]:
        share = None
        if reference_flops and reference_flops > 0:
            share = min(1.0, self.compute_flops / reference_flops)
        return {
            "ops": {
                f"aten.{op}": {"calls": r.calls, "flops": r.flops, "detail": r.detail}
                for op, r in sorted(self.compute.items())
            },
            "torch_flops": self.compute_flops,
            "reference_flops": reference_flops,
            "flop_share": share,
            "custom_ops": dict(self.custom_ops),
        }


def _flop_formulas() -> dict[Any, Any]:
    from torch.utils.flop_counter import flop_registry

    return flop_registry


def _make_mode() -> Any:
    """Build the TorchDispatchMode class lazily (torch is imported only inside workers)."""
    from torch.utils._python_dispatch import TorchDispatchMode

    class _OpTraceMode(TorchDispatchMode):
        def __init__(self, report: TraceReport):
            super().__init__()
            self.report = report
            self.formulas = _flop_formulas()

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # noqa: ANN001
            kwargs = kwargs or {}
            out = func(*args, **kwargs)
            if _LAUNCH_DEPTH[0] > 0:
                return out  # inside a Triton launch: the interpreter's own tensor plumbing
            try:
                self._record(func, args, kwargs, out)
            except Exception:  # noqa: BLE001 - never let bookkeeping break the kernel
                log.debug("op trace: could not record %s", func, exc_info=True)
            return out

        def _record(self, func: Any, args: tuple, kwargs: dict, out: Any) -> None:
            namespace = getattr(func, "namespace", "aten")
            op = func.overloadpacket.__name__
            flops = 0.0
            formula = self.formulas.get(func.overloadpacket)
            if formula is not None:
                flops = float(formula(*args, **kwargs, out_val=out))
            self.report.total_flops += flops
            kind = classify(namespace, op, args, kwargs, out)
            if kind == "custom":
                self.report.custom_ops[f"{namespace}.{op}"] += 1
            elif kind == "allowed":
                self.report.allowed[op] += 1
            else:
                record = self.report.compute.setdefault(op, OpRecord())
                record.calls += 1
                record.flops += flops
                record.detail = record.detail or (dtype_change(op, args, kwargs, out) or "")

    return _OpTraceMode


class OpTrace:
    """Context manager: `with OpTrace() as t: model(*x)`; then read `t.report`."""

    def __init__(self) -> None:
        self.report = TraceReport()
        self._mode = _make_mode()(self.report)

    def __enter__(self) -> OpTrace:
        self._mode.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self._mode.__exit__(*exc)


def count_flops(fn: Any) -> float:
    """FLOPs PyTorch's formulas attribute to everything `fn()` dispatches."""
    with OpTrace() as t:
        fn()
    return t.report.total_flops


# ---------------------------------------------------------------------------------------
# Custom-kernel call counting


class KernelCounter:
    """Counts custom-kernel calls: load_inline functions and Triton launches (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.calls = 0
        self.by_name: Counter = Counter()

    def hit(self, name: str) -> None:
        with self._lock:
            self.calls += 1
            self.by_name[name] += 1


_ACTIVE = KernelCounter()  # the counter the installed wrappers report to
_LAUNCH_DEPTH = [0]  # > 0 while a Triton kernel launch runs (its ops are not forward's)


def _hit(name: str) -> None:
    _ACTIVE.hit(name)


class CountingExtension:
    """Stands in for a load_inline module: every callable attribute counts its calls."""

    def __init__(self, module: Any):
        object.__setattr__(self, "_ks_module", module)
        object.__setattr__(self, "_ks_wrapped", {})

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._ks_module, name)
        if not callable(value) or name.startswith("__"):
            return value
        wrapped = self._ks_wrapped.get(name)
        if wrapped is None:
            wrapped = _counting(value, name)
            self._ks_wrapped[name] = wrapped
        return wrapped

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._ks_module, name, value)

    def __dir__(self) -> list[str]:
        return dir(self._ks_module)

    def __repr__(self) -> str:
        return f"<counted extension {self._ks_module!r}>"


def _counting(fn: Any, name: str) -> Any:
    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        _hit(name)
        return fn(*args, **kwargs)

    return call


def _wrap_load_inline() -> None:
    from torch.utils import cpp_extension

    current = cpp_extension.load_inline
    if getattr(current, "_ks_counting", False):
        return

    @functools.wraps(current)
    def load_inline(*args: Any, **kwargs: Any) -> Any:
        module = current(*args, **kwargs)
        return CountingExtension(module)

    load_inline._ks_counting = True  # type: ignore[attr-defined]
    cpp_extension.load_inline = load_inline  # type: ignore[assignment]


def _wrap_triton() -> None:
    try:
        from triton.runtime import interpreter, jit
    except ImportError:  # no triton in this environment: nothing to count
        return
    for cls in (jit.JITFunction, interpreter.InterpretedFunction):
        run = cls.run
        if getattr(run, "_ks_counting", False):
            continue

        def counted_run(self: Any, *args: Any, _run: Any = run, **kwargs: Any) -> Any:
            if kwargs.get("warmup", False):
                return _run(self, *args, **kwargs)
            _hit(getattr(self, "__name__", None) or "triton_kernel")
            _LAUNCH_DEPTH[0] += 1
            try:
                return _run(self, *args, **kwargs)
            finally:
                _LAUNCH_DEPTH[0] -= 1

        counted_run._ks_counting = True  # type: ignore[attr-defined]
        cls.run = counted_run


def install_kernel_counter(backend: str) -> KernelCounter:
    """Count this process's custom-kernel calls; install before the candidate is imported."""
    global _ACTIVE
    _ACTIVE = KernelCounter()
    _wrap_load_inline()
    if backend == "triton":
        _wrap_triton()
    return _ACTIVE
