"""Known-good CPU kernel for smoke task 2_row_softmax: max-subtracted softmax per row."""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_CPP = r"""
#include <torch/extension.h>
#include <cmath>

torch::Tensor row_softmax(torch::Tensor x) {
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "row_softmax: x must be float32");
    TORCH_CHECK(x.dim() >= 1, "row_softmax: x must have at least one dimension");
    x = x.contiguous();
    auto out = torch::empty_like(x);
    const int64_t cols = x.size(-1);
    const int64_t rows = cols == 0 ? 0 : x.numel() / cols;
    const float* px = x.data_ptr<float>();
    float* po = out.data_ptr<float>();
    #pragma omp parallel for schedule(static)
    for (int64_t r = 0; r < rows; ++r) {
        const float* in = px + r * cols;
        float* o = po + r * cols;
        float m = -INFINITY;
        for (int64_t c = 0; c < cols; ++c) m = in[c] > m ? in[c] : m;
        double total = 0.0;
        for (int64_t c = 0; c < cols; ++c) {
            const float e = std::exp(in[c] - m);
            o[c] = e;
            total += e;
        }
        const float inv = static_cast<float>(1.0 / total);
        for (int64_t c = 0; c < cols; ++c) o[c] *= inv;
    }
    return out;
}
"""

_ext = load_inline(
    name="ks_smoke_row_softmax",
    cpp_sources=_CPP,
    functions=["row_softmax"],
    extra_cflags=["-O3", "-fopenmp"],
    extra_ldflags=["-fopenmp"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _ext.row_softmax(x)
