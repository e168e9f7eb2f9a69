"""Known-good CPU kernel for smoke task 5_layernorm: per-row mean/variance, then affine."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_CPP = r"""
#include <torch/extension.h>
#include <cmath>

torch::Tensor layernorm(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps) {
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "layernorm: x must be float32");
    TORCH_CHECK(weight.scalar_type() == torch::kFloat32, "layernorm: weight must be float32");
    TORCH_CHECK(bias.scalar_type() == torch::kFloat32, "layernorm: bias must be float32");
    TORCH_CHECK(x.dim() >= 1, "layernorm: x must have at least one dimension");
    const int64_t h = x.size(-1);
    TORCH_CHECK(weight.dim() == 1 && weight.size(0) == h, "layernorm: weight must be (hidden,)");
    TORCH_CHECK(bias.dim() == 1 && bias.size(0) == h, "layernorm: bias must be (hidden,)");
    x = x.contiguous();
    weight = weight.contiguous();
    bias = bias.contiguous();
    auto out = torch::empty_like(x);
    const int64_t rows = h == 0 ? 0 : x.numel() / h;
    const float* px = x.data_ptr<float>();
    const float* pw = weight.data_ptr<float>();
    const float* pb = bias.data_ptr<float>();
    float* po = out.data_ptr<float>();
    #pragma omp parallel for schedule(static)
    for (int64_t r = 0; r < rows; ++r) {
        const float* in = px + r * h;
        float* o = po + r * h;
        double sum = 0.0;
        for (int64_t c = 0; c < h; ++c) sum += in[c];
        const double mean = sum / h;
        double sq = 0.0;
        for (int64_t c = 0; c < h; ++c) {
            const double d = in[c] - mean;
            sq += d * d;
        }
        const float rstd = static_cast<float>(1.0 / std::sqrt(sq / h + eps));
        const float fmean = static_cast<float>(mean);
        for (int64_t c = 0; c < h; ++c) o[c] = (in[c] - fmean) * rstd * pw[c] + pb[c];
    }
    return out;
}
"""

_ext = load_inline(
    name="ks_smoke_layernorm",
    cpp_sources=_CPP,
    functions=["layernorm"],
    extra_cflags=["-O3", "-fopenmp"],
    extra_ldflags=["-fopenmp"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, hidden: int):
        super().__init__()
        # Same construction as Model, so identical seeding gives identical parameters.
        self.norm = nn.LayerNorm(hidden)
        with torch.no_grad():
            self.norm.weight.copy_(1.0 + 0.1 * torch.randn(hidden))
            self.norm.bias.copy_(0.1 * torch.randn(hidden))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _ext.layernorm(x, self.norm.weight, self.norm.bias, self.norm.eps)
