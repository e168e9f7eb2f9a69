# H100 estimate (eager): memory-bound. Read two 4096*98304 fp32 tensors = 3.22 GB at
# ~2.5 TB/s -> ~1.3 ms.
"""Level 1: smooth L1 (Huber-style) loss with beta = 1, mean reduction. Differences of two
standard normals straddle beta, so both branches are exercised."""

import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 4096
DIM = 98304
BETA = 1.0


class Model(nn.Module):
    def __init__(self, beta: float):
        super().__init__()
        self.beta = beta

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return F.smooth_l1_loss(predictions, targets, beta=self.beta)


def get_inputs():
    return [torch.randn(BATCH, DIM), torch.randn(BATCH, DIM)]


def get_init_inputs():
    return [BETA]
