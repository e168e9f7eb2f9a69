"""Broken CUDA kernels compiled with real nvcc (`nvcc -c -arch=sm_90a`); each output is one log.

Run: python benchmarks/retrieval/capture/nvcc_cases.py [case ...]
Cases marked TORCH include the torch headers (about 80 s each on this machine).
"""

from __future__ import annotations

from _capture import run_case, selected, torch_include_flags

ARCH = "sm_90a"

CASES: dict[str, str] = {
    "nvcc_undefined_identifier": r"""
__global__ void scale(const float* x, float* y, int n) {
    int i = blockIdx.x * blokDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
}
""",
    "nvcc_host_fn_from_global": r"""
float softplus(float v) { return v > 20.f ? v : logf(1.f + expf(v)); }
__global__ void act(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = softplus(x[i]);
}
""",
    "nvcc_global_nonvoid_return": r"""
__global__ float square(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * x[i];
    return y[i];
}
""",
    "nvcc_shared_runtime_size": r"""
__global__ void row_sum(const float* x, float* out, int cols) {
    __shared__ float buf[cols];
    float acc = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) acc += x[blockIdx.x * cols + c];
    buf[threadIdx.x] = acc;
    __syncthreads();
    if (threadIdx.x == 0) { float s = 0; for (int t = 0; t < blockDim.x; ++t) s += buf[t]; out[blockIdx.x] = s; }
}
""",
    "nvcc_shared_too_large": r"""
__global__ void big_tile(const float* x, float* y, int n) {
    __shared__ float tile[256 * 256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int j = threadIdx.x; j < 256 * 256; j += blockDim.x) tile[j] = x[j];
    __syncthreads();
    if (i < n) y[i] = tile[i % (256 * 256)];
}
""",
    "nvcc_shfl_no_sync": r"""
__global__ void warp_sum(const float* x, float* out) {
    float v = x[blockIdx.x * 32 + threadIdx.x];
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down(v, off);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
}
""",
    "nvcc_shfl_missing_mask": r"""
__global__ void warp_max(const float* x, float* out) {
    float v = x[blockIdx.x * 32 + threadIdx.x];
    for (int off = 16; off > 0; off >>= 1) v = fmaxf(v, __shfl_xor_sync(v, off));
    if (threadIdx.x == 0) out[blockIdx.x] = v;
}
""",
    "nvcc_atomic_add_long": r"""
__global__ void count_positive(const float* x, long* count, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && x[i] > 0.f) atomicAdd(count, 1L);
}
""",
    "nvcc_atomic_max_float": r"""
__global__ void global_max(const float* x, float* result, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicMax(result, x[i]);
}
""",
    "nvcc_half_missing_header": r"""
__global__ void add_half(const __half* a, const __half* b, __half* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = __hadd(a[i], b[i]);
}
""",
    "nvcc_bf16_missing_header": r"""
#include <cuda_fp16.h>
__global__ void scale_bf16(const __nv_bfloat16* x, __nv_bfloat16* y, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = __float2bfloat16(__bfloat162float(x[i]) * s);
}
""",
    "nvcc_half_ambiguous_operator": r"""
#include <cuda_fp16.h>
__global__ void axpy_half(const __half* x, __half* y, double alpha, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = alpha * x[i] + y[i];
}
""",
    "nvcc_wmma_no_namespace": r"""
#include <cuda_fp16.h>
__global__ void mm16(const half* a, const half* b, float* c) {
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
    "nvcc_wmma_bad_shape": r"""
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;
__global__ void mm_bad(const half* a, const half* b, float* c) {
    wmma::fragment<wmma::matrix_a, 16, 16, 8, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
""",
    "nvcc_float4_from_float": r"""
__global__ void copy4(const float* x, float* y, int n4) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 v = x[4 * i];
        reinterpret_cast<float4*>(y)[i] = v;
    }
}
""",
    "nvcc_write_const_pointer": r"""
__global__ void relu(const float* __restrict__ x, const float* __restrict__ y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = fmaxf(x[i], 0.f);
}
""",
    "nvcc_device_fn_from_host": r"""
__device__ float gelu(float v) { return 0.5f * v * (1.f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v))); }
void gelu_host(const float* x, float* y, int n) {
    for (int i = 0; i < n; ++i) y[i] = gelu(x[i]);
}
""",
    "nvcc_launch_too_many_args": r"""
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
void launch(const float* a, const float* b, float* c, int n, float alpha) {
    add<<<(n + 255) / 256, 256>>>(a, b, c, n, alpha);
}
""",
    "nvcc_shared_initializer": r"""
__global__ void hist(const int* x, int* out, int n) {
    __shared__ int bins[32] = {0};
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[x[i] & 31], 1);
    __syncthreads();
    if (threadIdx.x < 32) atomicAdd(&out[threadIdx.x], bins[threadIdx.x]);
}
""",
    "nvcc_extern_shared_template": r"""
template <typename T>
__global__ void block_sum(const T* x, T* out, int n) {
    extern __shared__ T smem[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    smem[threadIdx.x] = i < n ? x[i] : T(0);
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) smem[threadIdx.x] += smem[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = smem[0];
}
template __global__ void block_sum<float>(const float*, float*, int);
template __global__ void block_sum<double>(const double*, double*, int);
""",
    "nvcc_mma_ptx_operands": r"""
__global__ void mma_tile(const unsigned* a, const unsigned* b, float* c) {
    unsigned a0 = a[threadIdx.x], a1 = a[threadIdx.x + 32];
    unsigned b0 = b[threadIdx.x];
    float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"
        : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
        : "r"(a0), "r"(a1), "r"(b0));
    c[threadIdx.x] = d0 + d1 + d2 + d3;
}
""",
    "nvcc_half2_from_float2": r"""
#include <cuda_fp16.h>
__global__ void add2(const float2* a, const float2* b, __half2* c, int n2) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n2) c[i] = __hadd2(a[i], b[i]);
}
""",
    "nvcc_cg_no_namespace": r"""
#include <cooperative_groups.h>
__global__ void tile_sum(const float* x, float* out) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    float v = x[threadIdx.x];
    for (int off = 16; off > 0; off >>= 1) v += warp.shfl_down(v, off);
    if (warp.thread_rank() == 0) out[threadIdx.x / 32] = v;
}
""",
    "nvcc_std_vector_in_kernel": r"""
#include <vector>
__global__ void gather(const float* x, float* y, int n) {
    std::vector<float> tmp(4);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { tmp[0] = x[i]; y[i] = tmp[0]; }
}
""",
}

# Kernels that include torch headers, as load_inline's cuda_sources do.
TORCH_CASES: dict[str, str] = {
    "nvcc_torch_tensor_arg_in_kernel": r"""
#include <torch/extension.h>
__global__ void neg(torch::Tensor x, torch::Tensor y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < x.numel()) y[i] = -x[i];
}
""",
    "nvcc_torch_half_pointer_mismatch": r"""
#include <torch/extension.h>
#include <cuda_fp16.h>
__global__ void relu_half(const __half* x, __half* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = __hgt(x[i], __float2half(0.f)) ? x[i] : __float2half(0.f);
}
torch::Tensor relu(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    relu_half<<<(n + 255) / 256, 256>>>(x.data_ptr<at::Half>(), y.data_ptr<at::Half>(), n);
    return y;
}
""",
    "nvcc_torch_stream_namespace": r"""
#include <torch/extension.h>
__global__ void copy(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i];
}
torch::Tensor copy_on_stream(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    auto stream = at::cuda::getCurrentCUDAStream();
    copy<<<(n + 255) / 256, 256, 0, stream>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
""",
}

# A case whose error comes from the command line rather than the source.
ARCH_CASE = (
    "nvcc_unsupported_arch",
    r"""
__global__ void k(float* y) { y[threadIdx.x] = 1.f; }
""",
    "sm_35",
)


def main() -> None:
    for name in selected(list(CASES)):
        run_case(name, "kernel.cu", CASES[name], ["nvcc", "-c", f"-arch={ARCH}", "kernel.cu"])
    name, source, arch = ARCH_CASE
    if name in selected([name]):
        run_case(name, "kernel.cu", source, ["nvcc", "-c", f"-arch={arch}", "kernel.cu"])
    flags = torch_include_flags()
    for name in selected(list(TORCH_CASES)):
        command = ["nvcc", "-c", f"-arch={ARCH}", "-std=c++20", *flags, "kernel.cu"]
        run_case(name, "kernel.cu", TORCH_CASES[name], command)


if __name__ == "__main__":
    main()
