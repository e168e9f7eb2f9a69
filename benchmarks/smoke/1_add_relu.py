"""Smoke task: elementwise add followed by ReLU (signed inputs, so ReLU is not the identity)."""

import torch
import torch.nn as nn

ROWS = 256
COLS = 512


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.relu(a + b)


def get_inputs():
    return [torch.randn(ROWS, COLS), torch.randn(ROWS, COLS)]


def get_init_inputs():
    return []
