# H100 estimate (eager): compute-bound. 2*64*256*8192*128*5 = 85.9 GFLOP at ~40 TFLOP/s
# -> ~2.1 ms. Memory: 268 MB input, 537 MB output.
"""Level 1: 1D convolution, kernel 5, stride 1, padding 2, with bias."""

import torch
import torch.nn as nn

BATCH = 64
IN_CHANNELS = 128
OUT_CHANNELS = 256
LENGTH = 8192
KERNEL_SIZE = 5


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


def get_inputs():
    return [torch.randn(BATCH, IN_CHANNELS, LENGTH)]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE]
