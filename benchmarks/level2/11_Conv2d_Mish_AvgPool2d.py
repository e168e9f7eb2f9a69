"""Level 2 fusion: Conv2d -> Mish -> 2x2 average pooling.

H100 eager estimate (fp32): conv 2*64*64*128*128*32*9 = 38.7 GFLOP at ~30 TFLOP/s = 1.3 ms;
268 MB conv output written, read+written by Mish, read by the pool (~0.9 GB at ~2 TB/s =
0.45 ms). About 2 ms.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 64
in_channels = 32
out_channels = 64
height = 128
width = 128
kernel_size = 3
pool_size = 2


class Model(nn.Module):
    """y = avg_pool2d(mish(conv(x)), pool_size)"""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, pool_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        self.pool_size = pool_size

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.avg_pool2d(F.mish(self.conv(x)), self.pool_size)


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, pool_size]
