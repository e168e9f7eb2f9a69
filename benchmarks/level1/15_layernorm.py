# H100 estimate (eager): memory-bound. Read + write 48*1024*8192 fp32 = 3.22 GB moved
# at ~2.5 TB/s -> ~1.3 ms.
"""Level 1: LayerNorm over the hidden dimension of (batch, seq, hidden), with non-trivial
learnable weight and bias."""

import torch
import torch.nn as nn

BATCH = 48
SEQ = 1024
HIDDEN = 8192


class Model(nn.Module):
    def __init__(self, hidden: int):
        super().__init__()
        self.norm = nn.LayerNorm(hidden)
        # Perturb the affine parameters away from (1, 0) so a kernel that ignores them fails.
        with torch.no_grad():
            self.norm.weight.copy_(1.0 + 0.1 * torch.randn(hidden))
            self.norm.bias.copy_(0.1 * torch.randn(hidden))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.norm(x)


def get_inputs():
    return [torch.randn(BATCH, SEQ, HIDDEN)]


def get_init_inputs():
    return [HIDDEN]
