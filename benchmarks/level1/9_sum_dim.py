# H100 estimate (eager): memory-bound. Read 640*256*4096 fp32 = 2.68 GB (the output is
# 256x smaller) at ~2.5 TB/s -> ~1.1 ms.
"""Level 1: sum over the middle dimension of a 3D tensor, keeping the reduced dim."""

import torch
import torch.nn as nn

BATCH = 640
DIM1 = 256
DIM2 = 4096
REDUCE_DIM = 1


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sum(x, dim=self.dim, keepdim=True)


# The reduced dim is kept at 256 so plain sequential fp32 accumulation (the natural kernel
# for a strided reduction) stays ~30x inside atol=1e-4 on near-zero sums of signed inputs.
def get_inputs():
    return [torch.randn(BATCH, DIM1, DIM2)]


def get_init_inputs():
    return [REDUCE_DIM]
