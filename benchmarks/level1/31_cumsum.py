# H100 estimate (eager): memory-bound. Read + write 196608*2048 fp32 = 3.22 GB moved
# at ~2.5 TB/s -> ~1.3 ms.
"""Level 1: inclusive prefix sum (cumsum) along 2048-long rows.

Inputs are uniform [0, 1): running sums of signed inputs cross zero, where fp32 rounding
of a long scan nears atol=1e-4 and fails correct kernels; positive sums keep the check
relative."""

import torch
import torch.nn as nn

BATCH = 196608
DIM = 2048
SCAN_DIM = 1


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cumsum(x, dim=self.dim)


def get_inputs():
    return [torch.rand(BATCH, DIM)]


def get_init_inputs():
    return [SCAN_DIM]
