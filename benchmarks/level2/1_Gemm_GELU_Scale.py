"""Level 2 fusion: Linear -> GELU (exact, erf) -> multiply by a constant.

H100 eager estimate (fp32): GEMM 2*1024*8192*8192 = 137 GFLOP at ~30 TFLOP/s = 4.6 ms;
weights 268 MB + activations 3 x 34 MB at ~2 TB/s = 0.2 ms. About 5 ms.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 1024
in_features = 8192
out_features = 8192
scale = 0.5


class Model(nn.Module):
    """y = GELU(x W^T + b) * scale"""

    def __init__(self, in_features: int, out_features: int, scale: float):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.scale = scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.gelu(self.linear(x)) * self.scale


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features, scale]
