# H100 estimate (eager): compute-bound. 2*4096^3 = 137 GFLOP at ~40 TFLOP/s fp32 (TF32 off)
# -> ~3.4 ms. Memory is only 3 * 67 MB.
"""Level 1: square matrix multiply, (N, N) @ (N, N)."""

import math

import torch
import torch.nn as nn

N = 4096


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.matmul(a, b)


# Inputs are scaled by 1/sqrt(K) so outputs are O(1): with unit-normal operands the fp32
# rounding of a K-long accumulation would approach atol=1e-4 on near-zero outputs and fail
# correct kernels. A TF32/half-precision kernel still misses the tolerance by ~5-10x.
def get_inputs():
    return [torch.randn(N, N) / math.sqrt(N), torch.randn(N, N)]


def get_init_inputs():
    return []
