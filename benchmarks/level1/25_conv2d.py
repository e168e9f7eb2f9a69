# H100 estimate (eager): compute-bound. 2*16*128*256*256*64*3*3 = 155 GFLOP at ~40 TFLOP/s
# -> ~3.9 ms. Memory: 268 MB input, 537 MB output.
"""Level 1: standard 2D convolution, 3x3 kernel, stride 1, padding 1, with bias."""

import torch
import torch.nn as nn

BATCH = 16
IN_CHANNELS = 64
OUT_CHANNELS = 128
HEIGHT = 256
WIDTH = 256
KERNEL_SIZE = 3


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


def get_inputs():
    return [torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH)]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE]
