"""Fifth blind error set: mistakes captured before anyone ran retrieval on them.

Run: python benchmarks/retrieval/capture/fresh5_cases.py [--out DIR] [case ...]
Every case is a mistake not already in the other capture scripts. nvcc cases compile with
`nvcc -c -arch=sm_90a` (TORCH ones add torch's headers, about 80 s each); g++ cases use
`g++ -std=c++20 -fsyntax-only -fopenmp` with torch's include paths and the
TORCH_EXTENSION_NAME define, as load_inline compiles; Triton cases compile ahead of time for
`GPUTarget("cuda", 90, 32)` (no GPU needed). The Triton kernels live in this file because
Triton reads a kernel's source. Logs go to DIR/fresh5_<case>.log (default ../logs/); machine
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
    # std::numeric_limits used for the -inf start of a row max (constexpr host function)
    "fresh5_nvcc_numeric_limits_in_kernel": r"""
#include <limits>
__global__ void row_max(const float* x, float* out, int cols) {
    float m = -std::numeric_limits<float>::infinity();
    for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, x[blockIdx.x * cols + c]);
    for (int off = 16; off > 0; off >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
    if (threadIdx.x == 0) out[blockIdx.x] = m;
}
""",
    # assert() in a kernel without <cassert>
    "fresh5_nvcc_assert_without_header": r"""
__global__ void gather_rows(const float* table, const long* idx, float* out, int rows, int dim) {
    long r = idx[blockIdx.x];
    assert(r >= 0 && r < rows);
    for (int d = threadIdx.x; d < dim; d += blockDim.x) out[blockIdx.x * dim + d] = table[r * dim + d];
}
""",
    # cuda::barrier for a producer/consumer GEMM pipeline without <cuda/barrier>
    "fresh5_nvcc_cuda_barrier_missing_header": r"""
#include <cuda_pipeline.h>
__global__ void tiled_copy(const float4* __restrict__ src, float4* __restrict__ dst, int n) {
    __shared__ float4 stage[256];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) cuda::memcpy_async(&stage[threadIdx.x], &src[i], sizeof(float4), bar);
    bar.arrive_and_wait();
    if (i < n) dst[i] = stage[threadIdx.x];
}
""",
    # __grid_constant__ on a parameter that is not const (TMA descriptor)
    "fresh5_nvcc_grid_constant_non_const": r"""
#include <cuda.h>
__global__ void tma_load_tile(__grid_constant__ CUtensorMap desc, float* out) {
    __shared__ alignas(128) float tile[64 * 64];
    if (threadIdx.x == 0) out[blockIdx.x] = reinterpret_cast<const float*>(&desc)[0];
    __syncthreads();
    out[blockIdx.x * 64 + threadIdx.x] = tile[threadIdx.x];
}
""",
    # FP8 E4M3 type used without <cuda_fp8.h>
    "fresh5_nvcc_fp8_missing_header": r"""
#include <cuda_fp16.h>
__global__ void quantize_fp8(const float* x, __nv_fp8_e4m3* y, float inv_scale, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = __nv_fp8_e4m3(x[i] * inv_scale);
}
""",
    # cub::Max() functor (removed in CCCL 3) passed to BlockReduce
    "fresh5_nvcc_cub_max_functor_removed": r"""
#include <cub/cub.cuh>
__global__ void row_absmax(const float* x, float* out, int cols) {
    using BlockReduce = cub::BlockReduce<float, 256>;
    __shared__ typename BlockReduce::TempStorage tmp;
    float m = 0.f;
    for (int c = threadIdx.x; c < cols; c += 256) m = fmaxf(m, fabsf(x[blockIdx.x * cols + c]));
    float r = BlockReduce(tmp).Reduce(m, cub::Max());
    if (threadIdx.x == 0) out[blockIdx.x] = r;
}
""",
    # float non-type template parameter for a fused scale (C++17 forbids it)
    "fresh5_nvcc_float_template_parameter": r"""
template <float Scale>
__global__ void scaled_relu(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = fmaxf(x[i] * Scale, 0.f);
}
void launch(const float* x, float* y, int n) {
    scaled_relu<0.5f><<<(n + 255) / 256, 256>>>(x, y, n);
}
""",
    # max() called on two __half values
    "fresh5_nvcc_max_on_half": r"""
#include <cuda_fp16.h>
__global__ void relu_half(const __half* x, __half* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = max(x[i], __float2half(0.f));
}
""",
    # half-precision region of a float extern shared buffer taken without a cast
    "fresh5_nvcc_shared_pointer_type_punning": r"""
#include <cuda_fp16.h>
__global__ void attn_scores(const __half* q, const __half* k, float* s, int d) {
    extern __shared__ float smem[];
    float* scores = smem;
    __half* q_tile = smem + blockDim.x;
    for (int i = threadIdx.x; i < d; i += blockDim.x) q_tile[i] = q[blockIdx.x * d + i];
    __syncthreads();
    float acc = 0.f;
    for (int i = 0; i < d; ++i) acc += __half2float(q_tile[i]) * __half2float(k[threadIdx.x * d + i]);
    scores[threadIdx.x] = acc;
    s[blockIdx.x * blockDim.x + threadIdx.x] = scores[threadIdx.x];
}
""",
}

# Kernels that include torch headers, as load_inline's cuda_sources do.
NVCC_TORCH_CASES: dict[str, str] = {
    # cuBLAS handle and sgemm used with only torch/extension.h included
    "fresh5_nvcc_torch_cublas_missing_header": r"""
#include <torch/extension.h>
torch::Tensor matmul(torch::Tensor a, torch::Tensor b) {
    int M = a.size(0), K = a.size(1), N = b.size(1);
    auto c = torch::empty({M, N}, a.options());
    const float alpha = 1.f, beta = 0.f;
    cublasHandle_t handle = at::cuda::getCurrentCUDABlasHandle();
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, b.data_ptr<float>(), N,
                a.data_ptr<float>(), K, &beta, c.data_ptr<float>(), N);
    return c;
}
""",
    # const_data_ptr handed to a kernel whose input parameter is not const
    "fresh5_nvcc_torch_const_data_ptr_to_kernel": r"""
#include <torch/extension.h>
__global__ void add_bias(float* x, float* bias, float* y, int rows, int cols) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < rows * cols) y[i] = x[i] + bias[i % cols];
}
torch::Tensor bias_add(const torch::Tensor& x, const torch::Tensor& bias) {
    auto y = torch::empty_like(x);
    int rows = x.size(0), cols = x.size(1);
    add_bias<<<(rows * cols + 255) / 256, 256>>>(x.const_data_ptr<float>(), bias.const_data_ptr<float>(),
                                                y.mutable_data_ptr<float>(), rows, cols);
    return y;
}
""",
}

GCC_CASES: dict[str, str] = {
    # at::parallel_reduce with a two-argument body (it takes begin, end, identity)
    "fresh5_gcc_parallel_reduce_lambda_missing_ident": r"""
#include <torch/extension.h>
#include <ATen/Parallel.h>
torch::Tensor sum_of_squares(torch::Tensor x) {
    const float* px = x.data_ptr<float>();
    float total = at::parallel_reduce(
        0, x.numel(), 2048, 0.f,
        [&](int64_t begin, int64_t end) {
            float s = 0.f;
            for (int64_t i = begin; i < end; ++i) s += px[i] * px[i];
            return s;
        },
        std::plus<float>());
    return torch::tensor(total);
}
""",
    # AT_DISPATCH lambda returning scalar_t, so each branch returns a different type
    "fresh5_gcc_dispatch_lambda_returns_scalar_t": r"""
#include <torch/extension.h>
double first_max(torch::Tensor x) {
    auto m = AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "first_max", [&] {
        const scalar_t* p = x.data_ptr<scalar_t>();
        scalar_t best = p[0];
        for (int64_t i = 1; i < x.numel(); ++i) best = std::max(best, p[i]);
        return best;
    });
    return static_cast<double>(m);
}
""",
    # torch::conv2d called with stride and padding where the bias goes
    "fresh5_gcc_conv2d_stride_in_bias_slot": r"""
#include <torch/extension.h>
torch::Tensor conv_relu(torch::Tensor x, torch::Tensor w) {
    std::vector<int64_t> stride{2, 2}, padding{1, 1};
    return torch::relu(torch::conv2d(x, w, stride, padding));
}
""",
    # Vectorized<float> constructed from a pointer instead of loadu
    "fresh5_gcc_vectorized_ctor_from_pointer": r"""
#include <torch/extension.h>
#include <ATen/cpu/vec/vec.h>
torch::Tensor fused_add_relu(torch::Tensor a, torch::Tensor b) {
    using Vec = at::vec::Vectorized<float>;
    auto y = torch::empty_like(a);
    const float* pa = a.data_ptr<float>();
    const float* pb = b.data_ptr<float>();
    float* py = y.data_ptr<float>();
    for (int64_t i = 0; i < a.numel(); i += Vec::size()) {
        Vec va(pa + i), vb(pb + i);
        at::vec::maximum(va + vb, Vec(0.f)).store(py + i);
    }
    return y;
}
""",
    # Python's float("-inf") for the attention mask fill value
    "fresh5_gcc_python_float_inf": r"""
#include <torch/extension.h>
torch::Tensor causal_attention(torch::Tensor q, torch::Tensor k, torch::Tensor v) {
    int64_t L = q.size(-2);
    auto scores = torch::matmul(q, k.transpose(-2, -1)) / std::sqrt(static_cast<double>(q.size(-1)));
    auto mask = torch::ones({L, L}, torch::kBool).triu(1);
    scores = scores.masked_fill(mask, float("-inf"));
    return torch::matmul(torch::softmax(scores, -1), v);
}
""",
    # structured binding on the std::vector that chunk returns
    "fresh5_gcc_structured_binding_on_chunk": r"""
#include <torch/extension.h>
torch::Tensor swiglu(torch::Tensor x) {
    auto [gate, up] = x.chunk(2, -1);
    return torch::silu(gate) * up;
}
""",
    # OpenMP parallel for over c10::irange
    "fresh5_gcc_omp_for_over_irange": r"""
#include <torch/extension.h>
#include <c10/util/irange.h>
torch::Tensor row_mean(torch::Tensor x) {
    int64_t R = x.size(0), C = x.size(1);
    auto y = torch::empty({R}, x.options());
    const float* px = x.data_ptr<float>();
    float* py = y.data_ptr<float>();
    #pragma omp parallel for
    for (int64_t r : c10::irange(R)) {
        float s = 0.f;
        for (int64_t c = 0; c < C; ++c) s += px[r * C + c];
        py[r] = s / C;
    }
    return y;
}
""",
    # c10::irange given a step like Python's range
    "fresh5_gcc_irange_with_step": r"""
#include <torch/extension.h>
#include <c10/util/irange.h>
torch::Tensor pool1d_stride2(torch::Tensor x) {
    int64_t n = x.numel();
    auto y = torch::empty({n / 2}, x.options());
    const float* px = x.data_ptr<float>();
    float* py = y.data_ptr<float>();
    for (int64_t i : c10::irange(0, n - 1, 2)) py[i / 2] = std::max(px[i], px[i + 1]);
    return y;
}
""",
    # accessor without its dimension template argument
    "fresh5_gcc_accessor_missing_dims": r"""
#include <torch/extension.h>
torch::Tensor col_sum(torch::Tensor x) {
    auto acc = x.accessor<float>();
    auto y = torch::zeros({x.size(1)}, x.options());
    auto out = y.accessor<float, 1>();
    for (int64_t r = 0; r < x.size(0); ++r)
        for (int64_t c = 0; c < x.size(1); ++c) out[c] += acc[r][c];
    return y;
}
""",
    # einsum operands passed one by one instead of as a list
    "fresh5_gcc_einsum_loose_operands": r"""
#include <torch/extension.h>
torch::Tensor bmm_scores(torch::Tensor q, torch::Tensor k) {
    return torch::einsum("bhqd,bhkd->bhqk", q, k) / std::sqrt(static_cast<double>(q.size(-1)));
}
""",
}


# --- Triton ---------------------------------------------------------------------------------


@triton.jit
def dot_input_precision_highest(
    a_ptr, b_ptr, c_ptr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr
):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(a_ptr + rm[:, None] * BK + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * BN + rn[None, :])
    c = tl.dot(a, b, input_precision="highest")
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], c)


@triton.jit
def split_last_dim_not_two(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs[:, None] * 4 + tl.arange(0, 4)[None, :])
    re, im = tl.split(x)
    tl.store(y_ptr + offs, re * re + im * im)


@triton.jit
def zeros_like_dtype_keyword(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0).to(tl.float16)
    acc = tl.zeros_like(x, dtype=tl.float32)
    acc += x.to(tl.float32) * x.to(tl.float32)
    tl.store(y_ptr + offs, acc, mask=offs < n)


@triton.jit
def shape_of_pointer_arg(x_ptr, y_ptr, BLOCK: tl.constexpr):
    n = x_ptr.shape[0]
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, x * 2.0, mask=offs < n)


@triton.jit
def num_programs_without_axis(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    num_tiles = tl.cdiv(n, BLOCK)
    for tile in range(tl.program_id(0), num_tiles, tl.num_programs()):
        offs = tile * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n)
        tl.store(y_ptr + offs, tl.abs(x), mask=offs < n)


@triton.jit
def atomic_max_fp16(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=-float("inf"))
    tl.atomic_max(y_ptr, tl.max(x, axis=0))


@triton.jit
def block_size_name_mismatch(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, x * x, mask=offs < n)


@triton.jit
def zeros_positional_dims(x_ptr, y_ptr, BM: tl.constexpr, BN: tl.constexpr):
    acc = tl.zeros(BM, BN, dtype=tl.float32)
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    acc += tl.load(x_ptr + rm[:, None] * BN + rn[None, :])
    tl.store(y_ptr + rm[:, None] * BN + rn[None, :], acc)


@triton.jit
def continue_in_loop(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        if start % 2 == 1:
            continue
        acc += tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + tl.arange(0, BLOCK), acc)


@triton.jit
def dot_batched_with_2d(a_ptr, b_ptr, c_ptr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rb = tl.arange(0, 2)
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(a_ptr + rb[:, None, None] * BM * BK + rm[None, :, None] * BK + rk[None, None, :])
    b = tl.load(b_ptr + rk[:, None] * BN + rn[None, :])
    c = tl.dot(a, b)
    tl.store(c_ptr + rb[:, None, None] * BM * BN + rm[None, :, None] * BN + rn[None, None, :], c)


@triton.jit
def trans_of_vector(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x_ptr + offs)
    outer = v[:, None] * tl.trans(v)
    tl.store(y_ptr + offs[:, None] * BLOCK + offs[None, :], outer)


@triton.jit
def atomic_add_scope_block(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.atomic_add(y_ptr, tl.sum(x, axis=0), scope="block")


@triton.jit
def fp8_torch_dtype_name(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, x.to(tl.float8_e4m3fn).to(tl.float32), mask=offs < n)


F32, F16 = "*fp32", "*fp16"
UNARY_SIG = {"x_ptr": F32, "y_ptr": F32, "n": "i32", "BLOCK": "constexpr"}
HALF_SIG = {"x_ptr": F16, "y_ptr": F16, "n": "i32", "BLOCK": "constexpr"}
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
    "fresh5_triton_dot_input_precision_highest": (
        dot_input_precision_highest,
        DOT_SIG,
        DOT_SIZES,
    ),
    "fresh5_triton_split_last_dim_not_two": (split_last_dim_not_two, ROW_SIG, {"BLOCK": 64}),
    "fresh5_triton_zeros_like_dtype_keyword": (
        zeros_like_dtype_keyword,
        UNARY_SIG,
        {"BLOCK": 128},
    ),
    "fresh5_triton_shape_of_pointer_arg": (shape_of_pointer_arg, ROW_SIG, {"BLOCK": 128}),
    "fresh5_triton_num_programs_without_axis": (
        num_programs_without_axis,
        UNARY_SIG,
        {"BLOCK": 128},
    ),
    "fresh5_triton_atomic_max_fp16": (atomic_max_fp16, HALF_SIG, {"BLOCK": 128}),
    "fresh5_triton_block_size_name_mismatch": (
        block_size_name_mismatch,
        UNARY_SIG,
        {"BLOCK": 128},
    ),
    "fresh5_triton_zeros_positional_dims": (zeros_positional_dims, TILE_SIG, {"BM": 16, "BN": 16}),
    "fresh5_triton_continue_in_loop": (continue_in_loop, UNARY_SIG, {"BLOCK": 128}),
    "fresh5_triton_dot_batched_with_2d": (dot_batched_with_2d, DOT_SIG, DOT_SIZES),
    "fresh5_triton_trans_of_vector": (trans_of_vector, ROW_SIG, {"BLOCK": 32}),
    "fresh5_triton_atomic_add_scope_block": (atomic_add_scope_block, UNARY_SIG, {"BLOCK": 128}),
    "fresh5_triton_fp8_torch_dtype_name": (fp8_torch_dtype_name, UNARY_SIG, {"BLOCK": 128}),
}


if __name__ == "__main__":
    capture_main(__doc__, NVCC_CASES, TRITON_CASES, GCC_CASES, NVCC_TORCH_CASES)
