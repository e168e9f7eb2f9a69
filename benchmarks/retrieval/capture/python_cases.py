"""Python tracebacks from kernels that compile but fail when called.

Run: python benchmarks/retrieval/capture/python_cases.py [case ...]
Triton cases run under the Triton interpreter (TRITON_INTERPRET=1, CPU tensors); extension
cases build one CPU extension with torch's load_inline (about 30 s) and call it wrongly.
Each case runs as its own script in a scratch directory; its stderr is the log.
"""

from __future__ import annotations

import sys

from _capture import SCRATCH, run_case, selected

TRITON_PRELUDE = r"""
import torch
import triton
import triton.language as tl

@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)

x = torch.rand(1000)
y = torch.rand(1000)
out = torch.empty_like(x)
"""

EXTENSION_PRELUDE = r"""
import torch
from torch.utils.cpp_extension import load_inline

SOURCE = '''
#include <torch/extension.h>
double first_value(torch::Tensor x) { return x.data_ptr<float>()[0]; }
double sum2d(torch::Tensor x) {
    auto a = x.accessor<float, 2>();
    double s = 0;
    for (int64_t i = 0; i < a.size(0); ++i)
        for (int64_t j = 0; j < a.size(1); ++j) s += a[i][j];
    return s;
}
torch::Tensor flatten_rows(torch::Tensor x) { return x.view({x.size(0) * x.size(1)}); }
torch::Tensor scale(torch::Tensor x, double s) { return x * s; }
'''

ext = load_inline(
    name="kscap_runtime_errors",
    cpp_sources=SOURCE,
    functions=["first_value", "sum2d", "flatten_rows", "scale"],
    build_directory=BUILD_DIR,
)
"""

CASES: dict[str, tuple[str, str]] = {
    "python_interp_grid_int": ("triton", "add_kernel[4](x, y, out, x.numel(), BLOCK=256)\n"),
    "python_interp_missing_constexpr_arg": ("triton", "add_kernel[(4,)](x, y, out, x.numel())\n"),
    "python_ext_data_ptr_dtype": ("ext", "ext.first_value(torch.rand(8, dtype=torch.float64))\n"),
    "python_ext_accessor_dims": ("ext", "ext.sum2d(torch.rand(8))\n"),
    "python_ext_view_non_contiguous": ("ext", "ext.flatten_rows(torch.rand(8, 4).t())\n"),
    "python_ext_incompatible_arguments": ("ext", "ext.scale([1.0, 2.0], 2.0)\n"),
}


def main() -> None:
    build_dir = SCRATCH / "_ext_build"
    build_dir.mkdir(parents=True, exist_ok=True)
    for name in selected(list(CASES)):
        kind, call = CASES[name]
        if kind == "triton":
            source = "import os\nos.environ['TRITON_INTERPRET'] = '1'\n" + TRITON_PRELUDE + call
        else:
            source = f"BUILD_DIR = {str(build_dir)!r}\n" + EXTENSION_PRELUDE + call
        run_case(name, "repro.py", source, [sys.executable, "repro.py"])


if __name__ == "__main__":
    main()
