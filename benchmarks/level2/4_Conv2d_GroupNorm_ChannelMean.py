"""Level 2 fusion: Conv2d -> GroupNorm -> mean over channels at each pixel.

Averaging over channels (not over everything) keeps a data-dependent value at every pixel:
a mean over whole groups of a group-normalised tensor would collapse to the mean of the
affine bias, which a kernel could return without doing the work.
H100 eager estimate (fp32): conv 2*64*64*128*128*32*9 = 38.7 GFLOP at ~30 TFLOP/s = 1.3 ms;
268 MB conv output written, read twice and written once by GroupNorm, read by the mean
(~1.1 GB at ~2 TB/s = 0.55 ms). About 2 ms.
"""

import torch
import torch.nn as nn

batch_size = 64
in_channels = 32
out_channels = 64
height = 128
width = 128
kernel_size = 3
num_groups = 8


class Model(nn.Module):
    """y[n, h, w] = mean_c GroupNorm(conv(x))[n, c, h, w], shape (batch, height, width)"""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, num_groups: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        self.norm = nn.GroupNorm(num_groups, out_channels)
        with torch.no_grad():
            self.norm.weight.copy_(1.0 + 0.1 * torch.randn(out_channels))
            self.norm.bias.copy_(0.1 * torch.randn(out_channels))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.norm(self.conv(x)).mean(dim=1)


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, num_groups]
