# H100 estimate (eager): compute-bound. 2*128*512*1024*512 = 68.7 GFLOP at ~40 TFLOP/s
# -> ~1.7 ms. Memory: 2 * 268 MB inputs + 134 MB output.
"""Level 1: batched matrix multiply, (B, M, K) @ (B, K, N) with torch.bmm."""

import math

import torch
import torch.nn as nn

BATCH = 128
M = 512
K = 1024
N = 512


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.bmm(a, b)


# Inputs are scaled by 1/sqrt(K) so outputs are O(1): with unit-normal operands the fp32
# rounding of a K-long accumulation would approach atol=1e-4 on near-zero outputs and fail
# correct kernels. A TF32/half-precision kernel still misses the tolerance by ~5-10x.
def get_inputs():
    return [torch.randn(BATCH, M, K) / math.sqrt(K), torch.randn(BATCH, K, N)]


def get_init_inputs():
    return []
