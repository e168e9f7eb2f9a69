"""Broken CPU C++ extension sources checked with real g++, as load_inline would compile them.

Run: python benchmarks/retrieval/capture/gcc_cases.py [case ...]
Torch cases use `g++ -std=c++20 -fsyntax-only` with torch's include paths (about 20 s each);
the intrinsics case does a real `-O2 -c` compile because that error appears only when inlining.
"""

from __future__ import annotations

from _capture import run_case, selected, torch_include_flags

TORCH_CASES: dict[str, str] = {
    "gcc_cuda_launch_in_cpp": r"""
#include <torch/extension.h>
void scale_kernel(const float* x, float* y, int n);
torch::Tensor scale(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    scale_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
""",
    "gcc_accessor_too_many_indices": r"""
#include <torch/extension.h>
torch::Tensor add_bias(torch::Tensor x, torch::Tensor b) {
    auto out = torch::empty_like(x);
    auto xa = x.accessor<float, 2>();
    auto oa = out.accessor<float, 2>();
    auto ba = b.accessor<float, 1>();
    for (int64_t i = 0; i < x.size(0); ++i)
        for (int64_t j = 0; j < x.size(1); ++j)
            oa[i][j] = xa[i][j][0] + ba[j];
    return out;
}
""",
    "gcc_tensor_to_raw_pointer": r"""
#include <torch/extension.h>
torch::Tensor relu(torch::Tensor x) {
    auto y = torch::empty_like(x);
    float* px = x;
    float* py = y.data_ptr<float>();
    for (int64_t i = 0; i < x.numel(); ++i) py[i] = px[i] > 0.f ? px[i] : 0.f;
    return y;
}
""",
    "gcc_data_ptr_wrong_type": r"""
#include <torch/extension.h>
torch::Tensor square(torch::Tensor x) {
    auto y = torch::empty_like(x);
    double* px = x.data_ptr<float>();
    float* py = y.data_ptr<float>();
    for (int64_t i = 0; i < x.numel(); ++i) py[i] = px[i] * px[i];
    return y;
}
""",
    "gcc_undeclared_function": r"""
#include <torch/extension.h>
torch::Tensor forward(torch::Tensor x) {
    auto y = torch::empty_like(x);
    launch_softmax(x.data_ptr<float>(), y.data_ptr<float>(), x.size(0), x.size(1));
    return y;
}
""",
    "gcc_omp_reduction_tensor": r"""
#include <torch/extension.h>
#include <omp.h>
torch::Tensor total(torch::Tensor x) {
    auto s = torch::zeros({1}, x.options());
    const float* p = x.data_ptr<float>();
    #pragma omp parallel for reduction(+:s)
    for (int64_t i = 0; i < x.numel(); ++i) s += p[i];
    return s;
}
""",
    "gcc_omp_break_in_loop": r"""
#include <torch/extension.h>
#include <omp.h>
int64_t first_negative(torch::Tensor x) {
    const float* p = x.data_ptr<float>();
    int64_t found = -1;
    #pragma omp parallel for
    for (int64_t i = 0; i < x.numel(); ++i) {
        if (p[i] < 0.f) { found = i; break; }
    }
    return found;
}
""",
    "gcc_vectorized_missing_include": r"""
#include <torch/extension.h>
torch::Tensor add(torch::Tensor a, torch::Tensor b) {
    auto c = torch::empty_like(a);
    const float* pa = a.data_ptr<float>();
    const float* pb = b.data_ptr<float>();
    float* pc = c.data_ptr<float>();
    using Vec = at::vec::Vectorized<float>;
    int64_t n = a.numel(), i = 0;
    for (; i + Vec::size() <= n; i += Vec::size())
        (Vec::loadu(pa + i) + Vec::loadu(pb + i)).store(pc + i);
    for (; i < n; ++i) pc[i] = pa[i] + pb[i];
    return c;
}
""",
    "gcc_options_dtype_keyword": r"""
#include <torch/extension.h>
torch::Tensor to_float(torch::Tensor x) {
    auto y = torch::empty(x.sizes(), x.options().dtype(float));
    auto px = x.data_ptr<at::Half>();
    auto py = y.data_ptr<float>();
    for (int64_t i = 0; i < x.numel(); ++i) py[i] = static_cast<float>(px[i]);
    return y;
}
""",
    "gcc_scalar_t_outside_dispatch": r"""
#include <torch/extension.h>
torch::Tensor double_it(torch::Tensor x) {
    auto y = torch::empty_like(x);
    AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "double_it", [&] {
        y.fill_(0);
    });
    const scalar_t* px = x.data_ptr<scalar_t>();
    scalar_t* py = y.data_ptr<scalar_t>();
    for (int64_t i = 0; i < x.numel(); ++i) py[i] = 2 * px[i];
    return y;
}
""",
    "gcc_size_without_dim": r"""
#include <torch/extension.h>
torch::Tensor row_max(torch::Tensor x) {
    int64_t rows = x.size();
    auto out = torch::empty({rows}, x.options());
    return out;
}
""",
    "gcc_std_max_int64": r"""
#include <torch/extension.h>
#include <algorithm>
torch::Tensor pad_rows(torch::Tensor x, int min_rows) {
    auto rows = std::max(min_rows, x.size(0));
    return torch::zeros({rows, x.size(1)}, x.options());
}
""",
    "gcc_void_return_in_tensor_fn": r"""
#include <torch/extension.h>
torch::Tensor fill_ones(torch::Tensor x) {
    x.fill_(1.0);
    return;
}
""",
}

INTRINSICS_CASE = (
    "gcc_avx_without_target_flag",
    r"""
#include <immintrin.h>
void add8(const float* a, const float* b, float* c, long n) {
    for (long i = 0; i + 8 <= n; i += 8) {
        __m256 va = _mm256_loadu_ps(a + i);
        __m256 vb = _mm256_loadu_ps(b + i);
        _mm256_storeu_ps(c + i, _mm256_add_ps(va, vb));
    }
}
""",
)


def main() -> None:
    flags = torch_include_flags()
    for name in selected(list(TORCH_CASES)):
        command = ["g++", "-std=c++20", "-fsyntax-only", "-fopenmp", *flags, "main.cpp"]
        run_case(name, "main.cpp", TORCH_CASES[name], command)
    name, source = INTRINSICS_CASE
    if name in selected([name]):
        run_case(name, "main.cpp", source, ["g++", "-std=c++20", "-O2", "-c", "main.cpp"])


if __name__ == "__main__":
    main()
