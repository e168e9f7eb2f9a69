"""Level 2 fusion: Linear -> softmax over features -> Dropout(p=0) -> rescale.

Dropout with p=0 is the identity in both modes; it is part of the operator so a fused kernel
must show it can drop it. Probabilities over 8192 classes are ~1e-4 each, small enough that
all-zeros would pass a loose tolerance, so the result is multiplied by out_features (mean 1).
H100 eager estimate (fp32): GEMM 2*2048*2048*8192 = 68.7 GFLOP at ~30 TFLOP/s = 2.3 ms;
67 MB logits written, read twice and written by softmax, copied by dropout and the scale
(~0.5 GB at ~2 TB/s = 0.25 ms). About 2.5 ms.
"""

import torch
import torch.nn as nn

batch_size = 2048
in_features = 2048
out_features = 8192
dropout_p = 0.0


class Model(nn.Module):
    """y = dropout(softmax(x W^T + b, dim=1), p=0) * out_features"""

    def __init__(self, in_features: int, out_features: int, dropout_p: float):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.dropout = nn.Dropout(dropout_p)
        self.out_features = out_features

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.dropout(torch.softmax(self.linear(x), dim=1)) * self.out_features


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features, dropout_p]
