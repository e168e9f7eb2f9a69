"""Second blind error set: mistakes captured before anyone ran retrieval on them.

Run: python benchmarks/retrieval/capture/fresh2_cases.py [--out DIR] [case ...]
Every case is a mistake not already in the other capture scripts. nvcc cases compile with
`nvcc -c -arch=sm_90a` (TORCH ones add torch's headers, about 80 s each); g++ cases use
`g++ -std=c++20 -fsyntax-only -fopenmp` with torch's include paths, as load_inline compiles;
Triton cases compile ahead of time for `GPUTarget("cuda", 90, 32)` (no GPU needed). The Triton
kernels live in this file because Triton reads a kernel's source. Logs go to
DIR/fresh2_<case>.log (default ../logs/); machine paths become <site-packages>/ and <repo>/.
"""
# ruff: noqa: F841, B007, E731

from __future__ import annotations

import os

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")

import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from _capture import capture_main  # noqa: E402

NVCC_CASES: dict[str, str] = {
    # conv1d weights kept in a host-side static array and read from the kernel
    "fresh2_nvcc_host_array_in_kernel": r"""
static const float kTaps[5] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};
__global__ void conv1d5(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < 2 || i >= n - 2) return;
    float acc = 0.f;
    for (int k = 0; k < 5; ++k) acc += kTaps[k] * x[i + k - 2];
    y[i] = acc;
}
""",
    # dynamic shared memory declared without `extern`
    "fresh2_nvcc_unsized_shared_without_extern": r"""
__global__ void softmax_rows(const float* x, float* y, int cols) {
    __shared__ float row[];
    for (int c = threadIdx.x; c < cols; c += blockDim.x) row[c] = x[blockIdx.x * cols + c];
    __syncthreads();
    float m = -INFINITY;
    for (int c = 0; c < cols; ++c) m = fmaxf(m, row[c]);
    float s = 0.f;
    for (int c = 0; c < cols; ++c) s += expf(row[c] - m);
    for (int c = threadIdx.x; c < cols; c += blockDim.x) y[blockIdx.x * cols + c] = expf(row[c] - m) / s;
}
""",
    # block-size template parameter that cannot be deduced, launched without <...>
    "fresh2_nvcc_template_arg_not_deducible": r"""
template <int BLOCK>
__global__ void block_reduce_sum(const float* x, float* out, int n) {
    __shared__ float buf[BLOCK];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    buf[threadIdx.x] = i < n ? x[i] : 0.f;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(out, buf[0]);
}
void launch(const float* x, float* out, int n) {
    block_reduce_sum<<<(n + 255) / 256, 256>>>(x, out, n);
}
""",
    # runtime block size used as a template argument
    "fresh2_nvcc_runtime_template_argument": r"""
template <int THREADS>
__global__ void row_max(const float* x, float* out, int cols) {
    __shared__ float buf[THREADS];
    float m = -INFINITY;
    for (int c = threadIdx.x; c < cols; c += THREADS) m = fmaxf(m, x[blockIdx.x * cols + c]);
    buf[threadIdx.x] = m;
    __syncthreads();
    if (threadIdx.x == 0) { for (int t = 1; t < THREADS; ++t) m = fmaxf(m, buf[t]); out[blockIdx.x] = m; }
}
void launch(const float* x, float* out, int rows, int cols) {
    int threads = cols < 256 ? 128 : 256;
    row_max<threads><<<rows, threads>>>(x, out, cols);
}
""",
    # threadIdx (a uint3) assigned to an int
    "fresh2_nvcc_threadidx_without_component": r"""
__global__ void leaky_relu(const float* x, float* y, float slope, int n) {
    int tid = threadIdx;
    int i = blockIdx.x * blockDim.x + tid;
    if (i < n) y[i] = x[i] > 0.f ? x[i] : slope * x[i];
}
""",
    # __device__ lambda handed to a kernel template without --extended-lambda
    "fresh2_nvcc_device_lambda_without_flag": r"""
template <typename Op>
__global__ void map(const float* x, float* y, int n, Op op) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = op(x[i]);
}
void swish(const float* x, float* y, int n) {
    auto op = [] __device__ (float v) { return v / (1.f + expf(-v)); };
    map<<<(n + 255) / 256, 256>>>(x, y, n, op);
}
""",
    # legacy texture reference API, removed from CUDA 12
    "fresh2_nvcc_legacy_texture_reference": r"""
texture<float, 1, cudaReadModeElementType> tex_x;
__global__ void gather(const int* idx, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = tex1Dfetch(tex_x, idx[i]);
}
""",
    # cub::BlockReduce used without its block-size template argument
    "fresh2_nvcc_cub_block_reduce_missing_size": r"""
#include <cub/cub.cuh>
__global__ void row_sum(const float* x, float* out, int cols) {
    using BlockReduce = cub::BlockReduce<float>;
    __shared__ typename BlockReduce::TempStorage temp;
    float acc = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) acc += x[blockIdx.x * cols + c];
    float total = BlockReduce(temp).Sum(acc);
    if (threadIdx.x == 0) out[blockIdx.x] = total;
}
""",
    # std::max / std::min (constexpr host functions) called in device code
    "fresh2_nvcc_std_max_in_device_code": r"""
#include <algorithm>
__global__ void hardtanh(const float* x, float* y, float lo, float hi, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = std::min(std::max(x[i], lo), hi);
}
""",
    # __reduce_add_sync only exists for integers
    "fresh2_nvcc_reduce_add_sync_float": r"""
__global__ void warp_sum(const float* x, float* out) {
    float v = x[blockIdx.x * 32 + threadIdx.x];
    float s = __reduce_add_sync(0xffffffffu, v);
    if (threadIdx.x == 0) out[blockIdx.x] = s;
}
""",
    # float2 has no arithmetic operators
    "fresh2_nvcc_float2_no_operators": r"""
__global__ void add_vec2(const float2* a, const float2* b, float2* c, int n2) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n2) c[i] = a[i] + b[i];
}
""",
    # helper marked __device__ instead of __global__, then launched
    "fresh2_nvcc_launch_device_function": r"""
__device__ void sigmoid(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 1.f / (1.f + __expf(-x[i]));
}
void launch(const float* x, float* y, int n) {
    sigmoid<<<(n + 255) / 256, 256>>>(x, y, n);
}
""",
    # float* passed where the vectorised kernel takes float4*
    "fresh2_nvcc_float_pointer_to_float4_param": r"""
__global__ void scale4(const float4* x, float4* y, float s, int n4) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) { float4 v = x[i]; y[i] = make_float4(v.x * s, v.y * s, v.z * s, v.w * s); }
}
void launch(const float* x, float* y, float s, int n) {
    scale4<<<(n / 4 + 255) / 256, 256>>>(x, y, s, n / 4);
}
""",
    # per-thread register array sized by a runtime argument
    "fresh2_nvcc_runtime_sized_local_array": r"""
__global__ void topk_small(const float* x, float* out, int rows, int k) {
    float best[k];
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    for (int j = 0; j < k; ++j) best[j] = -INFINITY;
    for (int j = 0; j < k; ++j) out[r * k + j] = best[j];
}
""",
}

# Kernels that include torch headers, as load_inline's cuda_sources do.
NVCC_TORCH_CASES: dict[str, str] = {
    # atomicAdd on scalar_t once the dispatch also covers Half
    "fresh2_nvcc_atomic_add_dispatched_half": r"""
#include <torch/extension.h>
template <typename scalar_t>
__global__ void col_sum(const scalar_t* x, scalar_t* out, int rows, int cols) {
    int r = blockIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c < cols) atomicAdd(&out[c], x[r * cols + c]);
}
torch::Tensor sum_dim0(torch::Tensor x) {
    int rows = x.size(0), cols = x.size(1);
    auto out = torch::zeros({cols}, x.options());
    dim3 grid((cols + 255) / 256, rows);
    AT_DISPATCH_FLOATING_TYPES_AND_HALF(x.scalar_type(), "col_sum", [&] {
        col_sum<scalar_t><<<grid, 256>>>(x.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), rows, cols);
    });
    return out;
}
""",
    # C10_CUDA_KERNEL_LAUNCH_CHECK without its header
    "fresh2_nvcc_launch_check_missing_header": r"""
#include <torch/extension.h>
__global__ void mish_kernel(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * tanhf(log1pf(expf(x[i])));
}
torch::Tensor mish(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    mish_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
""",
    # packed accessor built with default traits, kernel wants RestrictPtrTraits
    "fresh2_nvcc_packed_accessor_traits_mismatch": r"""
#include <torch/extension.h>
__global__ void bias_relu(torch::PackedTensorAccessor32<float, 2, torch::RestrictPtrTraits> x,
                          const float* bias,
                          torch::PackedTensorAccessor32<float, 2, torch::RestrictPtrTraits> y) {
    int r = blockIdx.x, c = threadIdx.x;
    if (c < x.size(1)) y[r][c] = fmaxf(x[r][c] + bias[c], 0.f);
}
torch::Tensor forward(torch::Tensor x, torch::Tensor bias) {
    auto y = torch::empty_like(x);
    bias_relu<<<x.size(0), 256>>>(x.packed_accessor32<float, 2>(), bias.data_ptr<float>(),
                                  y.packed_accessor32<float, 2>());
    return y;
}
""",
    # THC-era error check macro, gone since torch 1.11
    "fresh2_nvcc_thc_error_check": r"""
#include <torch/extension.h>
__global__ void square_kernel(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * x[i];
}
torch::Tensor square(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    square_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    THCudaCheck(cudaGetLastError());
    return y;
}
""",
}

GCC_CASES: dict[str, str] = {
    # old-style .type() handed to a dispatch macro
    "fresh2_gcc_dispatch_on_deprecated_type": r"""
#include <torch/extension.h>
torch::Tensor hardsigmoid(torch::Tensor x) {
    auto y = torch::empty_like(x);
    AT_DISPATCH_FLOATING_TYPES(x.type(), "hardsigmoid", [&] {
        const scalar_t* px = x.data_ptr<scalar_t>();
        scalar_t* py = y.data_ptr<scalar_t>();
        for (int64_t i = 0; i < x.numel(); ++i) {
            scalar_t v = px[i] / 6 + scalar_t(0.5);
            py[i] = v < 0 ? scalar_t(0) : (v > 1 ? scalar_t(1) : v);
        }
    });
    return y;
}
""",
    # a function name used as the OpenMP reduction operator
    "fresh2_gcc_omp_reduction_function_name": r"""
#include <torch/extension.h>
#include <cmath>
#include <omp.h>
torch::Tensor amax(torch::Tensor x) {
    const float* px = x.data_ptr<float>();
    float m = -INFINITY;
    #pragma omp parallel for reduction(fmaxf: m)
    for (int64_t i = 0; i < x.numel(); ++i) m = fmaxf(m, px[i]);
    return torch::full({1}, m, x.options());
}
""",
    # omp parallel for placed before a block instead of the loop
    "fresh2_gcc_omp_for_before_block": r"""
#include <torch/extension.h>
#include <omp.h>
torch::Tensor elu(torch::Tensor x, double alpha) {
    auto y = torch::empty_like(x);
    const float* px = x.data_ptr<float>();
    float* py = y.data_ptr<float>();
    int64_t n = x.numel();
    #pragma omp parallel for
    {
        for (int64_t i = 0; i < n; ++i) py[i] = px[i] > 0.f ? px[i] : alpha * (std::exp(px[i]) - 1.f);
    }
    return y;
}
""",
    # max over a dim returns (values, indices), assigned to one tensor
    "fresh2_gcc_max_dim_returns_tuple": r"""
#include <torch/extension.h>
torch::Tensor stable_softmax(torch::Tensor x) {
    torch::Tensor m = x.max(1, /*keepdim=*/true);
    auto e = (x - m).exp();
    return e / e.sum(1, true);
}
""",
    # from_blob on a const pointer
    "fresh2_gcc_from_blob_const_pointer": r"""
#include <torch/extension.h>
torch::Tensor reshape_copy(torch::Tensor x, int64_t rows, int64_t cols) {
    const float* px = x.data_ptr<float>();
    auto view = torch::from_blob(px, {rows, cols}, x.options());
    return view.clone();
}
""",
    # AT_CHECK, removed in favour of TORCH_CHECK
    "fresh2_gcc_at_check_removed": r"""
#include <torch/extension.h>
torch::Tensor layer_norm_rows(torch::Tensor x, double eps) {
    AT_CHECK(x.dim() == 2, "expected a 2-D input");
    auto mean = x.mean(1, true);
    auto var = x.var(1, false, true);
    return (x - mean) / (var + eps).sqrt();
}
""",
    # CUDA runtime header included in the CPU source
    "fresh2_gcc_cuda_header_in_cpp_source": r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
torch::Tensor add(torch::Tensor a, torch::Tensor b) {
    return a + b;
}
""",
    # Tensor::item() gives a Scalar, not a float
    "fresh2_gcc_item_to_float": r"""
#include <torch/extension.h>
torch::Tensor normalize(torch::Tensor x) {
    float norm = x.norm().item();
    auto y = torch::empty_like(x);
    const float* px = x.data_ptr<float>();
    float* py = y.data_ptr<float>();
    for (int64_t i = 0; i < x.numel(); ++i) py[i] = px[i] / norm;
    return y;
}
""",
    # omp atomic used for a max update
    "fresh2_gcc_omp_atomic_max": r"""
#include <torch/extension.h>
#include <algorithm>
#include <omp.h>
torch::Tensor col_max(torch::Tensor x) {
    int64_t rows = x.size(0), cols = x.size(1);
    auto out = torch::full({cols}, -INFINITY, x.options());
    const float* px = x.data_ptr<float>();
    float* po = out.data_ptr<float>();
    #pragma omp parallel for
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) {
            #pragma omp atomic
            po[j] = std::max(po[j], px[i * cols + j]);
        }
    return out;
}
""",
    # torch::cat called with two tensors instead of a list
    "fresh2_gcc_cat_without_list": r"""
#include <torch/extension.h>
torch::Tensor glu(torch::Tensor a, torch::Tensor b) {
    auto gated = a * torch::sigmoid(b);
    return torch::cat(a, gated, 1);
}
""",
    # torch::softmax called without the dim argument
    "fresh2_gcc_softmax_missing_dim": r"""
#include <torch/extension.h>
torch::Tensor attention(torch::Tensor q, torch::Tensor k, torch::Tensor v) {
    auto scores = torch::matmul(q, k.transpose(-2, -1)) / std::sqrt(double(q.size(-1)));
    return torch::matmul(torch::softmax(scores), v);
}
""",
    # OpenMP private() naming a variable that is declared inside the loop
    "fresh2_gcc_omp_private_undeclared": r"""
#include <torch/extension.h>
#include <omp.h>
torch::Tensor matmul_naive(torch::Tensor a, torch::Tensor b) {
    int64_t M = a.size(0), K = a.size(1), N = b.size(1);
    auto c = torch::zeros({M, N}, a.options());
    const float* pa = a.data_ptr<float>();
    const float* pb = b.data_ptr<float>();
    float* pc = c.data_ptr<float>();
    #pragma omp parallel for private(acc)
    for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j) {
            float acc = 0.f;
            for (int64_t k = 0; k < K; ++k) acc += pa[i * K + k] * pb[k * N + j];
            pc[i * N + j] = acc;
        }
    return c;
}
""",
}


# --- Triton ---------------------------------------------------------------------------------


@triton.jit
def exp_of_int(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    decay = tl.exp(-offs)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs) * decay)


@triton.jit
def max_as_elementwise(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, tl.max(x, 0.0), mask=m)


@triton.jit
def reduce_dim_keyword(x_ptr, y_ptr, B: tl.constexpr):
    r = tl.arange(0, B)
    tile = tl.load(x_ptr + r[:, None] * B + r[None, :])
    tl.store(y_ptr + r, tl.sum(tile, dim=1))


@triton.jit
def torch_dtype_in_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, x.to(torch.float16), mask=m)


@triton.jit
def index_tensor_with_scalar(x_ptr, y_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    run = 0.0
    for i in range(BLOCK):
        run += x[i]
    tl.store(y_ptr, run)


@triton.jit
def assign_tensor_element(x_ptr, y_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for i in tl.static_range(4):
        acc[i] = x[i] * 2.0
    tl.store(y_ptr + tl.arange(0, BLOCK), acc)


@triton.jit
def loop_carried_type_change(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    acc = 0
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr + tl.arange(0, BLOCK), acc)


@triton.jit
def branch_type_mismatch(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    if pid == 0:
        scale = x
    else:
        scale = 1.0
    tl.store(y_ptr + offs, x * scale, mask=m)


@triton.jit
def arange_single_argument(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.abs(tl.load(x_ptr + offs, mask=m)), mask=m)


@triton.jit
def kernel_returns_value(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    y = tl.load(x_ptr + offs, mask=m) * 3.0
    return y


@triton.jit
def make_block_ptr_removed(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    src = tl.make_block_ptr(
        x_ptr, shape=(M, N), strides=(N, 1), offsets=(0, 0), block_shape=(BM, BN), order=(1, 0)
    )
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tile = tl.load(src, mask=mask, other=0.0)
    tl.store(y_ptr + rm[:, None] * N + rn[None, :], tile, mask=mask)


@triton.jit
def lambda_in_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    act = lambda v: v * tl.sigmoid(v)
    tl.store(y_ptr + offs, act(tl.load(x_ptr + offs, mask=m)), mask=m)


@triton.jit
def mean_not_in_language(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    x = tl.load(x_ptr + row * N + cols, mask=m, other=0.0)
    mu = tl.mean(x, axis=0)
    var = tl.sum((x - mu) * (x - mu), axis=0) / N
    tl.store(y_ptr + row * N + cols, (x - mu) / tl.sqrt(var + 1e-5), mask=m)


@triton.jit
def store_with_other(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    tl.store(y_ptr + offs, tl.where(x > 0, x, 0.01 * x), mask=m, other=0.0)


F32, F16 = "*fp32", "*fp16"
UNARY_SIG = {"x_ptr": F32, "y_ptr": F32, "n": "i32", "BLOCK": "constexpr"}
TILE_SIG = {"x_ptr": F32, "y_ptr": F32, "B": "constexpr"}
ROW_SIG = {"x_ptr": F32, "y_ptr": F32, "BLOCK": "constexpr"}

# name: (kernel, signature, constexprs)
TRITON_CASES = {
    "fresh2_triton_exp_of_int": (exp_of_int, ROW_SIG, {"BLOCK": 128}),
    "fresh2_triton_max_as_elementwise": (max_as_elementwise, UNARY_SIG, {"BLOCK": 128}),
    "fresh2_triton_reduce_dim_keyword": (reduce_dim_keyword, TILE_SIG, {"B": 32}),
    "fresh2_triton_torch_dtype_in_kernel": (torch_dtype_in_kernel, UNARY_SIG, {"BLOCK": 128}),
    "fresh2_triton_index_tensor_with_scalar": (index_tensor_with_scalar, ROW_SIG, {"BLOCK": 64}),
    "fresh2_triton_assign_tensor_element": (assign_tensor_element, ROW_SIG, {"BLOCK": 64}),
    "fresh2_triton_loop_carried_type_change": (
        loop_carried_type_change,
        {"x_ptr": F32, "out_ptr": F32, "n": "i32", "BLOCK": "constexpr"},
        {"BLOCK": 128},
    ),
    "fresh2_triton_branch_type_mismatch": (branch_type_mismatch, UNARY_SIG, {"BLOCK": 128}),
    "fresh2_triton_arange_single_argument": (arange_single_argument, UNARY_SIG, {"BLOCK": 128}),
    "fresh2_triton_kernel_returns_value": (kernel_returns_value, UNARY_SIG, {"BLOCK": 128}),
    "fresh2_triton_make_block_ptr_removed": (
        make_block_ptr_removed,
        {"x_ptr": F32, "y_ptr": F32, "M": "i32", "N": "i32", "BM": "constexpr", "BN": "constexpr"},
        {"BM": 64, "BN": 64},
    ),
    "fresh2_triton_lambda_in_kernel": (lambda_in_kernel, UNARY_SIG, {"BLOCK": 128}),
    "fresh2_triton_mean_not_in_language": (
        mean_not_in_language,
        {"x_ptr": F32, "y_ptr": F32, "N": "i32", "BLOCK": "constexpr"},
        {"BLOCK": 1024},
    ),
    "fresh2_triton_store_with_other": (store_with_other, UNARY_SIG, {"BLOCK": 128}),
}


if __name__ == "__main__":
    capture_main(__doc__, NVCC_CASES, TRITON_CASES, GCC_CASES, NVCC_TORCH_CASES)
