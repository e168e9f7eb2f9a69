"""Compare a candidate's output with the reference's: shapes, dtypes, allclose, and figures."""

from __future__ import annotations

from typing import Any

from kernelsearch.config import DEFAULT_TOLERANCE
from kernelsearch.result import Mismatch


def flatten_outputs(out: Any) -> list[Any]:
    if isinstance(out, (list, tuple)):
        return [x for item in out for x in flatten_outputs(item)]
    return [out]


def tolerance_for(dtype: Any, atol: float | None, rtol: float | None) -> tuple[float, float]:
    name = str(dtype).replace("torch.", "")
    default = DEFAULT_TOLERANCE.get(name, 1e-4)
    return (default if atol is None else atol, default if rtol is None else rtol)


def compare(
    ref: Any,
    out: Any,
    *,
    atol: float | None,
    rtol: float | None,
    trial: int,
    distribution: str,
    atol_scale: float = 1.0,
) -> Mismatch | None:
    """None when `out` matches `ref` on every output tensor; otherwise the first mismatch.
    `atol_scale` multiplies the absolute tolerance (for inputs scaled beyond the task's own)."""
    import torch

    refs, outs = flatten_outputs(ref), flatten_outputs(out)
    if len(refs) != len(outs):
        return Mismatch(
            trial=trial,
            distribution=distribution,
            reason=f"expected {len(refs)} output tensor(s), got {len(outs)}",
        )
    for r, o in zip(refs, outs):
        if not isinstance(r, torch.Tensor):
            if r != o:
                return Mismatch(
                    trial=trial,
                    distribution=distribution,
                    reason=f"non-tensor output differs: expected {r!r}, got {o!r}",
                )
            continue
        if not isinstance(o, torch.Tensor):
            return Mismatch(
                trial=trial,
                distribution=distribution,
                reason=f"expected a tensor, got {type(o).__name__}",
            )
        if tuple(o.shape) != tuple(r.shape):
            return Mismatch(
                trial=trial,
                distribution=distribution,
                shape_expected=list(r.shape),
                shape_got=list(o.shape),
                reason="shape mismatch",
            )
        if o.dtype != r.dtype:
            return Mismatch(
                trial=trial,
                distribution=distribution,
                dtype_expected=str(r.dtype),
                dtype_got=str(o.dtype),
                reason="dtype mismatch",
            )
        a, rt = tolerance_for(r.dtype, atol, rtol)
        mismatch = _numeric(r.detach(), o.detach(), a * atol_scale, rt, trial, distribution)
        if mismatch is not None:
            return mismatch
    return None


def output_magnitude(out: Any) -> float:
    """Mean absolute value over the floating output tensors (0.0 when there are none)."""
    import torch

    values = [
        t.detach().to("cpu", torch.float64).abs().mean().item()
        for t in flatten_outputs(out)
        if isinstance(t, torch.Tensor) and t.is_floating_point() and t.numel()
    ]
    return sum(values) / len(values) if values else 0.0


def _numeric(r: Any, o: Any, atol: float, rtol: float, trial: int, dist: str) -> Mismatch | None:
    import torch

    r64, o64 = r.to("cpu", torch.float64), o.to("cpu", torch.float64)
    close = torch.isclose(o64, r64, atol=atol, rtol=rtol, equal_nan=True)
    if bool(close.all()):
        return None
    diff = (o64 - r64).abs()
    finite = torch.isfinite(diff)
    bad = (~close).nonzero()
    first = [int(i) for i in bad[0].tolist()] if len(bad) else None
    return Mismatch(
        trial=trial,
        distribution=dist,
        max_abs_diff=float(diff[finite].max()) if bool(finite.any()) else float("inf"),
        mean_abs_diff=float(diff[finite].mean()) if bool(finite.any()) else float("inf"),
        bad_fraction=float((~close).sum()) / max(1, close.numel()),
        first_bad_index=first,
        has_nan=bool(torch.isnan(o64).any()),
        has_inf=bool(torch.isinf(o64).any()),
        reason=f"values differ beyond atol={atol:g}, rtol={rtol:g}",
    )
