"""Seventh blind error set: mistakes captured before anyone ran retrieval on them.

Run: python benchmarks/retrieval/capture/fresh7_cases.py [--out DIR] [case ...]
Every case is a mistake not already in the other capture scripts. nvcc cases compile with
`nvcc -c -arch=sm_90a` (TORCH ones add torch's headers, about 80 s each); g++ cases use
`g++ -std=c++20 -fsyntax-only -fopenmp` with torch's include paths and the
TORCH_EXTENSION_NAME define, as load_inline compiles; Triton cases compile ahead of time for
`GPUTarget("cuda", 90, 32)` (no GPU needed). The Triton kernels live in this file because
Triton reads a kernel's source. Logs go to DIR/fresh7_<case>.log (default ../logs/); machine
paths become <site-packages>/, <python-include>/, <python>/ and <repo>/.
"""
# ruff: noqa: F821, F841, B007, E731

from __future__ import annotations

import os

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")

import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from _capture import capture_main  # noqa: E402

NVCC_CASES: dict[str, str] = {
    # attention scale made constexpr through sqrtf, which is not a constant expression
    "fresh7_nvcc_constexpr_sqrtf_scale": r"""
template <int HEAD_DIM>
__global__ void scale_scores(const float* q, const float* k, float* s, int n) {
    constexpr float scale = 1.0f / sqrtf(static_cast<float>(HEAD_DIM));
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float acc = 0.f;
    for (int d = 0; d < HEAD_DIM; ++d) acc += q[i * HEAD_DIM + d] * k[d];
    s[i] = acc * scale;
}
template __global__ void scale_scores<64>(const float*, const float*, float*, int);
""",
    # extern "C" put on a kernel template so the name stays unmangled
    "fresh7_nvcc_extern_c_template_kernel": r"""
extern "C" template <int BLOCK>
__global__ void block_sum(const float* x, float* out, int n) {
    __shared__ float buf[BLOCK];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    buf[threadIdx.x] = i < n ? x[i] : 0.f;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = buf[0];
}
""",
    # cooperative launch given the kernel's arguments directly instead of a void* array
    "fresh7_nvcc_cooperative_launch_loose_args": r"""
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void grid_sum(const float* x, float* partial, float* out, int n) {
    cg::grid_group grid = cg::this_grid();
    float v = 0.f;
    for (int i = grid.thread_rank(); i < n; i += grid.size()) v += x[i];
    atomicAdd(&partial[blockIdx.x], v);
    grid.sync();
    if (grid.thread_rank() == 0) {
        float s = 0.f;
        for (int b = 0; b < gridDim.x; ++b) s += partial[b];
        *out = s;
    }
}
void launch(const float* x, float* partial, float* out, int n, int blocks) {
    cudaLaunchCooperativeKernel(grid_sum, dim3(blocks), dim3(256), x, partial, out, n);
}
""",
    # TMA descriptor type used without the driver API header
    "fresh7_nvcc_tensor_map_without_cuda_h": r"""
#include <cuda/barrier>
__global__ void tma_copy(const __grid_constant__ CUtensorMap tmap, float* out) {
    __shared__ alignas(128) float tile[64 * 64];
    out[blockIdx.x * 64 * 64 + threadIdx.x] = tile[threadIdx.x];
}
""",
    # |x| for half taken by masking the sign bit on the __half value itself
    "fresh7_nvcc_half_sign_bit_mask": r"""
#include <cuda_fp16.h>
__global__ void half_abs(const __half* x, __half* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] & 0x7fff;
}
""",
    # CUDART_INF_F used for a row-max start value without <math_constants.h>
    "fresh7_nvcc_cudart_inf_without_header": r"""
__global__ void row_max(const float* x, float* out, int cols) {
    float m = -CUDART_INF_F;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, x[blockIdx.x * cols + c]);
    for (int off = 16; off > 0; off >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
    if (threadIdx.x == 0) out[blockIdx.x] = m;
}
""",
    # cuda::atomic_ref used for a global counter without <cuda/atomic>
    "fresh7_nvcc_atomic_ref_without_header": r"""
__global__ void count_positive(const float* x, unsigned int* count, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && x[i] > 0.f) {
        cuda::atomic_ref<unsigned int, cuda::thread_scope_device> c(*count);
        c.fetch_add(1u, cuda::memory_order_relaxed);
    }
}
""",
    # occupancy query handed int64_t outputs (it writes int)
    "fresh7_nvcc_occupancy_int64_outputs": r"""
#include <cstdint>
__global__ void scale(const float* x, float* y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i];
}
void launch(const float* x, float* y, float a, int n) {
    int64_t min_grid = 0, block = 0;
    cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, scale, 0, 0);
    scale<<<(n + block - 1) / block, block>>>(x, y, a, n);
}
""",
}

# Kernels that include torch headers, as load_inline's cuda_sources do.
NVCC_TORCH_CASES: dict[str, str] = {
    # AT_DISPATCH_INDEX_TYPES names its type index_t, the body still says scalar_t
    "fresh7_nvcc_torch_index_dispatch_scalar_t": r"""
#include <torch/extension.h>
template <typename idx_t>
__global__ void gather_rows(const float* src, const idx_t* idx, float* out, int rows, int cols) {
    int r = blockIdx.x;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) out[r * cols + c] = src[idx[r] * cols + c];
}
torch::Tensor gather(torch::Tensor src, torch::Tensor idx) {
    auto out = torch::empty({idx.size(0), src.size(1)}, src.options());
    AT_DISPATCH_INDEX_TYPES(idx.scalar_type(), "gather", [&] {
        gather_rows<scalar_t><<<idx.size(0), 128>>>(src.data_ptr<float>(), idx.data_ptr<scalar_t>(),
                                                     out.data_ptr<float>(), idx.size(0), src.size(1));
    });
    return out;
}
""",
    # PyTorch's internal block reduction helper called without its header
    "fresh7_nvcc_torch_block_reduce_sum_internal": r"""
#include <torch/extension.h>
__global__ void rms_kernel(const float* x, float* rms, int cols) {
    __shared__ float shared[32];
    float s = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) s += x[blockIdx.x * cols + c] * x[blockIdx.x * cols + c];
    s = at::native::cuda_utils::BlockReduceSum(s, shared);
    if (threadIdx.x == 0) rms[blockIdx.x] = sqrtf(s / cols);
}
torch::Tensor row_rms(torch::Tensor x) {
    auto out = torch::empty({x.size(0)}, x.options());
    rms_kernel<<<x.size(0), 256>>>(x.data_ptr<float>(), out.data_ptr<float>(), x.size(1));
    return out;
}
""",
    # at::ceil_div for the grid size with only torch/extension.h included
    "fresh7_nvcc_torch_ceil_div_grid": r"""
#include <torch/extension.h>
__global__ void relu_kernel(const float* x, float* y, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] = fmaxf(x[i], 0.f);
}
torch::Tensor relu(torch::Tensor x) {
    auto y = torch::empty_like(x);
    const int64_t n = x.numel();
    relu_kernel<<<at::ceil_div(n, int64_t{256}), 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
""",
    # AT_DISPATCH_V2 used with only torch/extension.h included
    "fresh7_nvcc_torch_dispatch_v2_missing_header": r"""
#include <torch/extension.h>
template <typename scalar_t>
__global__ void neg_kernel(const scalar_t* x, scalar_t* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = -x[i];
}
torch::Tensor neg(torch::Tensor x) {
    auto y = torch::empty_like(x);
    const int n = x.numel();
    AT_DISPATCH_V2(x.scalar_type(), "neg", AT_WRAP([&] {
        neg_kernel<scalar_t><<<(n + 255) / 256, 256>>>(x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), n);
    }), AT_EXPAND(AT_FLOATING_TYPES), at::kHalf, at::kBFloat16);
    return y;
}
""",
}

GCC_CASES: dict[str, str] = {
    # at::vec::max for an elementwise SIMD max (the function is at::vec::maximum)
    "fresh7_gcc_vec_max_wrong_name": r"""
#include <torch/extension.h>
#include <ATen/cpu/vec/vec.h>
torch::Tensor relu(torch::Tensor x) {
    using Vec = at::vec::Vectorized<float>;
    auto y = torch::empty_like(x);
    const float* px = x.data_ptr<float>();
    float* py = y.data_ptr<float>();
    const Vec zero(0.f);
    for (int64_t i = 0; i + Vec::size() <= x.numel(); i += Vec::size())
        at::vec::max(Vec::loadu(px + i), zero).store(py + i);
    return y;
}
""",
    # per-thread scratch buffer marked threadprivate although it is a local variable
    "fresh7_gcc_omp_threadprivate_local": r"""
#include <torch/extension.h>
torch::Tensor row_softmax(torch::Tensor x) {
    auto y = torch::empty_like(x);
    const int64_t R = x.size(0), C = x.size(1);
    const float* px = x.data_ptr<float>();
    float* py = y.data_ptr<float>();
    std::vector<float> scratch(C);
    #pragma omp threadprivate(scratch)
    #pragma omp parallel for
    for (int64_t r = 0; r < R; ++r) {
        float m = px[r * C], s = 0.f;
        for (int64_t c = 1; c < C; ++c) m = std::max(m, px[r * C + c]);
        for (int64_t c = 0; c < C; ++c) s += (scratch[c] = std::exp(px[r * C + c] - m));
        for (int64_t c = 0; c < C; ++c) py[r * C + c] = scratch[c] / s;
    }
    return y;
}
""",
    # schedule chunk size computed as a floating-point expression
    "fresh7_gcc_omp_schedule_float_chunk": r"""
#include <torch/extension.h>
torch::Tensor sigmoid(torch::Tensor x) {
    auto y = torch::empty_like(x);
    const float* px = x.data_ptr<float>();
    float* py = y.data_ptr<float>();
    const int64_t n = x.numel();
    const double chunk = n / (4.0 * omp_get_max_threads());
    #pragma omp parallel for schedule(dynamic, chunk)
    for (int64_t i = 0; i < n; ++i) py[i] = 1.f / (1.f + std::exp(-px[i]));
    return y;
}
""",
    # py::arg annotations left at two after the function gained a third parameter
    "fresh7_gcc_pybind_arg_count_mismatch": r"""
#include <torch/extension.h>
torch::Tensor fused_bias_gelu(torch::Tensor x, torch::Tensor bias, bool approximate) {
    return torch::gelu(x + bias, approximate ? "tanh" : "none");
}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("fused_bias_gelu", &fused_bias_gelu, py::arg("x"), py::arg("bias"));
}
""",
    # torch::gelu's approximate argument given as a bool
    "fresh7_gcc_gelu_approximate_bool": r"""
#include <torch/extension.h>
torch::Tensor mlp_act(torch::Tensor x, torch::Tensor w) {
    return torch::gelu(torch::matmul(x, w.t()), /*approximate=*/true);
}
""",
    # accessor indexed with a call operator, acc(i, j), instead of acc[i][j]
    "fresh7_gcc_accessor_call_operator": r"""
#include <torch/extension.h>
torch::Tensor transpose2d(torch::Tensor x) {
    auto y = torch::empty({x.size(1), x.size(0)}, x.options());
    auto xa = x.accessor<float, 2>();
    auto ya = y.accessor<float, 2>();
    for (int64_t i = 0; i < x.size(0); ++i)
        for (int64_t j = 0; j < x.size(1); ++j) ya(j, i) = xa(i, j);
    return y;
}
""",
    # per-channel sums reduced as an array section of a std::vector
    "fresh7_gcc_omp_reduction_vector_section": r"""
#include <torch/extension.h>
torch::Tensor channel_sum(torch::Tensor x) {
    const int64_t N = x.size(0), C = x.size(1);
    const float* px = x.data_ptr<float>();
    std::vector<float> sums(C, 0.f);
    #pragma omp parallel for reduction(+ : sums[:C])
    for (int64_t n = 0; n < N; ++n)
        for (int64_t c = 0; c < C; ++c) sums[c] += px[n * C + c];
    return torch::tensor(sums);
}
""",
    # Python's @ matmul operator in C++
    "fresh7_gcc_python_matmul_operator": r"""
#include <torch/extension.h>
torch::Tensor linear(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
    return x @ w.t() + b;
}
""",
    # Python's ** power operator on a tensor
    "fresh7_gcc_python_power_operator": r"""
#include <torch/extension.h>
torch::Tensor rms_norm(torch::Tensor x, torch::Tensor w, double eps) {
    auto ms = (x ** 2).mean(-1, /*keepdim=*/true);
    return x * torch::rsqrt(ms + eps) * w;
}
""",
    # torch::swish, a name the C++ API does not have (it is torch::silu)
    "fresh7_gcc_torch_swish_name": r"""
#include <torch/extension.h>
torch::Tensor swiglu(torch::Tensor gate, torch::Tensor up) {
    return torch::swish(gate) * up;
}
""",
    # sigmoid called as a Vectorized member function, which it is not
    "fresh7_gcc_vectorized_sigmoid_member": r"""
#include <torch/extension.h>
#include <ATen/cpu/vec/vec.h>
torch::Tensor silu(torch::Tensor x) {
    using Vec = at::vec::Vectorized<float>;
    auto y = torch::empty_like(x);
    const float* px = x.data_ptr<float>();
    float* py = y.data_ptr<float>();
    for (int64_t i = 0; i + Vec::size() <= x.numel(); i += Vec::size()) {
        Vec v = Vec::loadu(px + i);
        (v * v.sigmoid()).store(py + i);
    }
    return y;
}
""",
    # max and min reductions written as one reduction clause with two operators
    "fresh7_gcc_omp_reduction_two_operators": r"""
#include <torch/extension.h>
std::vector<double> value_range(torch::Tensor x) {
    const float* px = x.data_ptr<float>();
    float lo = px[0], hi = px[0];
    #pragma omp parallel for reduction(min : lo, max : hi)
    for (int64_t i = 1; i < x.numel(); ++i) {
        lo = std::min(lo, px[i]);
        hi = std::max(hi, px[i]);
    }
    return {lo, hi};
}
""",
    # Python's .indices field read off the tuple that topk returns
    "fresh7_gcc_topk_indices_field": r"""
#include <torch/extension.h>
torch::Tensor topk_mask(torch::Tensor scores, int64_t k) {
    auto idx = torch::topk(scores, k, /*dim=*/-1).indices;
    return torch::zeros_like(scores).scatter_(-1, idx, 1.0);
}
""",
}


# --- Triton ---------------------------------------------------------------------------------


@triton.jit
def _row_sum(ptr, N: tl.constexpr):
    cols = tl.arange(0, N)
    return tl.sum(tl.load(ptr + cols), axis=0)


@triton.jit
def helper_constexpr_from_runtime(x_ptr, y_ptr, n_cols):
    row = tl.program_id(0)
    tl.store(y_ptr + row, _row_sum(x_ptr + row * n_cols, n_cols))


@triton.jit
def len_of_block(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr, tl.sum(x, axis=0) / len(x))


@triton.jit
def to_rounding_keyword(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, x.to(tl.float16, rounding="rtz"), mask=offs < n)


@triton.jit
def float_of_reduction(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    amax = float(tl.max(tl.abs(x), axis=0))
    tl.store(y_ptr + offs, x / amax, mask=offs < n)


@triton.jit
def zeros_dtype_string(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype="float32")
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + tl.arange(0, BLOCK), acc)


@triton.jit
def store_cache_modifier_ca(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, x * x, mask=offs < n, cache_modifier=".ca")


@triton.jit
def log1p_not_in_tl(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, tl.log1p(tl.exp(x)), mask=offs < n)


@triton.jit
def softmax_axis_keyword(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, tl.softmax(x, axis=0))


@triton.jit
def randn_dtype_keyword(y_ptr, seed, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    noise = tl.randn(seed, offs, dtype=tl.float16)
    tl.store(y_ptr + offs, noise, mask=offs < n)


@triton.jit
def max_return_indices_as_tensor(x_ptr, y_ptr, BM: tl.constexpr, BN: tl.constexpr):
    offs = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
    x = tl.load(x_ptr + offs)
    m = tl.max(x, axis=1, return_indices=True)
    tl.store(y_ptr + offs, tl.exp(x - m[:, None]))


@triton.jit
def fp8_amd_type_on_nvidia(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    q = x.to(tl.float8e4b8)
    tl.store(y_ptr + offs, q.to(tl.float32), mask=offs < n)


@triton.jit
def for_over_tensor_elements(x_ptr, y_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    total = 0.0
    for v in x:
        total += v
    tl.store(y_ptr, total)


F32, F16 = "*fp32", "*fp16"
UNARY_SIG = {"x_ptr": F32, "y_ptr": F32, "n": "i32", "BLOCK": "constexpr"}
ROW_SIG = {"x_ptr": F32, "y_ptr": F32, "BLOCK": "constexpr"}

# name: (kernel, signature, constexprs)
TRITON_CASES = {
    "fresh7_triton_helper_constexpr_from_runtime": (
        helper_constexpr_from_runtime,
        {"x_ptr": F32, "y_ptr": F32, "n_cols": "i32"},
        {},
    ),
    "fresh7_triton_len_of_block": (len_of_block, ROW_SIG, {"BLOCK": 128}),
    "fresh7_triton_to_rounding_keyword": (
        to_rounding_keyword,
        {**UNARY_SIG, "y_ptr": F16},
        {"BLOCK": 128},
    ),
    "fresh7_triton_float_of_reduction": (float_of_reduction, UNARY_SIG, {"BLOCK": 128}),
    "fresh7_triton_zeros_dtype_string": (zeros_dtype_string, UNARY_SIG, {"BLOCK": 128}),
    "fresh7_triton_store_cache_modifier_ca": (
        store_cache_modifier_ca,
        UNARY_SIG,
        {"BLOCK": 128},
    ),
    "fresh7_triton_log1p_not_in_tl": (log1p_not_in_tl, UNARY_SIG, {"BLOCK": 128}),
    "fresh7_triton_softmax_axis_keyword": (softmax_axis_keyword, ROW_SIG, {"BLOCK": 128}),
    "fresh7_triton_randn_dtype_keyword": (
        randn_dtype_keyword,
        {"y_ptr": F16, "seed": "i32", "n": "i32", "BLOCK": "constexpr"},
        {"BLOCK": 128},
    ),
    "fresh7_triton_max_return_indices_as_tensor": (
        max_return_indices_as_tensor,
        {"x_ptr": F32, "y_ptr": F32, "BM": "constexpr", "BN": "constexpr"},
        {"BM": 16, "BN": 16},
    ),
    "fresh7_triton_fp8_amd_type_on_nvidia": (
        fp8_amd_type_on_nvidia,
        UNARY_SIG,
        {"BLOCK": 128},
    ),
    "fresh7_triton_for_over_tensor_elements": (
        for_over_tensor_elements,
        ROW_SIG,
        {"BLOCK": 128},
    ),
}


if __name__ == "__main__":
    capture_main(__doc__, NVCC_CASES, TRITON_CASES, GCC_CASES, NVCC_TORCH_CASES)
