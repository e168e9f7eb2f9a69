"""Smoke task: sum over the last dimension of a 2D tensor (output keeps no reduced dim)."""

import torch
import torch.nn as nn

ROWS = 256
COLS = 1024


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sum(x, dim=-1)


def get_inputs():
    return [torch.randn(ROWS, COLS)]


def get_init_inputs():
    return []
