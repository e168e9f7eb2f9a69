"""Level 2 fusion: Linear -> LayerNorm -> add the input back (residual).

H100 eager estimate (fp32): GEMM 2*4096*4096*4096 = 137 GFLOP at ~30 TFLOP/s = 4.6 ms;
weights 67 MB, 67 MB activations read/written about five times (~0.4 GB at ~2 TB/s =
0.2 ms). About 5 ms.
"""

import torch
import torch.nn as nn

batch_size = 4096
features = 4096
eps = 1e-5


class Model(nn.Module):
    """y = LayerNorm(x W^T + b) + x"""

    def __init__(self, features: int, eps: float):
        super().__init__()
        self.linear = nn.Linear(features, features)
        self.norm = nn.LayerNorm(features, eps=eps)
        with torch.no_grad():
            self.norm.weight.copy_(1.0 + 0.1 * torch.randn(features))
            self.norm.bias.copy_(0.1 * torch.randn(features))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.norm(self.linear(x)) + x


def get_inputs():
    return [torch.randn(batch_size, features)]


def get_init_inputs():
    return [features, eps]
