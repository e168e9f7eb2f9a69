# H100 estimate (eager): compute-bound. 2*16384*16384*128 = 68.7 GFLOP at ~40 TFLOP/s
# -> ~1.7 ms; writing the 16384x16384 fp32 output (1.07 GB) alone takes ~0.43 ms.
"""Level 1: tall-skinny matrix multiply, (M, K) @ (K, N) with a small inner dimension K."""

import math

import torch
import torch.nn as nn

M = 16384
K = 128
N = 16384


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.matmul(a, b)


# Inputs are scaled by 1/sqrt(K) so outputs are O(1): with unit-normal operands the fp32
# rounding of a K-long accumulation would approach atol=1e-4 on near-zero outputs and fail
# correct kernels. A TF32/half-precision kernel still misses the tolerance by ~5-10x.
def get_inputs():
    return [torch.randn(M, K) / math.sqrt(K), torch.randn(K, N)]


def get_init_inputs():
    return []
