# H100 estimate (eager): memory-bound. log_softmax reads and writes 32768*12288 fp32 logits
# (1.61 GB each way) and nll gathers from the result: ~3.2 GB at ~2.5 TB/s -> ~1.3 ms.
# A fused kernel reads the logits once (~0.64 ms).
"""Level 1: cross-entropy loss of logits against integer class targets (mean reduction)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 32768
NUM_CLASSES = 12288


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return F.cross_entropy(logits, targets)


def get_inputs():
    return [torch.randn(BATCH, NUM_CLASSES), torch.randint(0, NUM_CLASSES, (BATCH,))]


def get_init_inputs():
    return []
