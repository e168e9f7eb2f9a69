# H100 estimate (eager): compute-bound. 2*(8*256*256)*256*512 = 137 GFLOP at ~40 TFLOP/s
# -> ~3.4 ms. Memory: 537 MB input, 1.07 GB output.
"""Level 1: 4D tensor times matrix over the last axis: out[b,i,j,k] = sum_l A[b,i,j,l] B[l,k]."""

import math

import torch
import torch.nn as nn

BATCH = 8
DIM_I = 256
DIM_J = 256
DIM_L = 256
DIM_K = 512


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.einsum("bijl,lk->bijk", a, b)


# Inputs are scaled by 1/sqrt(DIM_L) so outputs are O(1): with unit-normal operands the fp32
# rounding of a DIM_L-long accumulation would approach atol=1e-4 on near-zero outputs and fail
# correct kernels. A TF32/half-precision kernel still misses the tolerance by ~5-10x.
def get_inputs():
    a = torch.randn(BATCH, DIM_I, DIM_J, DIM_L) / math.sqrt(DIM_L)
    return [a, torch.randn(DIM_L, DIM_K)]


def get_init_inputs():
    return []
