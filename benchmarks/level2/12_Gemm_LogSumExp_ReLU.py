"""Level 2 fusion: Linear -> logsumexp over features -> ReLU.

H100 eager estimate (fp32): GEMM 2*2048*4096*8192 = 137 GFLOP at ~30 TFLOP/s = 4.6 ms;
weights 134 MB, 67 MB logits written and read twice (~0.3 GB at ~2 TB/s = 0.15 ms).
About 5 ms.
"""

import math

import torch
import torch.nn as nn

batch_size = 2048
in_features = 4096
out_features = 8192
offset = 1.0


class Model(nn.Module):
    """y = ReLU(logsumexp(x W^T + b, dim=1) - log(out_features) - offset), shape (batch, 1)

    logsumexp of n near-equal logits is about log(n); subtracting it leaves the part that
    depends on the row, so the ReLU sees both signs.
    """

    def __init__(self, in_features: int, out_features: int, offset: float):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.shift = math.log(out_features) + offset

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        lse = torch.logsumexp(self.linear(x), dim=1, keepdim=True)
        return torch.relu(lse - self.shift)


def get_inputs():
    # Rows of different scale, so the logsumexp varies between rows on both sides of `shift`.
    row_scale = 4.0 * torch.rand(batch_size, 1)
    return [row_scale * torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features, offset]
