# H100 estimate (eager): memory-bound. A statistics pass (read) plus a normalise pass
# (read + write) over 64*64*256*256 fp32 (1.07 GB each) = 3.22 GB at ~2.5 TB/s -> ~1.3 ms.
"""Level 1: GroupNorm with 8 groups over 64 channels, with non-trivial weight and bias."""

import torch
import torch.nn as nn

BATCH = 64
CHANNELS = 64
GROUPS = 8
HEIGHT = 256
WIDTH = 256


class Model(nn.Module):
    def __init__(self, groups: int, channels: int):
        super().__init__()
        self.norm = nn.GroupNorm(groups, channels)
        # Perturb the affine parameters away from (1, 0) so a kernel that ignores them fails.
        with torch.no_grad():
            self.norm.weight.copy_(1.0 + 0.1 * torch.randn(channels))
            self.norm.bias.copy_(0.1 * torch.randn(channels))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.norm(x)


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH)]


def get_init_inputs():
    return [GROUPS, CHANNELS]
