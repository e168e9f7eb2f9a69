"""Sixth blind error set: mistakes captured before anyone ran retrieval on them.

Run: python benchmarks/retrieval/capture/fresh6_cases.py [--out DIR] [case ...]
Every case is a mistake not already in the other capture scripts. nvcc cases compile with
`nvcc -c -arch=sm_90a` (TORCH ones add torch's headers, about 80 s each); g++ cases use
`g++ -std=c++20 -fsyntax-only -fopenmp` with torch's include paths and the
TORCH_EXTENSION_NAME define, as load_inline compiles; Triton cases compile ahead of time for
`GPUTarget("cuda", 90, 32)` (no GPU needed). The Triton kernels live in this file because
Triton reads a kernel's source. Logs go to DIR/fresh6_<case>.log (default ../logs/); machine
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
    # bf16 conversion spelled like the half one (__float2half -> __float2bf16)
    "fresh6_nvcc_float2bf16_wrong_name": r"""
#include <cuda_bf16.h>
__global__ void to_bf16(const float* x, __nv_bfloat16* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = __float2bf16(x[i]);
}
""",
    # two FP8 values multiplied directly, as if the type had arithmetic
    "fresh6_nvcc_fp8_arithmetic": r"""
#include <cuda_fp8.h>
__global__ void fp8_scaled_mul(const __nv_fp8_e4m3* a, const __nv_fp8_e4m3* b, float* c,
                               float scale, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = (a[i] * b[i]) * scale;
}
""",
    # __floats2half2_rn (two floats) given one float2; __float22half2_rn is the float2 one
    "fresh6_nvcc_floats2half2_one_argument": r"""
#include <cuda_fp16.h>
__global__ void pack_half2(const float2* x, __half2* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = __floats2half2_rn(x[i]);
}
""",
    # FP8 conversion intrinsic called without its interpretation argument
    "fresh6_nvcc_cvt_fp8_missing_interpretation": r"""
#include <cuda_fp8.h>
__global__ void quantize(const float* x, __nv_fp8_storage_t* q, float inv_scale, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) q[i] = __nv_cvt_float_to_fp8(x[i] * inv_scale, __NV_SATFINITE);
}
""",
    # runtime-sized tiled_partition stored in a compile-time thread_block_tile
    "fresh6_nvcc_tiled_partition_runtime_to_static": r"""
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void warp_sums(const float* x, float* out, int n) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition(block, 32);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.f;
    for (int off = warp.size() / 2; off > 0; off /= 2) v += warp.shfl_down(v, off);
    if (warp.thread_rank() == 0) out[i / 32] = v;
}
""",
    # wmma accumulator fragment declared with a layout, as the A/B fragments are
    "fresh6_nvcc_wmma_accumulator_with_layout": r"""
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;
__global__ void hgemm_tile(const half* a, const half* b, float* c, int k) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float, wmma::row_major> acc;
    wmma::fill_fragment(acc, 0.f);
    for (int t = 0; t < k; t += 16) {
        wmma::load_matrix_sync(fa, a + t, k);
        wmma::load_matrix_sync(fb, b + t, k);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}
""",
    # CUTLASS included as if it shipped with the toolkit
    "fresh6_nvcc_cutlass_header_not_found": r"""
#include <cutlass/gemm/device/gemm.h>
using Gemm = cutlass::gemm::device::Gemm<float, cutlass::layout::RowMajor, float,
                                         cutlass::layout::RowMajor, float,
                                         cutlass::layout::RowMajor>;
cutlass::Status run_gemm(int M, int N, int K, const float* A, const float* B, float* C) {
    Gemm gemm;
    return gemm({{M, N, K}, {A, K}, {B, N}, {C, N}, {C, N}, {1.f, 0.f}});
}
""",
    # half activation multiplied by a bf16 gate with __hmul
    "fresh6_nvcc_hmul_half_times_bf16": r"""
#include <cuda_fp16.h>
#include <cuda_bf16.h>
__global__ void gated(const __half* x, const __nv_bfloat16* gate, __half* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = __hmul(x[i], gate[i]);
}
""",
    # DSMEM pointer to a peer block's shared memory taken without naming the peer's rank
    "fresh6_nvcc_cluster_map_shared_rank_missing_rank": r"""
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void __cluster_dims__(2, 1, 1) dsmem_sum(const float* x, float* out) {
    __shared__ float buf[128];
    cg::cluster_group cluster = cg::this_cluster();
    buf[threadIdx.x] = x[blockIdx.x * 128 + threadIdx.x];
    cluster.sync();
    float* peer = cluster.map_shared_rank(buf);
    out[blockIdx.x * 128 + threadIdx.x] = buf[threadIdx.x] + peer[threadIdx.x];
    cluster.sync();
}
""",
    # all conv weights passed to the kernel by value in a struct
    "fresh6_nvcc_weights_struct_by_value": r"""
struct ConvWeights { float w[64][3][7][7]; };
__global__ void conv7x7(const float* x, float* y, ConvWeights weights, int H, int W) {
    int oc = blockIdx.y;
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= H * W) return;
    float acc = 0.f;
    for (int ic = 0; ic < 3; ++ic)
        for (int k = 0; k < 49; ++k) acc += weights.w[oc][ic][k / 7][k % 7] * x[ic * H * W + p];
    y[oc * H * W + p] = acc;
}
""",
    # opting in to >48 KB dynamic shared memory without giving the size
    "fresh6_nvcc_func_set_attribute_missing_value": r"""
__global__ void big_tile(const float* x, float* y, int n) {
    extern __shared__ float tile[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = i < n ? x[i] : 0.f;
    __syncthreads();
    if (i < n) y[i] = tile[blockDim.x - 1 - threadIdx.x];
}
void launch(const float* x, float* y, int n) {
    size_t smem = 96 * 1024;
    cudaFuncSetAttribute(big_tile, cudaFuncAttributeMaxDynamicSharedMemorySize);
    big_tile<<<(n + 255) / 256, 256, smem>>>(x, y, n);
}
""",
}

# Kernels that include torch headers, as load_inline's cuda_sources do.
NVCC_TORCH_CASES: dict[str, str] = {
    # _AND (one extra type) used with two extra types instead of _AND2
    "fresh6_nvcc_torch_dispatch_and_two_types": r"""
#include <torch/extension.h>
template <typename scalar_t>
__global__ void silu_kernel(const scalar_t* x, scalar_t* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = static_cast<float>(x[i]);
        y[i] = static_cast<scalar_t>(v / (1.f + __expf(-v)));
    }
}
torch::Tensor silu(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    AT_DISPATCH_FLOATING_TYPES_AND(at::ScalarType::Half, at::ScalarType::BFloat16, x.scalar_type(),
                                   "silu", [&] {
        silu_kernel<scalar_t><<<(n + 255) / 256, 256>>>(x.data_ptr<scalar_t>(),
                                                         y.data_ptr<scalar_t>(), n);
    });
    return y;
}
""",
    # an invented dispatch macro name covering half and bfloat16
    "fresh6_nvcc_torch_dispatch_invented_macro": r"""
#include <torch/extension.h>
template <typename scalar_t>
__global__ void square_kernel(const scalar_t* x, scalar_t* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * x[i];
}
torch::Tensor square(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    AT_DISPATCH_FLOATING_TYPES_AND_HALF_AND_BFLOAT16(x.scalar_type(), "square", [&] {
        square_kernel<scalar_t><<<(n + 255) / 256, 256>>>(x.data_ptr<scalar_t>(),
                                                           y.data_ptr<scalar_t>(), n);
    });
    return y;
}
""",
    # at::acc_type used for the accumulator without <ATen/AccumulateType.h>
    "fresh6_nvcc_torch_acc_type_missing_header": r"""
#include <torch/extension.h>
template <typename scalar_t>
__global__ void row_sum_kernel(const scalar_t* x, scalar_t* out, int cols) {
    using acc_t = at::acc_type<scalar_t, true>;
    acc_t s = 0;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) s += static_cast<acc_t>(x[blockIdx.x * cols + c]);
    for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
    if (threadIdx.x == 0) out[blockIdx.x] = static_cast<scalar_t>(s);
}
torch::Tensor row_sum(torch::Tensor x) {
    auto out = torch::empty({x.size(0)}, x.options());
    AT_DISPATCH_FLOATING_TYPES_AND_HALF(x.scalar_type(), "row_sum", [&] {
        row_sum_kernel<scalar_t><<<x.size(0), 32>>>(x.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(),
                                                     x.size(1));
    });
    return out;
}
""",
    # Caffe2's CUDA_KERNEL_LOOP grid-stride macro, which torch/extension.h does not provide
    "fresh6_nvcc_torch_cuda_kernel_loop_macro": r"""
#include <torch/extension.h>
__global__ void leaky_relu_kernel(const float* x, float* y, float slope, int n) {
    CUDA_KERNEL_LOOP(i, n) {
        float v = x[i];
        y[i] = v > 0.f ? v : slope * v;
    }
}
torch::Tensor leaky_relu(torch::Tensor x, double slope) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    leaky_relu_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(),
                                                static_cast<float>(slope), n);
    return y;
}
""",
}

GCC_CASES: dict[str, str] = {
    # Python's out= habit: the result tensor passed as a third argument to matmul
    "fresh6_gcc_matmul_out_argument": r"""
#include <torch/extension.h>
torch::Tensor linear_no_bias(torch::Tensor x, torch::Tensor w) {
    auto y = torch::empty({x.size(0), w.size(0)}, x.options());
    torch::matmul(x, w.t(), y);
    return y;
}
""",
    # is_causal passed positionally into the attn_mask slot of SDPA
    "fresh6_gcc_sdpa_is_causal_in_mask_slot": r"""
#include <torch/extension.h>
torch::Tensor causal_attn(torch::Tensor q, torch::Tensor k, torch::Tensor v) {
    return torch::scaled_dot_product_attention(q, k, v, true);
}
""",
    # FP8 element type spelled without its fn suffix
    "fresh6_gcc_float8_type_wrong_name": r"""
#include <torch/extension.h>
torch::Tensor dequant_fp8(torch::Tensor q, double scale) {
    auto y = torch::empty(q.sizes(), q.options().dtype(torch::kFloat));
    const auto* pq = q.data_ptr<c10::Float8_e4m3>();
    float* py = y.data_ptr<float>();
    for (int64_t i = 0; i < q.numel(); ++i) py[i] = static_cast<float>(pq[i]) * scale;
    return y;
}
""",
    # C's float-suffixed math functions called through std::
    "fresh6_gcc_std_expf": r"""
#include <torch/extension.h>
torch::Tensor softplus(torch::Tensor x) {
    auto y = torch::empty_like(x);
    const float* px = x.data_ptr<float>();
    float* py = y.data_ptr<float>();
    #pragma omp parallel for
    for (int64_t i = 0; i < x.numel(); ++i) py[i] = std::log1pf(std::expf(px[i]));
    return y;
}
""",
    # early return for bad input inside an OpenMP parallel loop
    "fresh6_gcc_omp_return_in_loop": r"""
#include <torch/extension.h>
torch::Tensor safe_log(torch::Tensor x) {
    auto y = torch::empty_like(x);
    const float* px = x.data_ptr<float>();
    float* py = y.data_ptr<float>();
    #pragma omp parallel for
    for (int64_t i = 0; i < x.numel(); ++i) {
        if (px[i] <= 0.f) return torch::full_like(x, NAN);
        py[i] = std::log(px[i]);
    }
    return y;
}
""",
    # the accumulator listed both as private and as a reduction variable
    "fresh6_gcc_omp_private_and_reduction": r"""
#include <torch/extension.h>
torch::Tensor l2_norm(torch::Tensor x) {
    const float* px = x.data_ptr<float>();
    double acc = 0.0;
    #pragma omp parallel for private(acc) reduction(+ : acc)
    for (int64_t i = 0; i < x.numel(); ++i) acc += static_cast<double>(px[i]) * px[i];
    return torch::tensor(std::sqrt(acc));
}
""",
    # C99's restrict keyword on a C++ parameter
    "fresh6_gcc_c99_restrict_keyword": r"""
#include <torch/extension.h>
static void axpy(int64_t n, float a, const float* restrict x, float* restrict y) {
    for (int64_t i = 0; i < n; ++i) y[i] += a * x[i];
}
torch::Tensor axpy_op(torch::Tensor x, torch::Tensor y, double a) {
    auto out = y.clone();
    axpy(x.numel(), static_cast<float>(a), x.data_ptr<float>(), out.data_ptr<float>());
    return out;
}
""",
    # nowait put on a combined parallel for
    "fresh6_gcc_omp_parallel_for_nowait": r"""
#include <torch/extension.h>
torch::Tensor gelu_tanh(torch::Tensor x) {
    auto y = torch::empty_like(x);
    const float* px = x.data_ptr<float>();
    float* py = y.data_ptr<float>();
    const int64_t n = x.numel();
    #pragma omp parallel for schedule(static) nowait
    for (int64_t i = 0; i < n; ++i) {
        float v = px[i];
        py[i] = 0.5f * v * (1.f + std::tanh(0.7978845608f * (v + 0.044715f * v * v * v)));
    }
    return y;
}
""",
    # argmax as an OpenMP max reduction over a (value, index) pair
    "fresh6_gcc_omp_reduction_on_pair": r"""
#include <utility>
#include <torch/extension.h>
int64_t argmax_flat(torch::Tensor x) {
    const float* px = x.data_ptr<float>();
    std::pair<float, int64_t> best{px[0], 0};
    #pragma omp parallel for reduction(max : best)
    for (int64_t i = 1; i < x.numel(); ++i)
        if (px[i] > best.first) best = {px[i], i};
    return best.second;
}
""",
    # early-exit condition folded into the OpenMP loop test
    "fresh6_gcc_omp_loop_condition_with_and": r"""
#include <torch/extension.h>
bool all_finite(torch::Tensor x) {
    const float* px = x.data_ptr<float>();
    const int64_t n = x.numel();
    bool ok = true;
    #pragma omp parallel for
    for (int64_t i = 0; i < n && ok; ++i)
        if (!std::isfinite(px[i])) ok = false;
    return ok;
}
""",
    # omp atomic update on a c10::Half accumulator
    "fresh6_gcc_omp_atomic_on_half": r"""
#include <torch/extension.h>
torch::Tensor scatter_add_half(torch::Tensor src, torch::Tensor idx, int64_t bins) {
    auto out = torch::zeros({bins}, src.options());
    const at::Half* ps = src.data_ptr<at::Half>();
    const int64_t* pi = idx.data_ptr<int64_t>();
    at::Half* po = out.data_ptr<at::Half>();
    #pragma omp parallel for
    for (int64_t i = 0; i < src.numel(); ++i) {
        #pragma omp atomic
        po[pi[i]] += ps[i];
    }
    return out;
}
""",
    # convert_to_float on a Half vector returns two float vectors, kept as one
    "fresh6_gcc_convert_to_float_returns_pair": r"""
#include <torch/extension.h>
#include <ATen/cpu/vec/vec.h>
torch::Tensor half_sum(torch::Tensor x) {
    using fVec = at::vec::Vectorized<float>;
    using hVec = at::vec::Vectorized<at::Half>;
    const at::Half* px = x.data_ptr<at::Half>();
    fVec acc(0.f);
    for (int64_t i = 0; i + hVec::size() <= x.numel(); i += hVec::size()) {
        fVec f = at::vec::convert_to_float<at::Half>(hVec::loadu(px + i));
        acc = acc + f;
    }
    return torch::tensor(at::vec::vec_reduce_all<float>([](fVec& a, fVec& b) { return a + b; }, acc));
}
""",
    # index_select given a std::vector of indices instead of an index tensor
    "fresh6_gcc_index_select_with_vector": r"""
#include <torch/extension.h>
torch::Tensor pick_channels(torch::Tensor x) {
    std::vector<int64_t> keep{0, 2, 4, 6};
    return x.index_select(1, keep);
}
""",
    # keepdim output shape made by writing into x.sizes()
    "fresh6_gcc_write_into_sizes": r"""
#include <torch/extension.h>
torch::Tensor row_max_keepdim(torch::Tensor x) {
    auto shape = x.sizes();
    shape[1] = 1;
    auto y = torch::empty(shape, x.options());
    const int64_t R = x.size(0), C = x.size(1);
    const float* px = x.data_ptr<float>();
    float* py = y.data_ptr<float>();
    for (int64_t r = 0; r < R; ++r) {
        float m = px[r * C];
        for (int64_t c = 1; c < C; ++c) m = std::max(m, px[r * C + c]);
        py[r] = m;
    }
    return y;
}
""",
    # switch on x.dtype() (a TypeMeta) rather than x.scalar_type()
    "fresh6_gcc_switch_on_dtype": r"""
#include <torch/extension.h>
double total(torch::Tensor x) {
    switch (x.dtype()) {
        case torch::kFloat: return x.sum().item<float>();
        case torch::kDouble: return x.sum().item<double>();
        default: TORCH_CHECK(false, "unsupported dtype");
    }
}
""",
}


# --- Triton ---------------------------------------------------------------------------------


@triton.jit
def where_missing_other(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    y = tl.where(x > 0, x)
    tl.store(y_ptr + offs, y, mask=offs < n)


@triton.jit
def dot_accumulator_keyword(
    a_ptr, b_ptr, c_ptr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr
):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    a = tl.load(a_ptr + rm[:, None] * BK + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * BN + rn[None, :])
    acc = tl.dot(a, b, accumulator=acc)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)


@triton.jit
def load_dtype_keyword(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0, dtype=tl.float32)
    tl.store(y_ptr + offs, x * x, mask=offs < n)


@triton.jit
def clamp_min_keyword(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, tl.clamp(x, min=0.0), mask=offs < n)


@triton.jit
def gather_without_axis(x_ptr, idx_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    idx = tl.load(idx_ptr + offs)
    tl.store(y_ptr + offs, tl.gather(x, idx))


@triton.jit
def defined_in_one_branch(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    if tl.program_id(0) == 0:
        scale = tl.max(tl.abs(x), axis=0)
    tl.store(y_ptr + offs, x / scale, mask=offs < n)


@triton.jit
def atomic_sem_spelling(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.atomic_add(y_ptr, tl.sum(x, axis=0), sem="acquire_release")


@triton.jit
def bitwise_and_on_float(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, x & 0x7FFFFFFF, mask=offs < n)


@triton.jit
def cumsum_exclusive_keyword(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, tl.cumsum(x, axis=0, exclusive=True))


@triton.jit
def sort_axis_keyword(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, tl.sort(x, axis=0, descending=True))


@triton.jit
def floor_by_floordiv(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, x - (x // 1.0), mask=offs < n)


@triton.jit
def rotary_halves_by_slicing(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    x1 = x[: BLOCK // 2]
    x2 = x[BLOCK // 2 :]
    tl.store(y_ptr + tl.arange(0, BLOCK // 2), x1 * x2)


@triton.jit
def fp8_dot_k16(a_ptr, b_ptr, c_ptr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(a_ptr + rm[:, None] * BK + rk[None, :]).to(tl.float8e4nv)
    b = tl.load(b_ptr + rk[:, None] * BN + rn[None, :]).to(tl.float8e4nv)
    c = tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], c)


@triton.jit
def histogram_of_floats(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + tl.arange(0, 32), tl.histogram(x, 32))


@triton.jit
def range_num_stage_typo(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in tl.range(0, n, BLOCK, num_stage=3):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + tl.arange(0, BLOCK), acc)


F32, F16 = "*fp32", "*fp16"
UNARY_SIG = {"x_ptr": F32, "y_ptr": F32, "n": "i32", "BLOCK": "constexpr"}
ROW_SIG = {"x_ptr": F32, "y_ptr": F32, "BLOCK": "constexpr"}
TILE_SIG = {"x_ptr": F32, "y_ptr": F32, "BM": "constexpr", "BN": "constexpr"}
DOT_SIG = {
    "a_ptr": F32,
    "b_ptr": F32,
    "c_ptr": F32,
    "BM": "constexpr",
    "BN": "constexpr",
    "BK": "constexpr",
}
DOT_SIZES = {"BM": 32, "BN": 32, "BK": 32}

# name: (kernel, signature, constexprs)
TRITON_CASES = {
    "fresh6_triton_where_missing_other": (
        where_missing_other,
        UNARY_SIG,
        {"BLOCK": 128},
    ),
    "fresh6_triton_dot_accumulator_keyword": (
        dot_accumulator_keyword,
        {**DOT_SIG, "a_ptr": F16, "b_ptr": F16},
        DOT_SIZES,
    ),
    "fresh6_triton_load_dtype_keyword": (load_dtype_keyword, UNARY_SIG, {"BLOCK": 128}),
    "fresh6_triton_clamp_min_keyword": (clamp_min_keyword, UNARY_SIG, {"BLOCK": 128}),
    "fresh6_triton_gather_without_axis": (
        gather_without_axis,
        {"x_ptr": F32, "idx_ptr": "*i32", "y_ptr": F32, "BLOCK": "constexpr"},
        {"BLOCK": 128},
    ),
    "fresh6_triton_defined_in_one_branch": (
        defined_in_one_branch,
        UNARY_SIG,
        {"BLOCK": 128},
    ),
    "fresh6_triton_atomic_sem_spelling": (
        atomic_sem_spelling,
        UNARY_SIG,
        {"BLOCK": 128},
    ),
    "fresh6_triton_bitwise_and_on_float": (
        bitwise_and_on_float,
        UNARY_SIG,
        {"BLOCK": 128},
    ),
    "fresh6_triton_cumsum_exclusive_keyword": (
        cumsum_exclusive_keyword,
        ROW_SIG,
        {"BLOCK": 128},
    ),
    "fresh6_triton_sort_axis_keyword": (sort_axis_keyword, ROW_SIG, {"BLOCK": 128}),
    "fresh6_triton_floor_by_floordiv": (floor_by_floordiv, UNARY_SIG, {"BLOCK": 128}),
    "fresh6_triton_rotary_halves_by_slicing": (
        rotary_halves_by_slicing,
        ROW_SIG,
        {"BLOCK": 64},
    ),
    "fresh6_triton_fp8_dot_k16": (fp8_dot_k16, DOT_SIG, {"BM": 64, "BN": 64, "BK": 16}),
    "fresh6_triton_histogram_of_floats": (histogram_of_floats, ROW_SIG, {"BLOCK": 128}),
    "fresh6_triton_range_num_stage_typo": (
        range_num_stage_typo,
        UNARY_SIG,
        {"BLOCK": 128},
    ),
}


if __name__ == "__main__":
    capture_main(__doc__, NVCC_CASES, TRITON_CASES, GCC_CASES, NVCC_TORCH_CASES)
