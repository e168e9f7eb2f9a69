"""Level 2 fusion: Conv2d -> batch norm with fixed statistics (inference form) -> ReLU.

The norm is written with functional ops and explicit parameters/buffers, so the result does
not depend on train/eval mode.
H100 eager estimate (fp32): conv 2*64*128*128*128*64*9 = 155 GFLOP at ~30 TFLOP/s = 5.2 ms;
output 537 MB written, then read+written by the norm and by ReLU (~2.7 GB at ~2 TB/s =
1.3 ms). About 6.5 ms.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 64
in_channels = 64
out_channels = 128
height = 128
width = 128
kernel_size = 3
eps = 1e-5


class Model(nn.Module):
    """y = ReLU((conv(x) - running_mean) / sqrt(running_var + eps) * gamma + beta)"""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, eps: float):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        self.gamma = nn.Parameter(1.0 + 0.1 * torch.randn(out_channels))
        self.beta = nn.Parameter(0.1 * torch.randn(out_channels))
        self.register_buffer("running_mean", 0.1 * torch.randn(out_channels))
        self.register_buffer("running_var", 0.5 + torch.rand(out_channels))
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.conv(x)
        y = F.batch_norm(
            y, self.running_mean, self.running_var, self.gamma, self.beta, False, 0.0, self.eps
        )
        return F.relu(y)


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, eps]
