"""Smoke task: softmax over the last dimension of a 2D tensor."""

import torch
import torch.nn as nn

ROWS = 128
COLS = 1000


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(x, dim=-1)


def get_inputs():
    return [torch.randn(ROWS, COLS)]


def get_init_inputs():
    return []
