"""Level 2 fusion, attention-like: softmax(Q K^T * scale) V over batched heads.

H100 eager estimate (fp32): two BMMs, 2 * 2*32*2048*2048*128 = 68.7 GFLOP at ~30 TFLOP/s =
2.3 ms; the 537 MB score matrix is written, scaled, softmaxed and read back (~3 GB at
~2 TB/s = 1.5 ms). About 4 ms.
"""

import math

import torch
import torch.nn as nn

batch_heads = 32
seq_len = 2048
head_dim = 128
query_scale = 3.0


class Model(nn.Module):
    """y = softmax(q @ k^T / sqrt(head_dim), dim=-1) @ v"""

    def __init__(self, head_dim: int):
        super().__init__()
        self.scale = 1.0 / math.sqrt(head_dim)

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        scores = torch.bmm(q, k.transpose(1, 2)) * self.scale
        return torch.bmm(torch.softmax(scores, dim=-1), v)


def get_inputs():
    shape = (batch_heads, seq_len, head_dim)
    # Queries scaled up so attention is peaked, as in trained models: with unit-variance
    # scores the output averages ~1000 values of v and is too close to zero.
    return [query_scale * torch.randn(shape), torch.randn(shape), torch.randn(shape)]


def get_init_inputs():
    return [head_dim]
