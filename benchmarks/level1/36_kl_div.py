# H100 estimate (eager): memory-bound. torch.log reads and writes one 16384*16384 fp32
# tensor (2.15 GB), kl_div reads two and writes one (3.22 GB), the sum re-reads it (1.07 GB):
# ~6.4 GB at ~2.5 TB/s -> ~2.6 ms. A fused kernel reads both inputs once (~0.86 ms).
"""Level 1: KL divergence KL(targets || predictions) between row distributions,
batchmean reduction."""

import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 16384
NUM_CLASSES = 16384


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return F.kl_div(torch.log(predictions), targets, reduction="batchmean")


def get_inputs():
    predictions = torch.randn(BATCH, NUM_CLASSES).softmax(dim=-1)
    targets = torch.randn(BATCH, NUM_CLASSES).softmax(dim=-1)
    return [predictions, targets]


def get_init_inputs():
    return []
