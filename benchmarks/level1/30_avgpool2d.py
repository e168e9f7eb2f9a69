# H100 estimate (eager): memory-bound. Read + write 24*64*512*512 fp32 (1.61 GB each)
# = 3.22 GB at ~2.5 TB/s -> ~1.3 ms.
"""Level 1: 2D average pooling, 3x3 window, stride 1, padding 1 (zero padding counted in
the average, PyTorch's default)."""

import torch
import torch.nn as nn

BATCH = 24
CHANNELS = 64
HEIGHT = 512
WIDTH = 512
KERNEL_SIZE = 3
STRIDE = 1
PADDING = 1


class Model(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.pool = nn.AvgPool2d(kernel_size, stride=stride, padding=padding)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH)]


def get_init_inputs():
    return [KERNEL_SIZE, STRIDE, PADDING]
