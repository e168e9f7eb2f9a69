# H100 estimate (eager): memory-bound. The written-out form runs ~5 kernels (square, mean,
# rsqrt, two multiplies) moving ~7 passes of 32*512*8192 fp32 (0.54 GB each) = 3.8 GB at
# ~2.5 TB/s -> ~1.5 ms. A fused kernel needs one read and one write (~0.43 ms).
"""Level 1: RMSNorm over the hidden dimension, written out with elementary ops."""

import torch
import torch.nn as nn

BATCH = 32
SEQ = 512
HIDDEN = 8192
EPS = 1e-6


class Model(nn.Module):
    def __init__(self, hidden: int, eps: float):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(hidden))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        rms = torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + self.eps)
        return x * rms * self.weight


def get_inputs():
    return [torch.randn(BATCH, SEQ, HIDDEN)]


def get_init_inputs():
    return [HIDDEN, EPS]
