# H100 estimate (eager): memory-bound. Read + write 786432*512 fp32 = 3.22 GB moved
# at ~2.5 TB/s -> ~1.3 ms.
"""Level 1: inclusive prefix product (cumprod) along 512-long rows.

Inputs are random signs times values near 1 (exp of a small normal), so running products
neither vanish nor overflow and both signs occur: an all-zeros answer cannot pass.
"""

import torch
import torch.nn as nn

BATCH = 786432
DIM = 512
SCAN_DIM = 1
LOG_SPREAD = 0.02


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cumprod(x, dim=self.dim)


def get_inputs():
    signs = torch.randint(0, 2, (BATCH, DIM)).float() * 2.0 - 1.0
    return [signs * torch.exp(LOG_SPREAD * torch.randn(BATCH, DIM))]


def get_init_inputs():
    return [SCAN_DIM]
