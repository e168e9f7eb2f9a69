# H100 estimate (eager): memory-bound. Read + write 64*96*256*256 fp32 = 3.22 GB moved
# at ~2.5 TB/s -> ~1.3 ms (per-channel statistics are tiny).
"""Level 1: BatchNorm2d in inference form: fixed running statistics plus affine, so the
result does not depend on the batch."""

import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 64
CHANNELS = 96
HEIGHT = 256
WIDTH = 256
EPS = 1e-5


class Model(nn.Module):
    def __init__(self, channels: int, eps: float):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(channels))
        self.bias = nn.Parameter(0.1 * torch.randn(channels))
        self.register_buffer("running_mean", 0.5 * torch.randn(channels))
        self.register_buffer("running_var", 0.5 + torch.rand(channels))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.batch_norm(
            x,
            self.running_mean,
            self.running_var,
            self.weight,
            self.bias,
            training=False,
            eps=self.eps,
        )


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH)]


def get_init_inputs():
    return [CHANNELS, EPS]
