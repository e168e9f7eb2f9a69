"""Fresh held-out error logs: mistakes written after the docs, never used to tune retrieval.

Run: python benchmarks/retrieval/capture/fresh_cases.py [case ...]
Every case here is a mistake not already in the dev/heldout logs. nvcc cases compile with
`nvcc -c -arch=sm_90a` (TORCH ones add torch's headers, about 80 s each); g++ cases use
`g++ -std=c++20 -fsyntax-only -fopenmp` with torch's include paths (C++20 is what load_inline passes for torch 2.13; C++17 buries the error under header warnings); Triton cases compile
ahead of time for `GPUTarget("cuda", 90, 32)`. The Triton kernels live in this file because
Triton reads a kernel's source. Logs go to ../logs/fresh_<case>.log.
"""
# ruff: noqa: F841, B007

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import traceback

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")

import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from _capture import LOG_DIR, run_case, selected, torch_include_flags  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402

NVCC_ARCH = "sm_90a"
TRITON_TARGET = GPUTarget("cuda", 90, 32)

NVCC_CASES: dict[str, str] = {
    "fresh_nvcc_constant_write_in_kernel": r"""
__constant__ float coeffs[16];
__global__ void poly(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x < 16) coeffs[threadIdx.x] = 1.f / (threadIdx.x + 1);
    __syncthreads();
    if (i < n) { float acc = 0.f; for (int k = 15; k >= 0; --k) acc = acc * x[i] + coeffs[k]; y[i] = acc; }
}
""",
    "fresh_nvcc_constant_too_large": r"""
__constant__ float table[32768];
__global__ void lookup(const int* idx, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = table[idx[i] & 32767];
}
""",
    "fresh_nvcc_kernel_launch_in_kernel": r"""
__global__ void child(float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] *= 2.f;
}
__global__ void parent(float* y, int n) {
    if (threadIdx.x == 0 && blockIdx.x == 0) child<<<(n + 255) / 256, 256>>>(y, n);
}
""",
    "fresh_nvcc_ballot_without_sync": r"""
__global__ void count_nonzero(const float* x, int* out) {
    float v = x[blockIdx.x * 32 + threadIdx.x];
    unsigned bits = __ballot(v != 0.f);
    if (threadIdx.x == 0) out[blockIdx.x] = __popc(bits);
}
""",
    "fresh_nvcc_pipeline_missing_header": r"""
__global__ void stage(const float* x, float* y, int n) {
    __shared__ float tile[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) __pipeline_memcpy_async(&tile[threadIdx.x], &x[i], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    if (i < n) y[i] = tile[threadIdx.x];
}
""",
    "fresh_nvcc_atomic_cas_float": r"""
__global__ void atomic_mul(float* acc, const float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float old = *acc, assumed;
    do {
        assumed = old;
        old = atomicCAS(acc, assumed, assumed * x[i]);
    } while (assumed != old);
}
""",
    "fresh_nvcc_launch_bounds_runtime_value": r"""
int block_threads = 256;
__global__ void __launch_bounds__(block_threads) scale(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 0.5f * x[i];
}
""",
    "fresh_nvcc_ldg_on_struct": r"""
struct Pair { float a, b; };
__global__ void sum_pairs(const Pair* __restrict__ p, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { Pair v = __ldg(p + i); y[i] = v.a + v.b; }
}
""",
    "fresh_nvcc_make_float4_three_args": r"""
__global__ void splat(const float* x, float4* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = make_float4(x[i], x[i], x[i]);
}
""",
    "fresh_nvcc_device_var_dynamic_init": r"""
#include <math.h>
__device__ float inv_sqrt2 = 1.f / sqrtf(2.f);
__global__ void gelu_erf(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 0.5f * x[i] * (1.f + erff(x[i] * inv_sqrt2));
}
""",
    "fresh_nvcc_global_member_function": r"""
struct Scaler {
    float s;
    __global__ void apply(float* y, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) y[i] *= s;
    }
};
""",
    "fresh_nvcc_wmma_float_pointer": r"""
#include <mma.h>
using namespace nvcuda;
__global__ void mm16(const float* a, const float* b, float* c) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
""",
}

# Kernels that include torch headers, as load_inline's cuda_sources do.
NVCC_TORCH_CASES: dict[str, str] = {
    "fresh_nvcc_template_kernel_deduction": r"""
#include <torch/extension.h>
template <typename T>
__global__ void axpy(const T* x, T* y, T alpha, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = alpha * x[i] + y[i];
}
torch::Tensor axpy_inplace(torch::Tensor x, torch::Tensor y, double alpha) {
    int n = x.numel();
    AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "axpy", [&] {
        axpy<<<(n + 255) / 256, 256>>>(x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), alpha, n);
    });
    return y;
}
""",
}

GCC_CASES: dict[str, str] = {
    "fresh_gcc_write_through_const_data_ptr": r"""
#include <torch/extension.h>
torch::Tensor clamp_inplace(torch::Tensor x, double lo, double hi) {
    const float* p = x.const_data_ptr<float>();
    for (int64_t i = 0; i < x.numel(); ++i)
        p[i] = p[i] < lo ? lo : (p[i] > hi ? hi : p[i]);
    return x;
}
""",
    "fresh_gcc_omp_loop_without_increment": r"""
#include <torch/extension.h>
#include <omp.h>
torch::Tensor square(torch::Tensor x) {
    auto y = torch::empty_like(x);
    const float* px = x.data_ptr<float>();
    float* py = y.data_ptr<float>();
    int64_t n = x.numel();
    #pragma omp parallel for
    for (int64_t i = 0; i < n;) {
        py[i] = px[i] * px[i];
        ++i;
    }
    return y;
}
""",
    "fresh_gcc_view_with_loose_ints": r"""
#include <torch/extension.h>
torch::Tensor flatten_rows(torch::Tensor x) {
    int64_t rows = x.size(0);
    auto flat = x.contiguous().view(rows, -1);
    return flat.sum(1);
}
""",
    "fresh_gcc_torch_check_method_not_called": r"""
#include <torch/extension.h>
torch::Tensor negate(torch::Tensor x) {
    TORCH_CHECK(x.is_contiguous, "x must be contiguous");
    auto y = torch::empty_like(x);
    const float* px = x.data_ptr<float>();
    float* py = y.data_ptr<float>();
    for (int64_t i = 0; i < x.numel(); ++i) py[i] = -px[i];
    return y;
}
""",
    "fresh_gcc_accessor_too_few_indices": r"""
#include <torch/extension.h>
torch::Tensor row_sums(torch::Tensor x) {
    auto out = torch::zeros({x.size(0)}, x.options());
    auto xa = x.accessor<float, 2>();
    auto oa = out.accessor<float, 1>();
    for (int64_t i = 0; i < x.size(0); ++i) {
        float row = xa[i];
        oa[i] = row;
    }
    return out;
}
""",
    "fresh_gcc_parallel_for_lambda_arity": r"""
#include <torch/extension.h>
#include <ATen/Parallel.h>
torch::Tensor relu(torch::Tensor x) {
    auto y = torch::empty_like(x);
    const float* px = x.data_ptr<float>();
    float* py = y.data_ptr<float>();
    at::parallel_for(0, x.numel(), 2048, [&](int64_t i) {
        py[i] = px[i] > 0.f ? px[i] : 0.f;
    });
    return y;
}
""",
    "fresh_gcc_scalar_type_compared_to_cpp_type": r"""
#include <torch/extension.h>
torch::Tensor halve(torch::Tensor x) {
    TORCH_CHECK(x.scalar_type() == float, "only float32 is supported");
    auto y = torch::empty_like(x);
    const float* px = x.data_ptr<float>();
    float* py = y.data_ptr<float>();
    for (int64_t i = 0; i < x.numel(); ++i) py[i] = 0.5f * px[i];
    return y;
}
""",
    "fresh_gcc_zeros_device_and_dtype_args": r"""
#include <torch/extension.h>
torch::Tensor col_means(torch::Tensor x) {
    auto out = torch::zeros({x.size(1)}, x.device(), torch::kFloat32);
    const float* px = x.data_ptr<float>();
    float* po = out.data_ptr<float>();
    for (int64_t i = 0; i < x.size(0); ++i)
        for (int64_t j = 0; j < x.size(1); ++j) po[j] += px[i * x.size(1) + j] / x.size(0);
    return out;
}
""",
    "fresh_gcc_missing_return": r"""
#include <torch/extension.h>
torch::Tensor add_one(torch::Tensor x) {
    auto y = x + 1;
}
""",
}


# --- Triton ---------------------------------------------------------------------------------


@triton.jit
def python_list_in_kernel(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    weights = [0.25, 0.5, 0.25]
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for k in range(3):
        acc += weights[k] * tl.load(x_ptr + offs + k)
    tl.store(y_ptr + offs, acc)


@triton.jit
def break_in_loop(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for i in range(0, n):
        v = tl.load(x_ptr + i * BLOCK + offs)
        if tl.sum(v) < 0:
            break
        acc += v
    tl.store(y_ptr + offs, acc)


@triton.jit
def dot_inner_mismatch(a_ptr, b_ptr, c_ptr, BM: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rk = tl.arange(0, BK)
    a = tl.load(a_ptr + rm[:, None] * BK + rk[None, :])
    b = tl.load(b_ptr + rm[:, None] * BK + rk[None, :])
    tl.store(c_ptr + rm[:, None] * BM + rm[None, :], tl.dot(a, b))


@triton.jit
def dot_int_accumulator(a_ptr, b_ptr, c_ptr, B: tl.constexpr):
    r = tl.arange(0, B)
    a = tl.load(a_ptr + r[:, None] * B + r[None, :])
    b = tl.load(b_ptr + r[:, None] * B + r[None, :])
    acc = tl.zeros((B, B), dtype=tl.int32)
    acc = tl.dot(a, b, acc)
    tl.store(c_ptr + r[:, None] * B + r[None, :], acc.to(tl.float32))


@triton.jit
def permute_bad_dims(x_ptr, y_ptr, B: tl.constexpr):
    r = tl.arange(0, B)
    tile = tl.load(x_ptr + r[:, None] * B + r[None, :])
    t = tl.permute(tile, (0, 2))
    tl.store(y_ptr + r[:, None] * B + r[None, :], t)


@triton.jit
def atomic_add_bool(x_ptr, flag_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.atomic_add(flag_ptr + offs, v > 0, mask=offs < n)


@triton.jit
def block_too_large(x_ptr, y_ptr, n):
    offs = tl.arange(0, 1 << 21)
    m = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m), mask=m)


@triton.jit
def range_float_step(x_ptr, y_ptr, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for i in range(0, 4, 0.5):
        acc += tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.store(y_ptr + tl.arange(0, BLOCK), acc)


@triton.jit
def plain_copy(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m), mask=m)


F32, F16 = "*fp32", "*fp16"
COPY_SIG = {"x_ptr": F32, "y_ptr": F32, "n": "i32", "BLOCK": "constexpr"}

# name: (kernel, signature, constexprs, compile options)
TRITON_CASES = {
    "fresh_triton_python_list_in_kernel": (
        python_list_in_kernel,
        {"x_ptr": F32, "y_ptr": F32, "BLOCK": "constexpr"},
        {"BLOCK": 128},
        {},
    ),
    "fresh_triton_break_in_loop": (break_in_loop, COPY_SIG, {"BLOCK": 128}, {}),
    "fresh_triton_dot_inner_mismatch": (
        dot_inner_mismatch,
        {"a_ptr": F16, "b_ptr": F16, "c_ptr": F32, "BM": "constexpr", "BK": "constexpr"},
        {"BM": 64, "BK": 32},
        {},
    ),
    "fresh_triton_dot_int_accumulator": (
        dot_int_accumulator,
        {"a_ptr": F16, "b_ptr": F16, "c_ptr": F32, "B": "constexpr"},
        {"B": 32},
        {},
    ),
    "fresh_triton_permute_bad_dims": (
        permute_bad_dims,
        {"x_ptr": F32, "y_ptr": F32, "B": "constexpr"},
        {"B": 32},
        {},
    ),
    "fresh_triton_atomic_add_bool": (
        atomic_add_bool,
        {"x_ptr": F32, "flag_ptr": "*i1", "n": "i32", "BLOCK": "constexpr"},
        {"BLOCK": 128},
        {},
    ),
    "fresh_triton_block_too_large": (
        block_too_large,
        {"x_ptr": F32, "y_ptr": F32, "n": "i32"},
        {},
        {},
    ),
    "fresh_triton_range_float_step": (
        range_float_step,
        {"x_ptr": F32, "y_ptr": F32, "BLOCK": "constexpr"},
        {"BLOCK": 128},
        {},
    ),
    "fresh_triton_num_warps_not_pow2": (plain_copy, COPY_SIG, {"BLOCK": 128}, {"num_warps": 3}),
}


def triton_error(fn, signature, constexprs, options) -> str:
    """The traceback, preceded by what MLIR wrote straight to the process's stderr (fd 2)."""
    failure = ""
    with tempfile.TemporaryFile(mode="w+") as native:
        with _fd2_redirected(native):
            try:
                triton.compile(
                    ASTSource(fn=fn, signature=signature, constexprs=constexprs),
                    target=TRITON_TARGET,
                    options=options,
                )
            except Exception as e:  # the compiler's own exception is the log
                failure = "".join(traceback.format_exception(e))
        native.seek(0)
        diagnostics = native.read()
    return diagnostics + failure if failure else ""


@contextlib.contextmanager
def _fd2_redirected(target):
    sys.stderr.flush()
    saved = os.dup(2)
    os.dup2(target.fileno(), 2)
    try:
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)


def main() -> None:
    for name in selected(list(NVCC_CASES)):
        command = ["nvcc", "-c", f"-arch={NVCC_ARCH}", "kernel.cu"]
        run_case(name, "kernel.cu", NVCC_CASES[name], command)
    flags = torch_include_flags()
    for name in selected(list(NVCC_TORCH_CASES)):
        command = ["nvcc", "-c", f"-arch={NVCC_ARCH}", "-std=c++20", *flags, "kernel.cu"]
        run_case(name, "kernel.cu", NVCC_TORCH_CASES[name], command)
    for name in selected(list(GCC_CASES)):
        command = ["g++", "-std=c++20", "-fsyntax-only", "-fopenmp", *flags, "main.cpp"]
        run_case(name, "main.cpp", GCC_CASES[name], command)
    for name in selected(list(TRITON_CASES)):
        text = triton_error(*TRITON_CASES[name])
        if not text:
            print(f"[{name}] compiled cleanly: no log written")
            continue
        LOG_DIR.mkdir(parents=True, exist_ok=True)
        (LOG_DIR / f"{name}.log").write_text(text)
        print(f"[{name}] {len(text)} chars")


if __name__ == "__main__":
    main()
