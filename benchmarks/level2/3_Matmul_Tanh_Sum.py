"""Level 2 fusion: Linear -> tanh -> sum over features.

tanh (not sigmoid) keeps the row sums centred near zero, so they differ between rows by far
more than any tolerance: a kernel cannot pass by returning a constant such as hidden/2.
H100 eager estimate (fp32): GEMM 2*2048*4096*8192 = 137 GFLOP at ~30 TFLOP/s = 4.6 ms;
weights 134 MB, the 67 MB hidden activation written and read twice (~0.4 GB at ~2 TB/s =
0.2 ms). About 5 ms.
"""

import torch
import torch.nn as nn

batch_size = 2048
input_size = 4096
hidden_size = 8192


class Model(nn.Module):
    """y[i] = sum_j tanh(x W^T + b)[i, j], shape (batch, 1)"""

    def __init__(self, input_size: int, hidden_size: int):
        super().__init__()
        self.linear = nn.Linear(input_size, hidden_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.tanh(self.linear(x)).sum(dim=1, keepdim=True)


def get_inputs():
    return [torch.rand(batch_size, input_size)]


def get_init_inputs():
    return [input_size, hidden_size]
