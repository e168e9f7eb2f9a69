"""The torch-op policy: which PyTorch (aten) ops `ModelNew.forward` may run besides its kernels.

Strict (the default): allocation and initialisation, views and reshapes, `contiguous`, and
copies that keep the dtype. Everything else is compute that the task asks the kernel to do, so
it is an `error` naming the op. Opted in (`EvalConfig.allow_torch_ops` or the task manifest's
`allow_torch_ops`), those ops become `warning`s and are recorded with their share of the FLOPs.
Static and runtime guards both read this module, so they agree on what is allowed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kernelsearch.result import Severity

# aten ops (overload packet names) that allocate or initialise memory.
ALLOCATION_OPS = frozenset(
    {
        "empty",
        "empty_like",
        "empty_strided",
        "empty_permuted",
        "new_empty",
        "new_empty_strided",
        "zeros",
        "zeros_like",
        "new_zeros",
        "ones",
        "ones_like",
        "new_ones",
        "full",
        "full_like",
        "new_full",
        "fill",
        "fill_",
        "zero",
        "zero_",
        "resize_",
        "resize_as_",
        "scalar_tensor",
        "arange",
        "lift_fresh",
        "lift_fresh_copy",
        "record_stream",
    }
)
# aten ops that only reinterpret memory (views, reshapes, metadata).
VIEW_OPS = frozenset(
    {
        "alias",
        "detach",
        "detach_",
        "view",
        "_unsafe_view",
        "reshape",
        "_reshape_alias",
        "as_strided",
        "expand",
        "expand_as",
        "permute",
        "transpose",
        "transpose_",
        "t",
        "t_",
        "unsqueeze",
        "unsqueeze_",
        "squeeze",
        "squeeze_",
        "flatten",
        "unflatten",
        "select",
        "slice",
        "narrow",
        "split",
        "split_with_sizes",
        "chunk",
        "unbind",
        "view_as",
        "movedim",
        "diagonal",
        "unfold",
        "view_as_real",
        "view_as_complex",
        "contiguous",
        "_local_scalar_dense",
        "item",
        "is_same_size",
        "sym_size",
        "sym_stride",
        "sym_numel",
        "sym_storage_offset",
        "set_",
    }
)
# aten ops that copy memory; allowed only when the dtype stays the same.
COPY_OPS = frozenset({"clone", "copy_", "_to_copy", "to", "_copy_from", "_copy_from_and_resize"})

# Namespaces of PyTorch's own ops; an op from any other namespace is a custom kernel
# (e.g. one registered with TORCH_LIBRARY by the candidate's extension).
TORCH_NAMESPACES = frozenset({"aten", "prim", "prims", "profiler", "_c10d_functional", "c10d"})

# Python-level names a static check may treat as allowed (torch.X / tensor.X calls).
STATIC_ALLOWED_TORCH = ALLOCATION_OPS | VIEW_OPS | COPY_OPS | {"tensor", "as_tensor", "Size"}


@dataclass(frozen=True)
class Policy:
    """Whether PyTorch compute ops are allowed in `forward` (as warnings) or rejected."""

    allow_torch_ops: bool = False

    @property
    def severity(self) -> Severity:
        """Severity of one PyTorch compute op in forward under this policy."""
        return Severity.WARNING if self.allow_torch_ops else Severity.ERROR

    @property
    def name(self) -> str:
        return "allow-torch-ops" if self.allow_torch_ops else "strict"


def _dtype_of(x: Any) -> Any:
    return getattr(x, "dtype", None)


def dtype_change(op: str, args: tuple[Any, ...], kwargs: dict[str, Any], out: Any) -> str | None:
    """For a copy op, "float32->float16" when it changes the dtype; None when it keeps it."""
    if op == "copy_" and len(args) >= 2:
        src, dst = _dtype_of(args[1]), _dtype_of(args[0])
    else:
        src, dst = _dtype_of(args[0]) if args else None, _dtype_of(out)
    if src is None or dst is None or src == dst:
        return None
    return f"{str(src).replace('torch.', '')}->{str(dst).replace('torch.', '')}"


def classify(
    namespace: str, op: str, args: tuple[Any, ...], kwargs: dict[str, Any], out: Any
) -> str:
    """One dispatched op: "custom" (a kernel), "allowed", or "compute" (policy-governed)."""
    if namespace not in TORCH_NAMESPACES:
        return "custom"
    if op in ALLOCATION_OPS or op in VIEW_OPS:
        return "allowed"
    if op in COPY_OPS:
        return "compute" if dtype_change(op, args, kwargs, out) else "allowed"
    return "compute"
