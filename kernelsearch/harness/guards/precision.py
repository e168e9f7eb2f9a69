"""Precision guards: is the kernel's error in line with what eager PyTorch shows at the dtype?

The reference runs once more in float64. Eager PyTorch's own error at the task's dtype
(against that float64 output) says what the dtype costs; a kernel whose error is far above
it (`PRECISION_FACTOR` times, and above `PRECISION_FLOOR_ULPS` units of the dtype's epsilon)
computed in a lower precision somewhere: fp16/bf16 intermediates, TF32 matmuls, fast-math
intrinsics. Errors are normalised by the output's mean magnitude so they read as "ulps".

A second, task-quality check: when an all-zeros output would pass the tolerance, the task
cannot tell a kernel that computes from one that does nothing.
"""

from __future__ import annotations

import copy
import logging
from dataclasses import dataclass
from typing import Any

from kernelsearch.harness.correctness import flatten_outputs, tolerance_for
from kernelsearch.result import Flag, Severity

log = logging.getLogger(__name__)

PRECISION_FACTOR = 50.0  # kernel error / eager error above this ...
PRECISION_FLOOR_ULPS = 256.0  # ... and above this many epsilons of the dtype -> downgrade
TINY = 1e-30


@dataclass(frozen=True)
class PrecisionFigures:
    """Mean relative errors against float64, in units of the output dtype's epsilon."""

    dtype: str
    eager_ulps: float
    kernel_ulps: float

    @property
    def ratio(self) -> float:
        return self.kernel_ulps / max(self.eager_ulps, TINY)

    def downgraded(self) -> bool:
        return self.kernel_ulps > PRECISION_FLOOR_ULPS and self.ratio > PRECISION_FACTOR

    def to_dict(self) -> dict[str, Any]:
        return {
            "dtype": self.dtype,
            "eager_ulps": self.eager_ulps,
            "kernel_ulps": self.kernel_ulps,
            "ratio": self.ratio,
        }


def _as_float64(x: Any) -> Any:
    import torch

    if isinstance(x, torch.Tensor) and x.is_floating_point():
        return x.detach().to(torch.float64)
    return x


def float64_reference(ref_model: Any, inputs: list[Any]) -> Any | None:
    """The reference output computed in float64, or None when the model cannot run so."""
    import torch

    try:
        model = copy.deepcopy(ref_model).to(torch.float64)
        with torch.no_grad():
            return model(*[_as_float64(x) for x in inputs])
    except Exception:  # noqa: BLE001 - some ops have no float64 kernel; then skip the check
        log.debug("float64 reference failed; precision check skipped", exc_info=True)
        return None


def _mean_rel_error(out: Any, exact: Any) -> float:
    import torch

    o = out.detach().to("cpu", torch.float64)
    e = exact.detach().to("cpu", torch.float64)
    finite = torch.isfinite(e) & torch.isfinite(o)
    if not bool(finite.any()):
        return 0.0
    scale = float(e[finite].abs().mean()) + TINY
    return float((o[finite] - e[finite]).abs().mean()) / scale


def figures(ref: Any, out: Any, exact: Any) -> PrecisionFigures | None:
    """Worst (by ratio) figures over floating output tensors; None when there are none."""
    import torch

    worst: PrecisionFigures | None = None
    for r, o, e in zip(flatten_outputs(ref), flatten_outputs(out), flatten_outputs(exact)):
        if not all(isinstance(t, torch.Tensor) for t in (r, o, e)) or not r.is_floating_point():
            continue
        if o.shape != r.shape or e.shape != r.shape:
            continue
        eps = torch.finfo(r.dtype).eps
        f = PrecisionFigures(
            dtype=str(r.dtype).replace("torch.", ""),
            eager_ulps=_mean_rel_error(r, e) / eps,
            kernel_ulps=_mean_rel_error(o, e) / eps,
        )
        if worst is None or f.ratio > worst.ratio:
            worst = f
    return worst


def precision_flag(f: PrecisionFigures | None) -> Flag | None:
    if f is None or not f.downgraded():
        return None
    return Flag(
        "precision_downgrade",
        Severity.ERROR,
        f"mean error vs a float64 reference is {f.kernel_ulps:.0f} ulps of {f.dtype}, "
        f"{f.ratio:.0f}x eager PyTorch's {f.eager_ulps:.1f} ulps: the kernel computes in a "
        "lower precision (fp16/bf16 intermediates, TF32, fast-math); keep the task's dtype",
    )


def zeros_pass_flag(ref: Any, atol: float | None, rtol: float | None) -> Flag | None:
    """A task-quality warning when an all-zeros output would pass the tolerance."""
    import torch

    tensors = [t for t in flatten_outputs(ref) if isinstance(t, torch.Tensor)]
    floating = [t for t in tensors if t.is_floating_point() and t.numel() > 0]
    if not floating:
        return None
    for t in floating:
        a, r = tolerance_for(t.dtype, atol, rtol)
        t64 = t.detach().to("cpu", torch.float64)
        if not bool(torch.isclose(torch.zeros_like(t64), t64, atol=a, rtol=r).all()):
            return None
    return Flag(
        "task_output_near_zero",
        Severity.WARNING,
        "the reference output is so small that an all-zeros output passes the tolerance; "
        "this task cannot tell a working kernel from one that does nothing (task quality)",
    )
