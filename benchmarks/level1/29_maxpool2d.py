# H100 estimate (eager): memory-bound. Read 32*64*512*512 fp32 (2.15 GB) + write a quarter
# of that (0.54 GB) = 2.68 GB at ~2.5 TB/s -> ~1.1 ms.
"""Level 1: 2D max pooling, 3x3 window, stride 2, padding 1."""

import torch
import torch.nn as nn

BATCH = 32
CHANNELS = 64
HEIGHT = 512
WIDTH = 512
KERNEL_SIZE = 3
STRIDE = 2
PADDING = 1


class Model(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.pool = nn.MaxPool2d(kernel_size, stride=stride, padding=padding)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH)]


def get_init_inputs():
    return [KERNEL_SIZE, STRIDE, PADDING]
