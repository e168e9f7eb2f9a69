"""Third blind error set: mistakes captured before anyone ran retrieval on them.

Run: python benchmarks/retrieval/capture/fresh3_cases.py [--out DIR] [case ...]
Every case is a mistake not already in the other capture scripts. nvcc cases compile with
`nvcc -c -arch=sm_90a` (TORCH ones add torch's headers, about 80 s each); g++ cases use
`g++ -std=c++20 -fsyntax-only -fopenmp` with torch's include paths and the
TORCH_EXTENSION_NAME define, as load_inline compiles; Triton cases compile ahead of time for
`GPUTarget("cuda", 90, 32)` (no GPU needed). The Triton kernels live in this file because
Triton reads a kernel's source. Logs go to DIR/fresh3_<case>.log (default ../logs/); machine
paths become <site-packages>/, <python-include>/ and <repo>/.
"""
# ruff: noqa: F841, B007, E731

from __future__ import annotations

import math
import os

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")

import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from _capture import capture_main  # noqa: E402

NVCC_CASES: dict[str, str] = {
    # atomicAdd into an output the kernel took as const float*
    "fresh3_nvcc_atomic_add_const_pointer": r"""
__global__ void col_sum(const float* x, const float* out, int rows, int cols) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y;
    if (c < cols) atomicAdd(&out[c], x[r * cols + c]);
}
""",
    # __constant__ weights declared inside the kernel body
    "fresh3_nvcc_constant_inside_kernel": r"""
__global__ void conv3x3(const float* x, float* y, int h, int w) {
    __constant__ float k[9] = {0.f, -1.f, 0.f, -1.f, 4.f, -1.f, 0.f, -1.f, 0.f};
    int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < 1 || c < 1 || r >= h - 1 || c >= w - 1) return;
    float acc = 0.f;
    for (int i = -1; i <= 1; ++i)
        for (int j = -1; j <= 1; ++j) acc += k[(i + 1) * 3 + j + 1] * x[(r + i) * w + c + j];
    y[r * w + c] = acc;
}
""",
    # __restrict__ written before the element type instead of after the *
    "fresh3_nvcc_restrict_before_type": r"""
__global__ void axpby(__restrict__ const float* x, __restrict__ float* y, float a, float b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + b * y[i];
}
""",
    # half exponential spelled __hexp (the intrinsic is hexp)
    "fresh3_nvcc_half_exp_wrong_name": r"""
#include <cuda_fp16.h>
__global__ void softmax_numerator(const __half* x, const __half* row_max, __half* y, int cols) {
    int r = blockIdx.x, c = threadIdx.x;
    if (c < cols) y[r * cols + c] = __hexp(__hsub(x[r * cols + c], row_max[r]));
}
""",
    # max(float, int) for ReLU: several device overloads fit
    "fresh3_nvcc_max_float_int_ambiguous": r"""
__global__ void relu6(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = min(max(x[i], 0), 6);
}
""",
    # reinterpret_cast of a const float* to float4* drops the const
    "fresh3_nvcc_float4_cast_drops_const": r"""
__global__ void scale4(const float* x, float* y, float s, int n4) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n4) return;
    float4 v = reinterpret_cast<float4*>(x)[i];
    v.x *= s; v.y *= s; v.z *= s; v.w *= s;
    reinterpret_cast<float4*>(y)[i] = v;
}
""",
    # FLT_MAX used for a max-reduction start value without <cfloat>
    "fresh3_nvcc_flt_max_without_header": r"""
__global__ void row_max(const float* x, float* out, int cols) {
    float m = -FLT_MAX;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, x[blockIdx.x * cols + c]);
    for (int off = 16; off > 0; off >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
    if (threadIdx.x == 0) out[blockIdx.x] = m;
}
""",
    # wmma accumulator loaded without its memory layout argument
    "fresh3_nvcc_wmma_accumulator_load_no_layout": r"""
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;
__global__ void gemm_bias(const half* a, const half* b, const float* bias_tile, float* c) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::load_matrix_sync(fc, bias_tile, 16);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
""",
    # TF32 wmma attempted with float as the fragment element type
    "fresh3_nvcc_wmma_float_fragment_for_tf32": r"""
#include <mma.h>
using namespace nvcuda;
__global__ void gemm_tf32(const float* a, const float* b, float* c) {
    wmma::fragment<wmma::matrix_a, 16, 16, 8, float, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, float, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, a, 8);
    wmma::load_matrix_sync(fb, b, 8);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
""",
    # bilinear upsample indexing an array with float coordinates
    "fresh3_nvcc_float_array_index": r"""
__global__ void upsample_nearest2x(const float* x, float* y, int h, int w) {
    int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= 2 * h || c >= 2 * w) return;
    float sr = r * 0.5f, sc = c * 0.5f;
    y[r * 2 * w + c] = x[sr * w + sc];
}
""",
    # float4 components read with a subscript
    "fresh3_nvcc_float4_subscript": r"""
__global__ void sum4(const float4* x, float* y, int n4) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n4) return;
    float4 v = x[i];
    float s = 0.f;
    #pragma unroll
    for (int k = 0; k < 4; ++k) s += v[k];
    y[i] = s;
}
""",
    # cooperative_groups::reduce without <cooperative_groups/reduce.h>
    "fresh3_nvcc_cg_reduce_without_header": r"""
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void row_sum(const float* x, float* out, int cols) {
    auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    float acc = 0.f;
    for (int c = warp.thread_rank(); c < cols; c += 32) acc += x[blockIdx.x * cols + c];
    float total = cg::reduce(warp, acc, cg::plus<float>());
    if (warp.thread_rank() == 0) out[blockIdx.x] = total;
}
""",
    # inline PTX with an "f" constraint bound to a double
    "fresh3_nvcc_asm_constraint_type_mismatch": r"""
__global__ void fast_rcp(const double* x, double* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double r;
    asm("rcp.approx.ftz.f64 %0, %1;" : "=f"(r) : "f"(x[i]));
    y[i] = r;
}
""",
}

# Kernels that include torch headers, as load_inline's cuda_sources do.
NVCC_TORCH_CASES: dict[str, str] = {
    # ReLU ternary mixing scalar_t and an int literal, dispatched with Half
    "fresh3_nvcc_half_ternary_with_int": r"""
#include <torch/extension.h>
template <typename scalar_t>
__global__ void relu_kernel(const scalar_t* x, scalar_t* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] > 0 ? x[i] : 0;
}
torch::Tensor relu(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    AT_DISPATCH_FLOATING_TYPES_AND_HALF(x.scalar_type(), "relu", [&] {
        relu_kernel<scalar_t><<<(n + 255) / 256, 256>>>(x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), n);
    });
    return y;
}
""",
    # float-only kernel launched inside a dispatch that also instantiates double
    "fresh3_nvcc_float_kernel_in_dispatch": r"""
#include <torch/extension.h>
__global__ void softplus_kernel(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] > 20.f ? x[i] : log1pf(expf(x[i]));
}
torch::Tensor softplus(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "softplus", [&] {
        softplus_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), n);
    });
    return y;
}
""",
    # CHECK_INPUT helper macros from the tutorial used without defining them
    "fresh3_nvcc_check_input_macro_undefined": r"""
#include <torch/extension.h>
__global__ void add_bias(const float* x, const float* b, float* y, int rows, int cols) {
    int r = blockIdx.x, c = threadIdx.x;
    if (c < cols) y[r * cols + c] = x[r * cols + c] + b[c];
}
torch::Tensor forward(torch::Tensor x, torch::Tensor b) {
    CHECK_INPUT(x);
    CHECK_INPUT(b);
    auto y = torch::empty_like(x);
    add_bias<<<x.size(0), 256>>>(x.data_ptr<float>(), b.data_ptr<float>(), y.data_ptr<float>(),
                                 x.size(0), x.size(1));
    return y;
}
""",
    # dispatch macro called without its name string
    "fresh3_nvcc_dispatch_missing_name": r"""
#include <torch/extension.h>
template <typename scalar_t>
__global__ void sq_kernel(const scalar_t* x, scalar_t* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * x[i];
}
torch::Tensor square(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), [&] {
        sq_kernel<scalar_t><<<(n + 255) / 256, 256>>>(x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), n);
    });
    return y;
}
""",
    # warp shuffle on c10::Half once the dispatch includes Half
    "fresh3_nvcc_shfl_on_c10_half": r"""
#include <torch/extension.h>
template <typename scalar_t>
__global__ void row_sum(const scalar_t* x, scalar_t* out, int cols) {
    scalar_t acc = 0;
    for (int c = threadIdx.x; c < cols; c += 32) acc += x[blockIdx.x * cols + c];
    for (int off = 16; off > 0; off >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, off);
    if (threadIdx.x == 0) out[blockIdx.x] = acc;
}
torch::Tensor sum_rows(torch::Tensor x) {
    auto out = torch::empty({x.size(0)}, x.options());
    int cols = x.size(1);
    AT_DISPATCH_FLOATING_TYPES_AND_HALF(x.scalar_type(), "sum_rows", [&] {
        row_sum<scalar_t><<<x.size(0), 32>>>(x.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), cols);
    });
    return out;
}
""",
}

GCC_CASES: dict[str, str] = {
    # untyped data_ptr() (void*) assigned to float*
    "fresh3_gcc_untyped_data_ptr": r"""
#include <torch/extension.h>
torch::Tensor swish(torch::Tensor x) {
    auto y = torch::empty_like(x);
    float* px = x.data_ptr();
    float* py = y.data_ptr();
    for (int64_t i = 0; i < x.numel(); ++i) py[i] = px[i] / (1.f + std::exp(-px[i]));
    return y;
}
""",
    # Python's .shape attribute on a C++ tensor
    "fresh3_gcc_tensor_shape_attribute": r"""
#include <torch/extension.h>
torch::Tensor matmul_relu(torch::Tensor a, torch::Tensor b) {
    int64_t M = a.shape[0], K = a.shape[1], N = b.shape[1];
    auto c = torch::zeros({M, N}, a.options());
    auto pa = a.data_ptr<float>(), pb = b.data_ptr<float>(), pc = c.data_ptr<float>();
    for (int64_t i = 0; i < M; ++i)
        for (int64_t k = 0; k < K; ++k)
            for (int64_t j = 0; j < N; ++j) pc[i * N + j] += pa[i * K + k] * pb[k * N + j];
    return c.clamp_min(0);
}
""",
    # Slice() used without torch::indexing
    "fresh3_gcc_slice_without_indexing_namespace": r"""
#include <torch/extension.h>
torch::Tensor glu(torch::Tensor x) {
    int64_t half = x.size(-1) / 2;
    auto a = x.index({Slice(), Slice(0, half)});
    auto b = x.index({Slice(), Slice(half, None)});
    return a * torch::sigmoid(b);
}
""",
    # ReLU written as a C ternary on a tensor comparison
    "fresh3_gcc_ternary_on_tensor": r"""
#include <torch/extension.h>
torch::Tensor leaky_relu(torch::Tensor x, double slope) {
    return x > 0 ? x : x * slope;
}
""",
    # at::parallel_for called without its grain size
    "fresh3_gcc_parallel_for_missing_grain": r"""
#include <torch/extension.h>
#include <ATen/Parallel.h>
torch::Tensor sigmoid(torch::Tensor x) {
    auto y = torch::empty_like(x);
    const float* px = x.data_ptr<float>();
    float* py = y.data_ptr<float>();
    at::parallel_for(0, x.numel(), [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) py[i] = 1.f / (1.f + std::exp(-px[i]));
    });
    return y;
}
""",
    # collapse(2) over loops with a statement between them
    "fresh3_gcc_omp_collapse_not_nested": r"""
#include <torch/extension.h>
#include <omp.h>
torch::Tensor row_softmax(torch::Tensor x) {
    int64_t R = x.size(0), C = x.size(1);
    auto y = torch::empty_like(x);
    const float* px = x.data_ptr<float>();
    float* py = y.data_ptr<float>();
    #pragma omp parallel for collapse(2)
    for (int64_t r = 0; r < R; ++r) {
        float m = -INFINITY;
        for (int64_t c = 0; c < C; ++c) m = std::max(m, px[r * C + c]);
        float s = 0.f;
        for (int64_t c = 0; c < C; ++c) s += std::exp(px[r * C + c] - m);
        for (int64_t c = 0; c < C; ++c) py[r * C + c] = std::exp(px[r * C + c] - m) / s;
    }
    return y;
}
""",
    # accessor taken from a temporary (contiguous()) tensor
    "fresh3_gcc_accessor_on_temporary": r"""
#include <torch/extension.h>
torch::Tensor trace_rows(torch::Tensor x) {
    auto xa = x.contiguous().accessor<float, 2>();
    auto out = torch::zeros({1}, x.options());
    for (int64_t i = 0; i < std::min(x.size(0), x.size(1)); ++i) out[0] += xa[i][i];
    return out;
}
""",
    # Python keyword arguments in a C++ call
    "fresh3_gcc_python_keyword_arguments": r"""
#include <torch/extension.h>
torch::Tensor layer_norm(torch::Tensor x, torch::Tensor w, torch::Tensor b, double eps) {
    auto mean = x.mean(dim=-1, keepdim=true);
    auto var = (x - mean).pow(2).mean(dim=-1, keepdim=true);
    return (x - mean) / torch::sqrt(var + eps) * w + b;
}
""",
    # torch::float32, the Python dtype name
    "fresh3_gcc_python_dtype_name": r"""
#include <torch/extension.h>
torch::Tensor cross_entropy(torch::Tensor logits, torch::Tensor target) {
    auto lp = torch::log_softmax(logits.to(torch::float32), 1);
    return -lp.gather(1, target.unsqueeze(1)).mean();
}
""",
    # Vectorized<float>::size used without calling it
    "fresh3_gcc_vec_size_not_called": r"""
#include <torch/extension.h>
#include <ATen/cpu/vec/vec.h>
torch::Tensor scale(torch::Tensor x, double s) {
    using Vec = at::vec::Vectorized<float>;
    auto y = torch::empty_like(x);
    const float* px = x.data_ptr<float>();
    float* py = y.data_ptr<float>();
    int64_t n = x.numel(), i = 0;
    Vec vs(static_cast<float>(s));
    for (; i + Vec::size <= n; i += Vec::size) (Vec::loadu(px + i) * vs).store(py + i);
    for (; i < n; ++i) py[i] = px[i] * s;
    return y;
}
""",
    # own PYBIND11_MODULE while load_inline(functions=...) appends another
    "fresh3_gcc_duplicate_pybind_module": r"""
#include <torch/extension.h>
torch::Tensor hinge_loss(torch::Tensor pred, torch::Tensor target) {
    return torch::clamp_min(1 - pred * target, 0).mean();
}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("hinge_loss", &hinge_loss, "hinge loss");
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
m.def("hinge_loss", torch::wrap_pybind_function(hinge_loss), "hinge_loss");
}
""",
    # binding an overloaded function by name
    "fresh3_gcc_bind_overloaded_function": r"""
#include <torch/extension.h>
torch::Tensor mse(torch::Tensor a, torch::Tensor b) { return (a - b).pow(2).mean(); }
torch::Tensor mse(torch::Tensor a, torch::Tensor b, torch::Tensor w) { return (w * (a - b).pow(2)).mean(); }
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("mse", &mse, "mean squared error");
}
""",
    # optional bias used directly in arithmetic
    "fresh3_gcc_optional_tensor_arithmetic": r"""
#include <torch/extension.h>
torch::Tensor linear(torch::Tensor x, torch::Tensor w, c10::optional<torch::Tensor> bias) {
    auto y = torch::matmul(x, w.t());
    if (bias.has_value()) y = y + bias;
    return y;
}
""",
    # Python's x.float() conversion method
    "fresh3_gcc_tensor_float_method": r"""
#include <torch/extension.h>
torch::Tensor kl_div(torch::Tensor p, torch::Tensor q) {
    auto pf = p.float();
    auto qf = q.float();
    return (pf * (pf.log() - qf.log())).sum(-1).mean();
}
""",
}


# --- Triton ---------------------------------------------------------------------------------


@triton.jit
def full_missing_dtype(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    floor = tl.full((BLOCK,), 1e-6)
    tl.store(y_ptr + offs, tl.maximum(x, floor), mask=m)


@triton.jit
def argmax_without_axis(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n + cols, mask=cols < n, other=float("-inf"))
    tl.store(y_ptr + row, tl.argmax(x))


@triton.jit
def pointer_subscript(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = x_ptr[offs]
    tl.store(y_ptr + offs, v * v, mask=m)


@triton.jit
def math_sqrt_runtime(q_ptr, o_ptr, head_dim, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    q = tl.load(q_ptr + offs)
    tl.store(o_ptr + offs, q / math.sqrt(head_dim))


@triton.jit
def dtype_called_as_cast(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, tl.float16(x * 0.5), mask=m)


@triton.jit
def numpy_astype(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m).astype(tl.float32)
    tl.store(y_ptr + offs, tl.sigmoid(x), mask=m)


@triton.jit
def softmax_max_without_keepdims(x_ptr, y_ptr, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    x = tl.load(x_ptr + rm[:, None] * BN + rn[None, :])
    e = tl.exp(x - tl.max(x, axis=1))
    tl.store(y_ptr + rm[:, None] * BN + rn[None, :], e / tl.sum(e, axis=1))


@triton.jit
def dot_trans_b_keyword(a_ptr, b_ptr, c_ptr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(a_ptr + rm[:, None] * BK + rk[None, :])
    w = tl.load(b_ptr + rn[:, None] * BK + rk[None, :])
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], tl.dot(a, w, trans_b=True))


@triton.jit
def arange_with_step(x_ptr, y_ptr, BLOCK: tl.constexpr):
    even = tl.arange(0, 2 * BLOCK, 2)
    a = tl.load(x_ptr + even)
    b = tl.load(x_ptr + even + 1)
    tl.store(y_ptr + tl.arange(0, BLOCK), tl.maximum(a, b))


@triton.jit
def bitcast_size_mismatch(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    h = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, h.to(tl.float32, bitcast=True) * 2.0, mask=m)


@triton.jit
def rand_seed_pointer(x_ptr, y_ptr, seed_ptr, p, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    keep = tl.rand(seed_ptr, offs) > p
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, tl.where(keep, x / (1 - p), 0.0), mask=m)


@triton.jit
def pow_operator(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    inner = 0.7978845608 * (x + 0.044715 * x**3)
    tl.store(y_ptr + offs, 0.5 * x * (1.0 + tl.extra.cuda.libdevice.tanh(inner)), mask=m)


@triton.jit
def libdevice_old_path(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, tl.libdevice.erf(x * 0.7071067811865476), mask=m)


@triton.jit
def return_in_loop(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for i in range(0, n):
        if i * BLOCK >= n:
            return
        acc += tl.load(x_ptr + i * BLOCK + offs)
    tl.store(y_ptr + offs, acc)


F32, F16 = "*fp32", "*fp16"
UNARY_SIG = {"x_ptr": F32, "y_ptr": F32, "n": "i32", "BLOCK": "constexpr"}
ROW_SIG = {"x_ptr": F32, "y_ptr": F32, "BLOCK": "constexpr"}

# name: (kernel, signature, constexprs)
TRITON_CASES = {
    "fresh3_triton_full_missing_dtype": (full_missing_dtype, UNARY_SIG, {"BLOCK": 128}),
    "fresh3_triton_argmax_without_axis": (argmax_without_axis, UNARY_SIG, {"BLOCK": 128}),
    "fresh3_triton_pointer_subscript": (pointer_subscript, UNARY_SIG, {"BLOCK": 128}),
    "fresh3_triton_math_sqrt_runtime": (
        math_sqrt_runtime,
        {"q_ptr": F32, "o_ptr": F32, "head_dim": "i32", "BLOCK": "constexpr"},
        {"BLOCK": 64},
    ),
    "fresh3_triton_dtype_called_as_cast": (
        dtype_called_as_cast,
        {"x_ptr": F32, "y_ptr": F16, "n": "i32", "BLOCK": "constexpr"},
        {"BLOCK": 128},
    ),
    "fresh3_triton_numpy_astype": (
        numpy_astype,
        {"x_ptr": F16, "y_ptr": F32, "n": "i32", "BLOCK": "constexpr"},
        {"BLOCK": 128},
    ),
    "fresh3_triton_softmax_max_without_keepdims": (
        softmax_max_without_keepdims,
        {"x_ptr": F32, "y_ptr": F32, "BM": "constexpr", "BN": "constexpr"},
        {"BM": 16, "BN": 64},
    ),
    "fresh3_triton_dot_trans_b_keyword": (
        dot_trans_b_keyword,
        {
            "a_ptr": F16,
            "b_ptr": F16,
            "c_ptr": F32,
            "BM": "constexpr",
            "BN": "constexpr",
            "BK": "constexpr",
        },
        {"BM": 64, "BN": 64, "BK": 32},
    ),
    "fresh3_triton_arange_with_step": (arange_with_step, ROW_SIG, {"BLOCK": 64}),
    "fresh3_triton_bitcast_size_mismatch": (
        bitcast_size_mismatch,
        {"x_ptr": F16, "y_ptr": F32, "n": "i32", "BLOCK": "constexpr"},
        {"BLOCK": 128},
    ),
    "fresh3_triton_rand_seed_pointer": (
        rand_seed_pointer,
        {
            "x_ptr": F32,
            "y_ptr": F32,
            "seed_ptr": "*i32",
            "p": "fp32",
            "n": "i32",
            "BLOCK": "constexpr",
        },
        {"BLOCK": 128},
    ),
    "fresh3_triton_pow_operator": (pow_operator, UNARY_SIG, {"BLOCK": 128}),
    "fresh3_triton_libdevice_old_path": (libdevice_old_path, UNARY_SIG, {"BLOCK": 128}),
    "fresh3_triton_return_in_loop": (return_in_loop, UNARY_SIG, {"BLOCK": 128}),
}


if __name__ == "__main__":
    capture_main(__doc__, NVCC_CASES, TRITON_CASES, GCC_CASES, NVCC_TORCH_CASES)
