"""Task facts on PyTorch's meta device: shapes, dtypes, parameters, FLOPs, bytes.

Nothing is materialised, so a task whose inputs total many GB is inspected in milliseconds.
"""

from __future__ import annotations

from typing import Any


def _nbytes(t: Any) -> int:
    return t.numel() * t.element_size()


def _describe(x: Any) -> dict[str, Any]:
    import torch

    if isinstance(x, torch.Tensor):
        return {"shape": list(x.shape), "dtype": str(x.dtype).replace("torch.", "")}
    return {"value": repr(x)[:60]}


def inspect_task_module(module: Any) -> dict[str, Any]:
    import torch
    from torch.utils.flop_counter import FlopCounterMode

    with torch.device("meta"):
        init = list(module.get_init_inputs())
        torch.manual_seed(0)
        model = module.Model(*init)
        inputs = list(module.get_inputs())
        inputs = [x.to("meta") if isinstance(x, torch.Tensor) else x for x in inputs]
        counter = FlopCounterMode(display=False)
        with counter, torch.no_grad():
            out = model(*inputs)
    outs = out if isinstance(out, (list, tuple)) else [out]
    tensors_in = [x for x in inputs if isinstance(x, torch.Tensor)]
    tensors_out = [x for x in outs if isinstance(x, torch.Tensor)]
    params = list(model.parameters()) + list(model.buffers())
    bytes_moved = sum(map(_nbytes, tensors_in + tensors_out + params))
    dtypes = {str(t.dtype).replace("torch.", "") for t in tensors_in + tensors_out}
    return {
        "inputs": [_describe(x) for x in inputs],
        "outputs": [_describe(x) for x in outs],
        "parameters": sum(p.numel() for p in model.parameters()),
        "flops": float(counter.get_total_flops()),
        "bytes": float(bytes_moved),
        "dtype": sorted(dtypes)[0] if len(dtypes) == 1 else ",".join(sorted(dtypes)),
    }
