"""Smoke task: plain matrix multiply, (M, K) @ (K, N)."""

import torch
import torch.nn as nn

M = 128
K = 256
N = 128


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.matmul(a, b)


def get_inputs():
    return [torch.randn(M, K), torch.randn(K, N)]


def get_init_inputs():
    return []
