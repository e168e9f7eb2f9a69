"""Runtime guard helpers used by the correctness loop (`harness/checks.py`) inside the worker.

Each function answers one question about a trial: does an output alias an input or a
parameter, did the candidate leave a Python thread running, what inputs make the "signed
and scaled" trial, and how to poison a reference output before its memory is released so a
candidate can never read it back from the allocator.
"""

from __future__ import annotations

import threading
from typing import Any

from kernelsearch.harness.correctness import flatten_outputs

SIGNED_SCALE = 3.0  # signed trial: floating inputs become randn * SIGNED_SCALE
SIGNED_DISTRIBUTION = f"randn*{SIGNED_SCALE:g} (signed, scaled)"
REPEAT_DISTRIBUTION = "repeat call, same input tensors refilled in place"
PERTURBED_DISTRIBUTION = "perturbed sizes"
NUDGE = 8.0  # repeat trial: one element grows by NUDGE x (1 + mean |x|)
POISON_INT = -123456789  # written into integer reference outputs before they are released


def tensors_in(xs: Any) -> list[Any]:
    import torch

    return [x for x in flatten_outputs(xs) if isinstance(x, torch.Tensor)]


def _storage_ptr(t: Any) -> int:
    try:
        return t.untyped_storage().data_ptr()
    except (RuntimeError, NotImplementedError):
        return 0


def aliases(outputs: Any, others: list[Any]) -> list[int]:
    """Indices of output tensors that share memory with any tensor in `others`."""
    taken = {_storage_ptr(t) for t in others if t.numel() > 0} - {0}
    return [
        i for i, t in enumerate(tensors_in(outputs)) if t.numel() > 0 and _storage_ptr(t) in taken
    ]


def module_tensors(model: Any) -> list[Any]:
    if model is None or not hasattr(model, "parameters"):
        return []
    return [p.data for p in model.parameters()] + list(model.buffers())


def poison(outputs: Any, keep: list[Any]) -> None:
    """Overwrite released reference outputs (NaN / a sentinel), except memory in `keep`."""
    import torch

    protected = {_storage_ptr(t) for t in keep} - {0}
    for t in tensors_in(outputs):
        if t.numel() == 0 or _storage_ptr(t) in protected:
            continue
        with torch.no_grad():
            if t.is_floating_point() or t.is_complex():
                t.fill_(float("nan"))
            elif t.dtype == torch.bool:
                t.fill_(True)
            else:
                t.fill_(POISON_INT if t.element_size() >= 4 else -1)


def signed_inputs(inputs: list[Any], seed: int) -> list[Any]:
    """Same shapes and dtypes; every floating tensor redrawn as randn * SIGNED_SCALE."""
    import torch

    gen = torch.Generator().manual_seed(seed)
    out = []
    for x in inputs:
        if isinstance(x, torch.Tensor) and x.is_floating_point():
            fresh = torch.randn(x.shape, generator=gen, dtype=torch.float32) * SIGNED_SCALE
            out.append(fresh.to(dtype=x.dtype, device=x.device))
        else:
            out.append(x)
    return out


def has_floating_inputs(inputs: list[Any]) -> bool:
    import torch

    return any(isinstance(x, torch.Tensor) and x.is_floating_point() for x in inputs)


def all_finite(outputs: Any) -> bool:
    import torch

    return all(bool(torch.isfinite(t).all()) for t in tensors_in(outputs) if t.is_floating_point())


def refill_in_place(targets: list[Any], sources: list[Any]) -> None:
    """Copy new values into the same tensor objects (same pointers, shapes and strides)."""
    import torch

    with torch.no_grad():
        for t, s in zip(targets, sources):
            if isinstance(t, torch.Tensor):
                t.copy_(s)


def nudge_one_element(inputs: list[Any], seed: int) -> bool:
    """Raise one element of the first floating input in place by NUDGE x (1 + mean |x|).

    Large enough that the element's outputs change (ReLU, max, sums); False if no floating
    contiguous input exists.
    """
    import torch

    gen = torch.Generator().manual_seed(seed)
    for x in inputs:
        if isinstance(x, torch.Tensor) and x.is_floating_point() and x.numel() > 0:
            flat = x.view(-1) if x.is_contiguous() else None
            if flat is None:
                return False
            i = int(torch.randint(x.numel(), (1,), generator=gen))
            with torch.no_grad():
                flat[i] += NUDGE * (1.0 + float(x.abs().mean()))
            return True
    return False


def python_threads() -> set[int]:
    return {t.ident for t in threading.enumerate() if t.ident is not None}


def snapshot_parameters(model: Any) -> list[Any]:
    if model is None or not hasattr(model, "parameters"):
        return []
    return [p.detach().clone() for p in model.parameters()]


def parameters_changed(model: Any, before: list[Any]) -> bool:
    import torch

    after = [p.detach() for p in model.parameters()] if hasattr(model, "parameters") else []
    return len(after) != len(before) or any(
        a.shape != b.shape or not torch.equal(a.nan_to_num(), b.nan_to_num())
        for a, b in zip(after, before)
    )
