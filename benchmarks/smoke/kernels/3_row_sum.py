"""Known-good CPU kernel for smoke task 3_row_sum: sum over the last dimension."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_CPP = r"""
#include <torch/extension.h>

torch::Tensor row_sum(torch::Tensor x) {
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "row_sum: x must be float32");
    TORCH_CHECK(x.dim() >= 1, "row_sum: x must have at least one dimension");
    x = x.contiguous();
    auto out_shape = x.sizes().vec();
    out_shape.pop_back();
    auto out = torch::empty(out_shape, x.options());
    const int64_t cols = x.size(-1);
    const int64_t rows = out.numel();
    const float* px = x.data_ptr<float>();
    float* po = out.data_ptr<float>();
    #pragma omp parallel for schedule(static)
    for (int64_t r = 0; r < rows; ++r) {
        const float* in = px + r * cols;
        double total = 0.0;
        for (int64_t c = 0; c < cols; ++c) total += in[c];
        po[r] = static_cast<float>(total);
    }
    return out;
}
"""

_ext = load_inline(
    name="ks_smoke_row_sum",
    cpp_sources=_CPP,
    functions=["row_sum"],
    extra_cflags=["-O3", "-fopenmp"],
    extra_ldflags=["-fopenmp"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _ext.row_sum(x)
