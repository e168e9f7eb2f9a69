# H100 estimate (eager): memory-bound. 2 tensors x 4096*98304 fp32 = 3.22 GB moved
# (read x, write out) at ~2.5 TB/s -> ~1.3 ms.
"""Level 1: hardtanh, clamping to [-1, 1] (signed normal inputs: about a third are clipped)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 4096
DIM = 98304


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.hardtanh(x, min_val=-1.0, max_val=1.0)


def get_inputs():
    return [torch.randn(BATCH, DIM)]


def get_init_inputs():
    return []
