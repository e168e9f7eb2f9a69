"""Known-good CPU kernel for smoke task 1_add_relu: out = max(a + b, 0) in one pass."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_CPP = r"""
#include <torch/extension.h>

torch::Tensor add_relu(torch::Tensor a, torch::Tensor b) {
    TORCH_CHECK(a.scalar_type() == torch::kFloat32, "add_relu: a must be float32");
    TORCH_CHECK(b.scalar_type() == torch::kFloat32, "add_relu: b must be float32");
    TORCH_CHECK(a.sizes() == b.sizes(), "add_relu: a and b must have the same shape");
    a = a.contiguous();
    b = b.contiguous();
    auto out = torch::empty_like(a);
    const float* pa = a.data_ptr<float>();
    const float* pb = b.data_ptr<float>();
    float* po = out.data_ptr<float>();
    const int64_t n = a.numel();
    #pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; ++i) {
        const float s = pa[i] + pb[i];
        po[i] = s > 0.0f ? s : 0.0f;
    }
    return out;
}
"""

_ext = load_inline(
    name="ks_smoke_add_relu",
    cpp_sources=_CPP,
    functions=["add_relu"],
    extra_cflags=["-O3", "-fopenmp"],
    extra_ldflags=["-fopenmp"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return _ext.add_relu(a, b)
