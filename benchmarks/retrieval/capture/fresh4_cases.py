"""Fourth blind error set: mistakes captured before anyone ran retrieval on them.

Run: python benchmarks/retrieval/capture/fresh4_cases.py [--out DIR] [case ...]
Every case is a mistake not already in the other capture scripts. nvcc cases compile with
`nvcc -c -arch=sm_90a` (TORCH ones add torch's headers, about 80 s each); g++ cases use
`g++ -std=c++20 -fsyntax-only -fopenmp` with torch's include paths and the
TORCH_EXTENSION_NAME define, as load_inline compiles; Triton cases compile ahead of time for
`GPUTarget("cuda", 90, 32)` (no GPU needed). The Triton kernels live in this file because
Triton reads a kernel's source. Logs go to DIR/fresh4_<case>.log (default ../logs/); machine
paths become <site-packages>/, <python-include>/, <python>/ and <repo>/.
"""
# ruff: noqa: F841, B007, E731

from __future__ import annotations

import os

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")

import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from _capture import capture_main  # noqa: E402

NVCC_CASES: dict[str, str] = {
    # online-softmax (max, sum) pair shuffled as one float2
    "fresh4_nvcc_shfl_float2_pair": r"""
__global__ void online_softmax_stats(const float* x, float2* stats, int cols) {
    float2 ms = make_float2(-INFINITY, 0.f);
    for (int c = threadIdx.x; c < cols; c += 32) {
        float v = x[blockIdx.x * cols + c];
        float m = fmaxf(ms.x, v);
        ms.y = ms.y * __expf(ms.x - m) + __expf(v - m);
        ms.x = m;
    }
    for (int off = 16; off > 0; off >>= 1) {
        float2 o = __shfl_xor_sync(0xffffffffu, ms, off);
        float m = fmaxf(ms.x, o.x);
        ms.y = ms.y * __expf(ms.x - m) + o.y * __expf(o.x - m);
        ms.x = m;
    }
    if (threadIdx.x == 0) stats[blockIdx.x] = ms;
}
""",
    # __launch_bounds__ written after the parameter list
    "fresh4_nvcc_launch_bounds_after_params": r"""
__global__ void silu(const float* __restrict__ x, float* __restrict__ y, int n) __launch_bounds__(256) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] / (1.f + __expf(-x[i]));
}
""",
    # two kernels in one file declare the same extern __shared__ name with different types
    "fresh4_nvcc_extern_shared_redeclared": r"""
__global__ void row_max_kernel(const float* x, float* out, int cols) {
    extern __shared__ float smem[];
    float m = -INFINITY;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, x[blockIdx.x * cols + c]);
    smem[threadIdx.x] = m;
    __syncthreads();
    if (threadIdx.x == 0) { for (int t = 1; t < blockDim.x; ++t) m = fmaxf(m, smem[t]); out[blockIdx.x] = m; }
}
__global__ void row_argmax_kernel(const float* x, int* out, int cols) {
    extern __shared__ int smem[];
    int best = 0;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        if (x[blockIdx.x * cols + c] > x[blockIdx.x * cols + best]) best = c;
    smem[threadIdx.x] = best;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = smem[0];
}
""",
    # stream passed as the third launch parameter (that slot is the shared-memory size)
    "fresh4_nvcc_stream_in_shared_mem_slot": r"""
#include <cuda_runtime.h>
__global__ void gelu(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 0.5f * x[i] * (1.f + erff(x[i] * 0.70710678f));
}
void launch_gelu(const float* x, float* y, int n, cudaStream_t stream) {
    gelu<<<(n + 255) / 256, 256, stream>>>(x, y, n);
}
""",
    # grid size computed by dividing by a dim3 block
    "fresh4_nvcc_dim3_arithmetic": r"""
__global__ void transpose(const float* x, float* y, int rows, int cols) {
    __shared__ float tile[32][33];
    int c = blockIdx.x * 32 + threadIdx.x, r = blockIdx.y * 32 + threadIdx.y;
    if (r < rows && c < cols) tile[threadIdx.y][threadIdx.x] = x[r * cols + c];
    __syncthreads();
    c = blockIdx.y * 32 + threadIdx.x; r = blockIdx.x * 32 + threadIdx.y;
    if (r < cols && c < rows) y[r * rows + c] = tile[threadIdx.x][threadIdx.y];
}
void launch_transpose(const float* x, float* y, int rows, int cols) {
    dim3 block(32, 32);
    dim3 grid((cols + block - 1) / block, (rows + block - 1) / block);
    transpose<<<grid, block>>>(x, y, rows, cols);
}
""",
    # warpSize used as a compile-time array bound
    "fresh4_nvcc_warpsize_array_bound": r"""
__global__ void block_sum(const float* x, float* out, int n) {
    __shared__ float partial[1024 / warpSize];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.f;
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    if (threadIdx.x % warpSize == 0) partial[threadIdx.x / warpSize] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        float s = 0.f;
        for (int w = 0; w < blockDim.x / warpSize; ++w) s += partial[w];
        atomicAdd(out, s);
    }
}
""",
    # a __global__ kernel called like a function from another kernel
    "fresh4_nvcc_kernel_called_without_launch": r"""
__global__ void row_sum(const float* x, float* sums, int cols) {
    float s = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) s += x[blockIdx.x * cols + c];
    atomicAdd(&sums[blockIdx.x], s);
}
__global__ void row_normalize(const float* x, float* y, float* sums, int cols) {
    row_sum(x, sums, cols);
    __syncthreads();
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        y[blockIdx.x * cols + c] = x[blockIdx.x * cols + c] / sums[blockIdx.x];
}
""",
    # cudaDeviceSynchronize called inside a kernel to wait for other blocks
    "fresh4_nvcc_device_synchronize_in_kernel": r"""
__global__ void two_pass_mean(const float* x, float* total, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(total, x[i]);
    cudaDeviceSynchronize();
    if (i < n) y[i] = x[i] - *total / n;
}
""",
    # cp.async.cg issued for 4 bytes (cg only copies 16)
    "fresh4_nvcc_cp_async_cg_size": r"""
__global__ void stage_tile(const float* x, float* y, int n) {
    __shared__ float tile[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&tile[threadIdx.x]));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 4;\n" :: "r"(dst), "l"(x + i));
    asm volatile("cp.async.commit_group;\n" ::);
    asm volatile("cp.async.wait_group 0;\n" ::);
    __syncthreads();
    if (i < n) y[i] = tile[threadIdx.x] * 2.f;
}
""",
    # #pragma unroll given a runtime trip count
    "fresh4_nvcc_pragma_unroll_runtime": r"""
__global__ void conv1d(const float* x, const float* w, float* y, int n, int k) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + k > n) return;
    float acc = 0.f;
    #pragma unroll k
    for (int j = 0; j < k; ++j) acc += w[j] * x[i + j];
    y[i] = acc;
}
""",
    # __half2float applied to a __half2 in a vectorised half kernel
    "fresh4_nvcc_half2float_on_half2": r"""
#include <cuda_fp16.h>
__global__ void sigmoid_half2(const __half2* x, __half2* y, int n2) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n2) return;
    float v = __half2float(x[i]);
    y[i] = __float2half2_rn(1.f / (1.f + __expf(-v)));
}
""",
    # __hmul2 given a float scalar as its second operand
    "fresh4_nvcc_hmul2_float_scalar": r"""
#include <cuda_fp16.h>
__global__ void scale_half2(const __half2* x, __half2* y, float s, int n2) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n2) y[i] = __hmul2(x[i], s);
}
""",
    # warp-reduce helper defined below the kernel that calls it, with no declaration
    "fresh4_nvcc_device_helper_defined_after_use": r"""
__global__ void row_l2norm(const float* x, float* y, int cols) {
    float ss = 0.f;
    for (int c = threadIdx.x; c < cols; c += 32) ss += x[blockIdx.x * cols + c] * x[blockIdx.x * cols + c];
    ss = warp_reduce_sum(ss);
    float inv = rsqrtf(ss + 1e-12f);
    for (int c = threadIdx.x; c < cols; c += 32) y[blockIdx.x * cols + c] = x[blockIdx.x * cols + c] * inv;
}
__device__ float warp_reduce_sum(float v) {
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}
""",
    # cudaFuncSetAttribute on a kernel template named without its template arguments
    "fresh4_nvcc_func_attribute_template_kernel": r"""
#include <cuda_runtime.h>
template <int BM, int BN, int BK>
__global__ void gemm_tiled(const float* a, const float* b, float* c, int M, int N, int K) {
    extern __shared__ float smem[];
    float* as = smem;
    float* bs = smem + BM * BK;
    int row = blockIdx.y * BM + threadIdx.y, col = blockIdx.x * BN + threadIdx.x;
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += BK) {
        as[threadIdx.y * BK + threadIdx.x % BK] = a[row * K + k0 + threadIdx.x % BK];
        bs[(threadIdx.y % BK) * BN + threadIdx.x] = b[(k0 + threadIdx.y % BK) * N + col];
        __syncthreads();
        for (int k = 0; k < BK; ++k) acc += as[threadIdx.y * BK + k] * bs[k * BN + threadIdx.x];
        __syncthreads();
    }
    if (row < M && col < N) c[row * N + col] = acc;
}
void launch_gemm(const float* a, const float* b, float* c, int M, int N, int K) {
    size_t smem = (32 * 32 + 32 * 32) * sizeof(float);
    cudaFuncSetAttribute(gemm_tiled, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    gemm_tiled<32, 32, 32><<<dim3(N / 32, M / 32), dim3(32, 32), smem>>>(a, b, c, M, N, K);
}
""",
}

# Kernels that include torch headers, as load_inline's cuda_sources do.
NVCC_TORCH_CASES: dict[str, str] = {
    # CUDAGuard used without including its header
    "fresh4_nvcc_cuda_guard_missing_header": r"""
#include <torch/extension.h>
__global__ void relu_kernel(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = fmaxf(x[i], 0.f);
}
torch::Tensor relu(torch::Tensor x) {
    const c10::cuda::CUDAGuard device_guard(x.device());
    auto y = torch::empty_like(x);
    int n = x.numel();
    relu_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
""",
    # TORCH_CHECK used for a bounds check inside the kernel
    "fresh4_nvcc_torch_check_in_kernel": r"""
#include <torch/extension.h>
__global__ void embedding_kernel(const int64_t* idx, const float* table, float* out, int vocab, int dim, int n) {
    int i = blockIdx.x;
    if (i >= n) return;
    int64_t row = idx[i];
    TORCH_CHECK(row >= 0 && row < vocab, "index out of range");
    for (int d = threadIdx.x; d < dim; d += blockDim.x) out[i * dim + d] = table[row * dim + d];
}
torch::Tensor embedding(torch::Tensor idx, torch::Tensor table) {
    int n = idx.numel(), dim = table.size(1);
    auto out = torch::empty({n, dim}, table.options());
    embedding_kernel<<<n, 128>>>(idx.data_ptr<int64_t>(), table.data_ptr<float>(), out.data_ptr<float>(),
                                 table.size(0), dim, n);
    return out;
}
""",
}

GCC_CASES: dict[str, str] = {
    # functional max_pool2d given a plain int instead of its options object
    "fresh4_gcc_functional_options_plain_int": r"""
#include <torch/extension.h>
namespace F = torch::nn::functional;
torch::Tensor conv_pool(torch::Tensor x, torch::Tensor w) {
    auto y = F::conv2d(x, w, F::Conv2dFuncOptions().padding(1));
    return F::max_pool2d(torch::relu(y), 2);
}
""",
    # std::vector<int64_t> initialised from x.sizes()
    "fresh4_gcc_sizes_to_vector": r"""
#include <torch/extension.h>
torch::Tensor sum_last(torch::Tensor x) {
    std::vector<int64_t> shape = x.sizes();
    shape.pop_back();
    auto out = torch::zeros(shape, x.options());
    return out.copy_(x.sum(-1));
}
""",
    # a ScalarType value used as the data_ptr template argument
    "fresh4_gcc_data_ptr_scalar_type_value": r"""
#include <torch/extension.h>
torch::Tensor abs_val(torch::Tensor x) {
    auto y = torch::empty_like(x);
    auto px = x.data_ptr<torch::kFloat32>();
    auto py = y.data_ptr<torch::kFloat32>();
    for (int64_t i = 0; i < x.numel(); ++i) py[i] = std::fabs(px[i]);
    return y;
}
""",
    # torch::cumsum given an invented `exclusive` flag
    "fresh4_gcc_cumsum_invented_argument": r"""
#include <torch/extension.h>
torch::Tensor exclusive_cumsum(torch::Tensor x, int64_t dim) {
    return torch::cumsum(x, dim, /*exclusive=*/true);
}
""",
    # a function template bound to Python without picking an instantiation
    "fresh4_gcc_bind_function_template": r"""
#include <torch/extension.h>
template <typename T>
torch::Tensor clamp_kernel(torch::Tensor x, T lo, T hi) {
    return torch::clamp(x, lo, hi);
}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("clamp", &clamp_kernel, "clamp");
}
""",
    # torch::batch_norm missing its trailing cudnn_enabled argument
    "fresh4_gcc_batch_norm_missing_cudnn_flag": r"""
#include <torch/extension.h>
torch::Tensor bn_relu(torch::Tensor x, torch::Tensor w, torch::Tensor b,
                      torch::Tensor running_mean, torch::Tensor running_var) {
    auto y = torch::batch_norm(x, w, b, running_mean, running_var, false, 0.1, 1e-5);
    return torch::relu(y);
}
""",
    # horizontal sum of a Vectorized register as a member call
    "fresh4_gcc_vectorized_reduce_member": r"""
#include <torch/extension.h>
#include <ATen/cpu/vec/vec.h>
torch::Tensor sum_all(torch::Tensor x) {
    using Vec = at::vec::Vectorized<float>;
    const float* px = x.data_ptr<float>();
    int64_t n = x.numel(), i = 0;
    Vec acc(0.f);
    for (; i + Vec::size() <= n; i += Vec::size()) acc += Vec::loadu(px + i);
    float total = acc.reduce_add();
    for (; i < n; ++i) total += px[i];
    return torch::full({1}, total, x.options());
}
""",
    # OpenMP reduction clause naming two elements of one array
    "fresh4_gcc_omp_reduction_on_array_element": r"""
#include <torch/extension.h>
#include <omp.h>
torch::Tensor mse_and_mae(torch::Tensor a, torch::Tensor b) {
    const float* pa = a.data_ptr<float>();
    const float* pb = b.data_ptr<float>();
    double sums[2] = {0.0, 0.0};
    #pragma omp parallel for reduction(+:sums[0], sums[1])
    for (int64_t i = 0; i < a.numel(); ++i) {
        double d = pa[i] - pb[i];
        sums[0] += d * d;
        sums[1] += std::fabs(d);
    }
    return torch::tensor({sums[0] / a.numel(), sums[1] / a.numel()});
}
""",
    # std::exp applied to a SIMD register in a vectorised softplus
    "fresh4_gcc_std_exp_on_vectorized": r"""
#include <torch/extension.h>
#include <ATen/cpu/vec/vec.h>
#include <cmath>
torch::Tensor softplus(torch::Tensor x) {
    using Vec = at::vec::Vectorized<float>;
    auto y = torch::empty_like(x);
    const float* px = x.data_ptr<float>();
    float* py = y.data_ptr<float>();
    int64_t n = x.numel(), i = 0;
    const Vec one(1.f);
    for (; i + Vec::size() <= n; i += Vec::size()) {
        Vec v = Vec::loadu(px + i);
        std::log(one + std::exp(v)).store(py + i);
    }
    for (; i < n; ++i) py[i] = std::log1p(std::exp(px[i]));
    return y;
}
""",
    # OpenMP loop header that declares and steps two variables
    "fresh4_gcc_omp_loop_two_variables": r"""
#include <torch/extension.h>
#include <omp.h>
torch::Tensor matvec(torch::Tensor a, torch::Tensor x) {
    int64_t M = a.size(0), K = a.size(1);
    auto y = torch::empty({M}, a.options());
    const float* pa = a.data_ptr<float>();
    const float* px = x.data_ptr<float>();
    float* py = y.data_ptr<float>();
    #pragma omp parallel for
    for (int64_t i = 0, base = 0; i < M; ++i, base += K) {
        float acc = 0.f;
        for (int64_t k = 0; k < K; ++k) acc += pa[base + k] * px[k];
        py[i] = acc;
    }
    return y;
}
""",
    # loss reduction passed as the Python string "mean"
    "fresh4_gcc_reduction_as_string": r"""
#include <torch/extension.h>
torch::Tensor cross_entropy(torch::Tensor logits, torch::Tensor target) {
    auto logp = torch::log_softmax(logits, 1);
    return torch::nll_loss(logp, target, {}, "mean");
}
""",
    # CUDA's `half` type named in a CPU extension
    "fresh4_gcc_cuda_half_type_in_cpp": r"""
#include <torch/extension.h>
torch::Tensor relu_fp16(torch::Tensor x) {
    auto xh = x.to(torch::kHalf).contiguous();
    auto y = torch::empty_like(xh);
    const half* px = xh.data_ptr<half>();
    half* py = y.data_ptr<half>();
    for (int64_t i = 0; i < xh.numel(); ++i) py[i] = static_cast<float>(px[i]) > 0.f ? px[i] : half(0.f);
    return y;
}
""",
    # constexpr tile size taken from a runtime tensor dimension
    "fresh4_gcc_constexpr_from_tensor_size": r"""
#include <torch/extension.h>
#include <array>
torch::Tensor rms_norm(torch::Tensor x, double eps) {
    constexpr int64_t D = x.size(1);
    auto y = torch::empty_like(x);
    const float* px = x.data_ptr<float>();
    float* py = y.data_ptr<float>();
    for (int64_t r = 0; r < x.size(0); ++r) {
        std::array<float, D> row;
        float ss = 0.f;
        for (int64_t d = 0; d < D; ++d) { row[d] = px[r * D + d]; ss += row[d] * row[d]; }
        float inv = 1.f / std::sqrt(ss / D + static_cast<float>(eps));
        for (int64_t d = 0; d < D; ++d) py[r * D + d] = row[d] * inv;
    }
    return y;
}
""",
}


# --- Triton ---------------------------------------------------------------------------------


@triton.jit
def keepdims_numpy_spelling(x_ptr, y_ptr, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :], mask=rn[None, :] < N, other=float("-inf"))
    e = tl.exp(x - tl.max(x, axis=1, keepdims=True))
    tl.store(
        y_ptr + rm[:, None] * N + rn[None, :],
        e / tl.sum(e, axis=1, keepdims=True),
        mask=rn[None, :] < N,
    )


@triton.jit
def tanh_not_in_tl(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    inner = 0.7978845608 * (x + 0.044715 * x * x * x)
    tl.store(y_ptr + offs, 0.5 * x * (1.0 + tl.tanh(inner)), mask=m)


@triton.jit
def scan_with_builtin_combine(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + tl.program_id(0) * BLOCK + offs)
    running_max = tl.associative_scan(x, 0, tl.maximum)
    tl.store(y_ptr + tl.program_id(0) * BLOCK + offs, running_max)


@triton.jit
def boundary_check_on_plain_pointer(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, boundary_check=(0,), padding_option="zero")
    tl.store(y_ptr + offs, x * tl.sigmoid(x), mask=offs < n)


@triton.jit
def reshape_minus_one(x_ptr, y_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    pairs = tl.reshape(x, (-1, 2))
    tl.store(y_ptr + tl.arange(0, BLOCK // 2), tl.max(pairs, axis=1))


@triton.jit
def zeros_int_shape(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    acc = tl.zeros(BLOCK, dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr, tl.sum(acc, axis=0))


@triton.jit
def sum_tuple_axis(x_ptr, y_ptr, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    x = tl.load(x_ptr + rm[:, None] * BN + rn[None, :])
    tl.store(y_ptr, tl.sum(x, axis=(0, 1)) / (BM * BN))


@triton.jit
def static_assert_runtime(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    tl.static_assert(n <= BLOCK, "row must fit in one block")
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + tl.program_id(0) * n + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + tl.program_id(0), tl.sum(x, axis=0))


@triton.jit
def tensor_descriptor_runtime_last_stride(
    x_ptr, y_ptr, M, N, stride_m, stride_n, BM: tl.constexpr, BN: tl.constexpr
):
    desc = tl.make_tensor_descriptor(
        x_ptr, shape=[M, N], strides=[stride_m, stride_n], block_shape=[BM, BN]
    )
    tile = desc.load([tl.program_id(0) * BM, 0])
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    tl.store(y_ptr + rm[:, None] * N + rn[None, :], tile)


@triton.jit
def gelu_helper(x):
    return 0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476))


@triton.jit
def helper_unknown_keyword(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(
        y_ptr + offs,
        gelu_helper(tl.load(x_ptr + offs, mask=m), approximate="tanh"),
        mask=m,
    )


@triton.jit
def libdevice_on_fp16(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, tl.extra.cuda.libdevice.tanh(x), mask=m)


@triton.jit
def cast_to_pointer_dtype(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    acc = tl.load(a_ptr + offs, mask=m).to(tl.float32) * tl.load(b_ptr + offs, mask=m).to(
        tl.float32
    )
    tl.store(c_ptr + offs, acc.to(c_ptr.dtype), mask=m)


@triton.jit
def arange_dtype_keyword(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK, dtype=tl.int64)
    m = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m) * 0.5, mask=m)


F32, F16 = "*fp32", "*fp16"
UNARY_SIG = {"x_ptr": F32, "y_ptr": F32, "n": "i32", "BLOCK": "constexpr"}
HALF_SIG = {"x_ptr": F16, "y_ptr": F16, "n": "i32", "BLOCK": "constexpr"}
ROW_SIG = {"x_ptr": F32, "y_ptr": F32, "BLOCK": "constexpr"}
TILE_SIG = {"x_ptr": F32, "y_ptr": F32, "BM": "constexpr", "BN": "constexpr"}

# name: (kernel, signature, constexprs)
TRITON_CASES = {
    "fresh4_triton_keepdims_numpy_spelling": (
        keepdims_numpy_spelling,
        {"x_ptr": F32, "y_ptr": F32, "N": "i32", "BM": "constexpr", "BN": "constexpr"},
        {"BM": 16, "BN": 128},
    ),
    "fresh4_triton_tanh_not_in_tl": (tanh_not_in_tl, UNARY_SIG, {"BLOCK": 128}),
    "fresh4_triton_scan_with_builtin_combine": (
        scan_with_builtin_combine,
        ROW_SIG,
        {"BLOCK": 128},
    ),
    "fresh4_triton_boundary_check_on_plain_pointer": (
        boundary_check_on_plain_pointer,
        UNARY_SIG,
        {"BLOCK": 128},
    ),
    "fresh4_triton_reshape_minus_one": (reshape_minus_one, ROW_SIG, {"BLOCK": 128}),
    "fresh4_triton_zeros_int_shape": (zeros_int_shape, UNARY_SIG, {"BLOCK": 128}),
    "fresh4_triton_sum_tuple_axis": (sum_tuple_axis, TILE_SIG, {"BM": 16, "BN": 16}),
    "fresh4_triton_static_assert_runtime": (
        static_assert_runtime,
        UNARY_SIG,
        {"BLOCK": 128},
    ),
    "fresh4_triton_tensor_descriptor_runtime_last_stride": (
        tensor_descriptor_runtime_last_stride,
        {
            "x_ptr": F32,
            "y_ptr": F32,
            "M": "i32",
            "N": "i32",
            "stride_m": "i32",
            "stride_n": "i32",
            "BM": "constexpr",
            "BN": "constexpr",
        },
        {"BM": 64, "BN": 64},
    ),
    "fresh4_triton_helper_unknown_keyword": (
        helper_unknown_keyword,
        UNARY_SIG,
        {"BLOCK": 128},
    ),
    "fresh4_triton_libdevice_on_fp16": (libdevice_on_fp16, HALF_SIG, {"BLOCK": 128}),
    "fresh4_triton_cast_to_pointer_dtype": (
        cast_to_pointer_dtype,
        {"a_ptr": F16, "b_ptr": F16, "c_ptr": F16, "n": "i32", "BLOCK": "constexpr"},
        {"BLOCK": 128},
    ),
    "fresh4_triton_arange_dtype_keyword": (
        arange_dtype_keyword,
        UNARY_SIG,
        {"BLOCK": 128},
    ),
}


if __name__ == "__main__":
    capture_main(__doc__, NVCC_CASES, TRITON_CASES, GCC_CASES, NVCC_TORCH_CASES)
