# H100 estimate (eager): memory-bound. Read two 4096*98304 fp32 tensors = 3.22 GB at
# ~2.5 TB/s -> ~1.3 ms (a fused reduction; an unfused one adds a write and re-read).
"""Level 1: mean squared error between two tensors (scalar output)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 4096
DIM = 98304


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return F.mse_loss(predictions, targets)


def get_inputs():
    return [torch.randn(BATCH, DIM), torch.randn(BATCH, DIM)]


def get_init_inputs():
    return []
