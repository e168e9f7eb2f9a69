# H100 estimate (eager): memory-bound. Reading the 8192x98304 fp32 matrix = 3.22 GB at
# ~2.5 TB/s -> ~1.3 ms (only 1.6 GFLOP of compute).
"""Level 1: matrix-vector product, (M, K) @ (K, 1)."""

import math

import torch
import torch.nn as nn

M = 8192
K = 98304


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        return torch.matmul(a, v)


# Inputs are scaled by 1/sqrt(K) so outputs are O(1): with unit-normal operands the fp32
# rounding of a K-long accumulation would approach atol=1e-4 on near-zero outputs and fail
# correct kernels. A TF32/half-precision kernel still misses the tolerance by ~5-10x.
def get_inputs():
    return [torch.randn(M, K) / math.sqrt(K), torch.randn(K, 1)]


def get_init_inputs():
    return []
