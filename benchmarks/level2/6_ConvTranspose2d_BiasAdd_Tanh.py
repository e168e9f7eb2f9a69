"""Level 2 fusion: ConvTranspose2d (2x upsampling) -> per-channel bias -> tanh.

H100 eager estimate (fp32): transposed conv 2*64*128*64*64*64*4*4 = 68.7 GFLOP at
~30 TFLOP/s = 2.3 ms; 268 MB output written, then read+written by the bias add and by tanh
(~1.3 GB at ~2 TB/s = 0.7 ms). About 3 ms.
"""

import torch
import torch.nn as nn

batch_size = 64
in_channels = 128
out_channels = 64
height = 64
width = 64
kernel_size = 4
stride = 2


class Model(nn.Module):
    """y = tanh(conv_transpose(x) + bias), output spatial size (2*height, 2*width)"""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int):
        super().__init__()
        padding = (kernel_size - stride) // 2
        self.deconv = nn.ConvTranspose2d(
            in_channels, out_channels, kernel_size, stride=stride, padding=padding
        )
        self.bias = nn.Parameter(0.1 * torch.randn(out_channels, 1, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.tanh(self.deconv(x) + self.bias)


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, stride]
