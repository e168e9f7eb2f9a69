# H100 estimate (eager): memory-bound. Read + write 48*128*256*256 fp32 (1.61 GB each)
# = 3.22 GB at ~2.5 TB/s -> ~1.3 ms (only 4.8 GFLOP of compute).
"""Level 1: depthwise 2D convolution (groups = channels), 3x3 kernel, padding 1, with bias."""

import torch
import torch.nn as nn

BATCH = 48
CHANNELS = 128
HEIGHT = 256
WIDTH = 256
KERNEL_SIZE = 3


class Model(nn.Module):
    def __init__(self, channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(
            channels, channels, kernel_size, padding=kernel_size // 2, groups=channels
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH)]


def get_init_inputs():
    return [CHANNELS, KERNEL_SIZE]
