"""Known-good CPU kernel for smoke task 6_linear_gelu: x @ W^T + b, then exact (erf) GELU."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_CPP = r"""
#include <torch/extension.h>
#include <cmath>

torch::Tensor linear_gelu(torch::Tensor x, torch::Tensor weight, torch::Tensor bias) {
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "linear_gelu: x must be float32");
    TORCH_CHECK(weight.scalar_type() == torch::kFloat32, "linear_gelu: weight must be float32");
    TORCH_CHECK(bias.scalar_type() == torch::kFloat32, "linear_gelu: bias must be float32");
    TORCH_CHECK(x.dim() >= 1, "linear_gelu: x must have at least one dimension");
    TORCH_CHECK(weight.dim() == 2, "linear_gelu: weight must be (out_features, in_features)");
    const int64_t in_f = x.size(-1);
    const int64_t out_f = weight.size(0);
    TORCH_CHECK(weight.size(1) == in_f, "linear_gelu: weight in_features != x.size(-1)");
    TORCH_CHECK(bias.dim() == 1 && bias.size(0) == out_f, "linear_gelu: bias must be (out_features,)");
    x = x.contiguous();
    weight = weight.contiguous();
    bias = bias.contiguous();
    auto out_shape = x.sizes().vec();
    out_shape.back() = out_f;
    auto out = torch::empty(out_shape, x.options());
    const int64_t rows = in_f == 0 ? 0 : x.numel() / in_f;
    const float* px = x.data_ptr<float>();
    const float* pw = weight.data_ptr<float>();
    const float* pb = bias.data_ptr<float>();
    float* po = out.data_ptr<float>();
    const float inv_sqrt2 = 0.70710678118654752f;
    // Both x rows and weight rows are contiguous over in_features: a dot product per output.
    #pragma omp parallel for collapse(2) schedule(static)
    for (int64_t r = 0; r < rows; ++r) {
        for (int64_t o = 0; o < out_f; ++o) {
            const float* xr = px + r * in_f;
            const float* wr = pw + o * in_f;
            float acc = 0.0f;
            for (int64_t i = 0; i < in_f; ++i) acc += xr[i] * wr[i];
            const float y = acc + pb[o];
            po[r * out_f + o] = 0.5f * y * (1.0f + std::erf(y * inv_sqrt2));
        }
    }
    return out;
}
"""

_ext = load_inline(
    name="ks_smoke_linear_gelu",
    cpp_sources=_CPP,
    functions=["linear_gelu"],
    extra_cflags=["-O3", "-fopenmp"],
    extra_ldflags=["-fopenmp"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        # Same construction as Model, so identical seeding gives identical parameters.
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _ext.linear_gelu(x, self.linear.weight, self.linear.bias)
