"""Level 2 fusion: Linear -> Swish (x * sigmoid(x)) -> clamp.

H100 eager estimate (fp32): GEMM 2*2048*4096*4096 = 68.7 GFLOP at ~30 TFLOP/s = 2.3 ms;
weights 67 MB, 34 MB activations read/written about five times (~0.25 GB at ~2 TB/s =
0.1 ms). About 2.5 ms.
"""

import torch
import torch.nn as nn

batch_size = 2048
in_features = 4096
out_features = 4096
clamp_min = -0.2
clamp_max = 0.3


class Model(nn.Module):
    """y = clamp(z * sigmoid(z), clamp_min, clamp_max) with z = x W^T + b"""

    def __init__(self, in_features: int, out_features: int, clamp_min: float, clamp_max: float):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.clamp_min = clamp_min
        self.clamp_max = clamp_max

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        z = self.linear(x)
        return torch.clamp(z * torch.sigmoid(z), self.clamp_min, self.clamp_max)


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features, clamp_min, clamp_max]
