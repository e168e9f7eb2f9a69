"""Level 2 fusion: Conv3d -> ReLU -> 2x2x2 max pooling.

H100 eager estimate (fp32): conv 2*16*32*32*64*64*16*27 = 58 GFLOP at ~30 TFLOP/s = 1.9 ms;
268 MB conv output written, read+written by ReLU, read by the pool (~0.8 GB at ~2 TB/s =
0.4 ms). About 2.5 ms.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 16
in_channels = 16
out_channels = 32
depth = 32
height = 64
width = 64
kernel_size = 3
pool_size = 2


class Model(nn.Module):
    """y = max_pool3d(ReLU(conv3d(x)), pool_size)"""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, pool_size: int):
        super().__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        self.pool_size = pool_size

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.max_pool3d(F.relu(self.conv(x)), self.pool_size)


def get_inputs():
    return [torch.randn(batch_size, in_channels, depth, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, pool_size]
