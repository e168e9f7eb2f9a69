# H100 estimate (eager): compute-bound. 2*16*128*128*128*64*4*4 = 68.7 GFLOP at
# ~40 TFLOP/s -> ~1.7 ms. Memory: 134 MB input, 268 MB output (256x256 spatial).
"""Level 1: transposed 2D convolution that doubles the spatial size (kernel 4, stride 2,
padding 1), with bias."""

import torch
import torch.nn as nn

BATCH = 16
IN_CHANNELS = 128
OUT_CHANNELS = 64
HEIGHT = 128
WIDTH = 128
KERNEL_SIZE = 4
STRIDE = 2
PADDING = 1


class Model(nn.Module):
    def __init__(
        self, in_channels: int, out_channels: int, kernel_size: int, stride: int, padding: int
    ):
        super().__init__()
        self.conv = nn.ConvTranspose2d(
            in_channels, out_channels, kernel_size, stride=stride, padding=padding
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


def get_inputs():
    return [torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH)]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, STRIDE, PADDING]
