"""Eighth blind error set, Triton: natural first drafts of fast kernels, failures kept.

Run: python fresh8_triton_cases.py [--out DIR] [case ...]
Each case is a genuine first-draft Triton kernel for one benchmark task, written in one pass
as a kernel search would write it. Triton cases compile ahead of time for
`GPUTarget("cuda", 90, 32)` (no GPU needed). The kernels live in this file because Triton
reads a kernel's source. Logs go to DIR/fresh8_triton_<task>.log for the cases that fail.
"""
# ruff: noqa: F821, F841, B007, E731

from __future__ import annotations

import os

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")

import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from _capture import capture_main  # noqa: E402
from triton.language.extra import libdevice  # noqa: E402


# ---------------------------------------------------------------- level1/1 elementwise add
@triton.jit
def add_kernel(a_ptr, b_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid.to(tl.int64) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    offsets = tl.max_contiguous(tl.multiple_of(offsets, BLOCK_SIZE), BLOCK_SIZE)
    mask = offsets < n_elements
    a = tl.load(a_ptr + offsets, mask=mask, eviction_policy="evict_first")
    b = tl.load(b_ptr + offsets, mask=mask, eviction_policy="evict_first")
    tl.store(out_ptr + offsets, a + b, mask=mask, cache_modifier=".cs")


def launch_add(a, b):
    out = torch.empty_like(a)
    n = a.numel()
    BLOCK = 4096
    add_kernel[(triton.cdiv(n, BLOCK),)](a, b, out, n, BLOCK_SIZE=BLOCK, num_warps=8)
    return out


# ---------------------------------------------------------------- level1/4 gelu (erf)
@triton.jit
def gelu_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid.to(tl.int64) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    y = 0.5 * x * (1.0 + tl.math.erf(x * 0.7071067811865476))
    tl.store(out_ptr + offsets, y, mask=mask)


def launch_gelu(x):
    out = torch.empty_like(x)
    n = x.numel()
    gelu_kernel[(triton.cdiv(n, 2048),)](x, out, n, BLOCK_SIZE=2048, num_warps=8)
    return out


# ---------------------------------------------------------------- level1/6 tanh
@triton.jit
def tanh_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    num_pids = tl.num_programs(0)
    for block_start in tl.range(pid * BLOCK_SIZE, n_elements, num_pids * BLOCK_SIZE, num_stages=3):
        offsets = block_start + tl.arange(0, BLOCK_SIZE)
        mask = offsets < n_elements
        x = tl.load(x_ptr + offsets, mask=mask)
        tl.store(out_ptr + offsets, libdevice.tanh(x), mask=mask)


def launch_tanh(x):
    out = torch.empty_like(x)
    n = x.numel()
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    tanh_kernel[(sms * 8,)](x, out, n, BLOCK_SIZE=4096, num_warps=8)
    return out


# ---------------------------------------------------------------- level1/9 sum over dim 1
@triton.jit
def sum_dim1_kernel(
    x_ptr,
    out_ptr,
    R,
    N,
    stride_b,
    stride_r,
    stride_n,
    BLOCK_R: tl.constexpr,
    BLOCK_N: tl.constexpr,
):
    pid_b = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask_n = offs_n < N
    acc = tl.zeros((BLOCK_R, BLOCK_N), dtype=tl.float32)
    base = x_ptr + pid_b * stride_b
    for r0 in range(0, R, BLOCK_R):
        offs_r = r0 + tl.arange(0, BLOCK_R)
        mask = (offs_r[:, None] < R) & mask_n[None, :]
        x = tl.load(
            base + offs_r[:, None] * stride_r + offs_n[None, :] * stride_n, mask=mask, other=0.0
        )
        acc += x
    out = tl.sum(acc, axis=0)
    tl.store(out_ptr + pid_b * N + offs_n, out, mask=mask_n)


def launch_sum_dim1(x):
    B, R, N = x.shape
    out = torch.empty((B, 1, N), device=x.device, dtype=x.dtype)
    grid = (B, triton.cdiv(N, 256))
    sum_dim1_kernel[grid](x, out, R, N, *x.stride(), BLOCK_R=32, BLOCK_N=256, num_warps=4)
    return out


# ---------------------------------------------------------------- level1/11 max over dim 1
@triton.jit
def max_dim1_kernel(x_ptr, out_ptr, R, N, BLOCK_R: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_b = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask_n = offs_n < N
    acc = tl.full((BLOCK_N,), float("-inf"), tl.float32)
    base = x_ptr + pid_b.to(tl.int64) * R * N
    for r0 in tl.range(0, R, BLOCK_R, num_stages=3):
        offs_r = r0 + tl.arange(0, BLOCK_R)
        mask = (offs_r[:, None] < R) & mask_n[None, :]
        x = tl.load(base + offs_r[:, None] * N + offs_n[None, :], mask=mask, other=float("-inf"))
        acc = tl.maximum(acc, tl.max(x, axis=0))
    tl.store(out_ptr + pid_b * N + offs_n, acc, mask=mask_n)


def launch_max_dim1(x):
    B, R, N = x.shape
    out = torch.empty((B, N), device=x.device, dtype=x.dtype)
    max_dim1_kernel[(B, triton.cdiv(N, 128))](x, out, R, N, BLOCK_R=64, BLOCK_N=128, num_warps=4)
    return out


# ---------------------------------------------------------------- level1/12 argmax over last dim
@triton.jit
def argmax_kernel(x_ptr, out_ptr, n_rows, N, BLOCK_N: tl.constexpr, ROWS_PER_PROG: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * ROWS_PER_PROG + tl.arange(0, ROWS_PER_PROG)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < N)
    x = tl.load(
        x_ptr + rows[:, None].to(tl.int64) * N + cols[None, :], mask=mask, other=float("-inf")
    )
    idx = tl.argmax(x, axis=1)
    tl.store(out_ptr + rows, idx.to(tl.int64), mask=rows < n_rows)


def launch_argmax(x):
    B, D1, N = x.shape
    n_rows = B * D1
    out = torch.empty((B, D1), device=x.device, dtype=torch.int64)
    argmax_kernel[(triton.cdiv(n_rows, 4),)](
        x, out, n_rows, N, BLOCK_N=triton.next_power_of_2(N), ROWS_PER_PROG=4, num_warps=8
    )
    return out


# ---------------------------------------------------------------- level1/13 softmax
@triton.jit
def softmax_kernel(
    x_ptr,
    out_ptr,
    n_rows,
    n_cols,
    x_row_stride,
    out_row_stride,
    BLOCK_SIZE: tl.constexpr,
    NUM_STAGES: tl.constexpr,
):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=NUM_STAGES):
        row_ptr = x_ptr + row_idx * x_row_stride
        cols = tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        x = tl.load(row_ptr + cols, mask=mask, other=-float("inf"))
        x_max = tl.max(x, axis=0)
        num = tl.exp2((x - x_max) * 1.4426950408889634)
        den = tl.sum(num, axis=0)
        tl.store(out_ptr + row_idx * out_row_stride + cols, num / den, mask=mask)


def launch_softmax(x):
    n_rows, n_cols = x.shape
    out = torch.empty_like(x)
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    softmax_kernel[(sms * 4,)](
        x,
        out,
        n_rows,
        n_cols,
        x.stride(0),
        out.stride(0),
        BLOCK_SIZE=triton.next_power_of_2(n_cols),
        NUM_STAGES=2,
        num_warps=16,
    )
    return out


# ---------------------------------------------------------------- level1/14 log_softmax (wide rows)
@triton.jit
def log_softmax_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row.to(tl.int64) * n_cols
    o_row = out_ptr + row.to(tl.int64) * n_cols
    m = tl.full((BLOCK,), -float("inf"), tl.float32)
    s = tl.zeros((BLOCK,), tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=-float("inf"))
        m_new = tl.maximum(m, x)
        s = s * tl.exp(m - m_new) + tl.exp(x - m_new)
        m = m_new
    row_max = tl.max(m, 0)
    row_sum = tl.sum(s * tl.exp(m - row_max), 0)
    lse = row_max + tl.log(row_sum)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < n_cols)
        tl.store(o_row + cols, x - lse, mask=cols < n_cols)


def launch_log_softmax(x):
    n_rows, n_cols = x.shape
    out = torch.empty_like(x)
    log_softmax_kernel[(n_rows,)](x, out, n_cols, BLOCK=4096, num_warps=8)
    return out


# ---------------------------------------------------------------- level1/15 layernorm
@triton.jit
def layernorm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, N, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * N
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    xc = tl.where(mask, x - mean, 0.0)
    var = tl.sum(xc * xc, axis=0) / N
    rstd = tl.math.rsqrt(var + eps)
    w = tl.load(w_ptr + cols, mask=mask, eviction_policy="evict_last")
    b = tl.load(b_ptr + cols, mask=mask, eviction_policy="evict_last")
    tl.store(y_ptr + row * N + cols, xc * rstd * w + b, mask=mask)


def launch_layernorm(x, weight, bias, eps):
    N = x.shape[-1]
    x2 = x.reshape(-1, N)
    y = torch.empty_like(x2)
    layernorm_kernel[(x2.shape[0],)](
        x2, weight, bias, y, N, eps, BLOCK_N=triton.next_power_of_2(N), num_warps=16
    )
    return y.view_as(x)


# ---------------------------------------------------------------- level1/16 rmsnorm
@triton.jit
def rmsnorm_kernel(x_ptr, w_ptr, y_ptr, stride_row, N, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * stride_row
    y_row = y_ptr + row * stride_row
    sq = tl.zeros([BLOCK_N], dtype=tl.float32)
    for off in range(0, N, BLOCK_N):
        cols = off + tl.arange(0, BLOCK_N)
        x = tl.load(x_row + cols, mask=cols < N, other=0.0, eviction_policy="evict_last")
        sq += x * x
    rrms = 1 / tl.sqrt(tl.sum(sq) / N + eps)
    for off in range(0, N, BLOCK_N):
        cols = off + tl.arange(0, BLOCK_N)
        mask = cols < N
        x = tl.load(x_row + cols, mask=mask, other=0.0, eviction_policy="evict_first")
        w = tl.load(w_ptr + cols, mask=mask, other=0.0)
        tl.store(y_row + cols, x * rrms * w, mask=mask)


def launch_rmsnorm(x, weight, eps):
    N = x.shape[-1]
    x2 = x.reshape(-1, N)
    y = torch.empty_like(x2)
    rmsnorm_kernel[(x2.shape[0],)](x2, weight, y, x2.stride(0), N, eps, BLOCK_N=2048, num_warps=8)
    return y.view_as(x)


# ---------------------------------------------------------------- level1/18 groupnorm
@triton.jit
def groupnorm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, C, HW, num_groups, eps, BLOCK: tl.constexpr):
    pid = tl.program_id(0)  # n * num_groups + g
    n = pid // num_groups
    g = pid % num_groups
    cpg = C // num_groups
    group_size = cpg * HW
    base = (n * C + g * cpg).to(tl.int64) * HW
    s = tl.zeros([BLOCK], tl.float32)
    ss = tl.zeros([BLOCK], tl.float32)
    for off in range(0, group_size, BLOCK):
        idx = off + tl.arange(0, BLOCK)
        m = idx < group_size
        x = tl.load(x_ptr + base + idx, mask=m, other=0.0)
        s += x
        ss += x * x
    mean = tl.sum(s, 0) / group_size
    var = tl.sum(ss, 0) / group_size - mean * mean
    rstd = tl.rsqrt(var + eps)
    for off in range(0, group_size, BLOCK):
        idx = off + tl.arange(0, BLOCK)
        m = idx < group_size
        c = g * cpg + idx // HW
        w = tl.load(w_ptr + c, mask=m)
        b = tl.load(b_ptr + c, mask=m)
        x = tl.load(x_ptr + base + idx, mask=m, other=0.0)
        y = (x - mean) * rstd * w + b
        tl.store(y_ptr + base + idx, y, mask=m)


def launch_groupnorm(x, weight, bias, num_groups, eps):
    N, C, H, W = x.shape
    y = torch.empty_like(x)
    groupnorm_kernel[(N * num_groups,)](
        x, weight, bias, y, C, H * W, num_groups, eps, BLOCK=4096, num_warps=8
    )
    return y


# ---------------------------------------------------------------- level1/20 square gemm
@triton.jit
def matmul_kernel(
    a_ptr,
    b_ptr,
    c_ptr,
    M,
    N,
    K,
    stride_am,
    stride_ak,
    stride_bk,
    stride_bn,
    stride_cm,
    stride_cn,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    GROUP_M: tl.constexpr,
):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    pid_m, pid_n = tl.swizzle2d(pid // num_pid_n, pid % num_pid_n, num_pid_m, num_pid_n, GROUP_M)
    a_block = tl.make_block_ptr(
        base=a_ptr,
        shape=(M, K),
        strides=(stride_am, stride_ak),
        offsets=(pid_m * BLOCK_M, 0),
        block_shape=(BLOCK_M, BLOCK_K),
        order=(1, 0),
    )
    b_block = tl.make_block_ptr(
        base=b_ptr,
        shape=(K, N),
        strides=(stride_bk, stride_bn),
        offsets=(0, pid_n * BLOCK_N),
        block_shape=(BLOCK_K, BLOCK_N),
        order=(1, 0),
    )
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_block, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_block, boundary_check=(0, 1), padding_option="zero")
        acc = tl.dot(a, b, acc, input_precision="tf32")
        a_block = tl.advance(a_block, (0, BLOCK_K))
        b_block = tl.advance(b_block, (BLOCK_K, 0))
    c_block = tl.make_block_ptr(
        c_ptr,
        (M, N),
        (stride_cm, stride_cn),
        (pid_m * BLOCK_M, pid_n * BLOCK_N),
        (BLOCK_M, BLOCK_N),
        (1, 0),
    )
    tl.store(c_block, acc, boundary_check=(0, 1))


def launch_matmul(a, b):
    M, K = a.shape
    _, N = b.shape
    c = torch.empty((M, N), device=a.device, dtype=torch.float32)
    grid = (triton.cdiv(M, 128) * triton.cdiv(N, 128),)
    matmul_kernel[grid](
        a, b, c, M, N, K, *a.stride(), *b.stride(), *c.stride(),
        BLOCK_M=128, BLOCK_N=128, BLOCK_K=32, GROUP_M=8, num_warps=8, num_stages=3,
    )  # fmt: skip
    return c


# ---------------------------------------------------------------- level1/22 batched matmul
@triton.jit
def bmm_kernel(
    a_ptr,
    b_ptr,
    c_ptr,
    M,
    N,
    K,
    stride_ab,
    stride_am,
    stride_ak,
    stride_bb,
    stride_bk,
    stride_bn,
    stride_cb,
    stride_cm,
    stride_cn,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    GROUP_M: tl.constexpr,
):
    pid = tl.program_id(0)
    bid = tl.program_id(1)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + (pid % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_m = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_n = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + bid * stride_ab + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + bid * stride_bb + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BLOCK_K), num_stages=4):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc += tl.dot(a, b, allow_tf32=True)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + bid * stride_cb + offs_cm[:, None] * stride_cm + offs_cn[None, :] * stride_cn
    tl.store(c_ptrs, acc, mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


def launch_bmm(a, b):
    B, M, K = a.shape
    N = b.shape[2]
    c = torch.empty((B, M, N), device=a.device, dtype=torch.float32)
    grid = (triton.cdiv(M, 128) * triton.cdiv(N, 64), B)
    bmm_kernel[grid](
        a, b, c, M, N, K, *a.stride(), *b.stride(), *c.stride(),
        BLOCK_M=128, BLOCK_N=64, BLOCK_K=32, GROUP_M=8, num_warps=4,
    )  # fmt: skip
    return c


# ---------------------------------------------------------------- level1/23 matrix-vector
@triton.jit
def matvec_kernel(
    a_ptr,
    x_ptr,
    y_ptr,
    M,
    K,
    stride_am,
    BLOCK_M: tl.constexpr,
    BLOCK_K: tl.constexpr,
    SPLIT_K: tl.constexpr,
):
    pid_m = tl.program_id(0)
    pid_k = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    mask_m = offs_m < M
    k_per_split = tl.cdiv(K, SPLIT_K)
    k_start = pid_k * k_per_split
    acc = tl.zeros((BLOCK_M, BLOCK_K), dtype=tl.float32)
    a_row = a_ptr + offs_m[:, None].to(tl.int64) * stride_am
    for k in range(k_start, k_start + k_per_split, BLOCK_K):
        offs_k = k + tl.arange(0, BLOCK_K)
        mask_k = offs_k < K
        a = tl.load(
            a_row + offs_k[None, :],
            mask=mask_m[:, None] & mask_k[None, :],
            other=0.0,
            eviction_policy="evict_first",
        )
        x = tl.load(x_ptr + offs_k, mask=mask_k, other=0.0)
        acc += a * x[None, :]
    y = tl.sum(acc, axis=1)
    if SPLIT_K == 1:
        tl.store(y_ptr + offs_m, y, mask=mask_m)
    else:
        tl.atomic_add(y_ptr + offs_m, y, mask=mask_m, sem="relaxed")


def launch_matvec(a, v):
    M, K = a.shape
    y = torch.zeros((M, 1), device=a.device, dtype=torch.float32)
    split_k = 4
    matvec_kernel[(triton.cdiv(M, 16), split_k)](
        a, v, y, M, K, a.stride(0), BLOCK_M=16, BLOCK_K=256, SPLIT_K=split_k, num_warps=4
    )
    return y


# ---------------------------------------------------------------- level1/25 conv2d (implicit GEMM)
@triton.jit
def conv2d_igemm_kernel(
    x_ptr,
    w_ptr,
    bias_ptr,
    y_ptr,
    N,
    C,
    H,
    W,
    OC,
    KH: tl.constexpr,
    KW: tl.constexpr,
    PAD: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)  # output pixel over N*H*W
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)  # output channel
    HW = H * W
    n_idx = offs_m // HW
    hw = offs_m % HW
    oh = hw // W
    ow = hw % W
    K_total = C * KH * KW
    acc = tl.zeros((BLOCK_M, BLOCK_N), tl.float32)
    for k0 in range(0, K_total, BLOCK_K):
        offs_k = k0 + tl.arange(0, BLOCK_K)
        c = offs_k // (KH * KW)
        r = offs_k % (KH * KW)
        kh = r // KW
        kw = r % KW
        ih = oh[:, None] + kh[None, :] - PAD
        iw = ow[:, None] + kw[None, :] - PAD
        in_bounds = (
            (ih >= 0)
            & (ih < H)
            & (iw >= 0)
            & (iw < W)
            & (offs_k[None, :] < K_total)
            & (offs_m[:, None] < N * HW)
        )
        x_off = ((n_idx[:, None] * C + c[None, :]) * H + ih) * W + iw
        a = tl.load(x_ptr + x_off, mask=in_bounds, other=0.0)
        w_off = offs_n[None, :] * K_total + offs_k[:, None]
        b = tl.load(
            w_ptr + w_off, mask=(offs_k[:, None] < K_total) & (offs_n[None, :] < OC), other=0.0
        )
        acc = tl.dot(a, b, acc)
    bias = tl.load(bias_ptr + offs_n, mask=offs_n < OC, other=0.0)
    acc += bias[None, :]
    y_off = (n_idx[:, None] * OC + offs_n[None, :]) * HW + hw[:, None]
    tl.store(y_ptr + y_off, acc, mask=(offs_m[:, None] < N * HW) & (offs_n[None, :] < OC))


def launch_conv2d(x, weight, bias):
    N, C, H, W = x.shape
    OC, _, KH, KW = weight.shape
    y = torch.empty((N, OC, H, W), device=x.device, dtype=torch.float32)
    grid = (triton.cdiv(N * H * W, 128), triton.cdiv(OC, 128))
    conv2d_igemm_kernel[grid](
        x, weight, bias, y, N, C, H, W, OC, KH=KH, KW=KW, PAD=KH // 2,
        BLOCK_M=128, BLOCK_N=128, BLOCK_K=32, num_warps=8, num_stages=3,
    )  # fmt: skip
    return y


# ---------------------------------------------------------------- level1/26 depthwise conv2d
@triton.jit
def dwconv_kernel(
    x_ptr,
    w_ptr,
    b_ptr,
    y_ptr,
    C,
    H,
    W,
    K: tl.constexpr,
    PAD: tl.constexpr,
    BLOCK_H: tl.constexpr,
    BLOCK_W: tl.constexpr,
):
    pid_nc = tl.program_id(0)
    pid_h = tl.program_id(1)
    pid_w = tl.program_id(2)
    c = pid_nc % C
    oh = pid_h * BLOCK_H + tl.arange(0, BLOCK_H)
    ow = pid_w * BLOCK_W + tl.arange(0, BLOCK_W)
    base = pid_nc.to(tl.int64) * H * W
    acc = tl.zeros((BLOCK_H, BLOCK_W), tl.float32)
    for kh in tl.static_range(K):
        for kw in tl.static_range(K):
            ih = oh[:, None] + kh - PAD
            iw = ow[None, :] + kw - PAD
            m = (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
            xv = tl.load(x_ptr + base + ih * W + iw, mask=m, other=0.0)
            wv = tl.load(w_ptr + c * K * K + kh * K + kw)
            acc += xv * wv
    acc += tl.load(b_ptr + c)
    om = (oh[:, None] < H) & (ow[None, :] < W)
    tl.store(y_ptr + base + oh[:, None] * W + ow[None, :], acc, mask=om)


def launch_dwconv(x, weight, bias):
    N, C, H, W = x.shape
    K = weight.shape[-1]
    y = torch.empty_like(x)
    grid = (N * C, triton.cdiv(H, 32), triton.cdiv(W, 64))
    dwconv_kernel[grid](
        x, weight, bias, y, C, H, W, K=K, PAD=K // 2, BLOCK_H=32, BLOCK_W=64, num_warps=4
    )
    return y


# ---------------------------------------------------------------- level1/29 maxpool2d
@triton.jit
def maxpool2d_kernel(
    x_ptr,
    y_ptr,
    H,
    W,
    OH,
    OW,
    total,
    KS: tl.constexpr,
    STRIDE: tl.constexpr,
    PAD: tl.constexpr,
    BLOCK: tl.constexpr,
):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    ow = offs % OW
    oh = (offs // OW) % OH
    nc = offs // (OW * OH)
    acc = tl.full([BLOCK], float("-inf"), tl.float32)
    for kh in tl.static_range(KS):
        ih = oh * STRIDE - PAD + kh
        for kw in tl.static_range(KS):
            iw = ow * STRIDE - PAD + kw
            valid = mask & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
            v = tl.load(
                x_ptr + nc.to(tl.int64) * H * W + ih * W + iw, mask=valid, other=float("-inf")
            )
            acc = tl.maximum(acc, v)
    tl.store(y_ptr + offs, acc, mask=mask)


def launch_maxpool2d(x, ks, stride, pad):
    N, C, H, W = x.shape
    OH = (H + 2 * pad - ks) // stride + 1
    OW = (W + 2 * pad - ks) // stride + 1
    y = torch.empty((N, C, OH, OW), device=x.device, dtype=x.dtype)
    total = y.numel()
    maxpool2d_kernel[(triton.cdiv(total, 1024),)](
        x, y, H, W, OH, OW, total, KS=ks, STRIDE=stride, PAD=pad, BLOCK=1024, num_warps=4
    )
    return y


# ---------------------------------------------------------------- level1/30 avgpool2d
@triton.jit
def avgpool2d_kernel(
    x_ptr,
    y_ptr,
    H,
    W,
    KS: tl.constexpr,
    PAD: tl.constexpr,
    BLOCK_H: tl.constexpr,
    BLOCK_W: tl.constexpr,
):
    pid_nc = tl.program_id(0)
    pid_hw = tl.program_id(1)
    n_w_blocks = tl.cdiv(W, BLOCK_W)
    pid_h = pid_hw // n_w_blocks
    pid_w = pid_hw % n_w_blocks
    oh = pid_h * BLOCK_H + tl.arange(0, BLOCK_H)[:, None]
    ow = pid_w * BLOCK_W + tl.arange(0, BLOCK_W)[None, :]
    plane = x_ptr + pid_nc.to(tl.int64) * H * W
    acc = tl.zeros((BLOCK_H, BLOCK_W), tl.float32)
    for i in tl.static_range(KS * KS):
        ih = oh + (i // KS) - PAD
        iw = ow + (i % KS) - PAD
        m = (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
        acc += tl.load(plane + ih * W + iw, mask=m, other=0.0)
    acc = acc * (1.0 / (KS * KS))
    tl.store(y_ptr + pid_nc.to(tl.int64) * H * W + oh * W + ow, acc, mask=(oh < H) & (ow < W))


def launch_avgpool2d(x, ks, pad):
    N, C, H, W = x.shape
    y = torch.empty_like(x)
    grid = (N * C, triton.cdiv(H, 16) * triton.cdiv(W, 64))
    avgpool2d_kernel[grid](x, y, H, W, KS=ks, PAD=pad, BLOCK_H=16, BLOCK_W=64, num_warps=4)
    return y


# ---------------------------------------------------------------- level1/31 cumsum
@triton.jit
def cumsum_kernel(x_ptr, y_ptr, n_rows, N: tl.constexpr, BLOCK_M: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, N)
    offs = rows[:, None] * N + cols[None, :]
    mask = rows[:, None] < n_rows
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = tl.cumsum(x, axis=1)
    tl.store(y_ptr + offs, y, mask=mask)


def launch_cumsum(x):
    n_rows, N = x.shape
    y = torch.empty_like(x)
    cumsum_kernel[(triton.cdiv(n_rows, 4),)](x, y, n_rows, N=N, BLOCK_M=4, num_warps=8)
    return y


# ---------------------------------------------------------------- level1/32 cumprod
@triton.jit
def _mul_combine(a, b):
    return a * b


@triton.jit
def cumprod_kernel(x_ptr, y_ptr, n_rows, N: tl.constexpr, BLOCK_M: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, N)
    offs = rows[:, None] * N + cols[None, :]
    mask = rows[:, None] < n_rows
    x = tl.load(x_ptr + offs, mask=mask, other=1.0)
    y = tl.associative_scan(x, axis=1, combine_fn=_mul_combine)
    tl.store(y_ptr + offs, y, mask=mask)


def launch_cumprod(x):
    n_rows, N = x.shape
    y = torch.empty_like(x)
    cumprod_kernel[(triton.cdiv(n_rows, 8),)](x, y, n_rows, N=N, BLOCK_M=8, num_warps=4)
    return y


# ---------------------------------------------------------------- level1/34 cross entropy
@triton.jit
def cross_entropy_kernel(
    logits_ptr, targets_ptr, loss_ptr, n_rows, n_cols, inv_n_rows, BLOCK: tl.constexpr
):
    row = tl.program_id(0)
    row_ptr = logits_ptr + row.to(tl.int64) * n_cols
    m = -float("inf")
    s = 0.0
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(row_ptr + cols, mask=cols < n_cols, other=-float("inf"))
        block_max = tl.max(x, 0)
        m_new = tl.maximum(m, block_max)
        s = s * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), 0)
        m = m_new
    target = tl.load(targets_ptr + row)
    target_logit = tl.load(row_ptr + target)
    loss = m + tl.log(s) - target_logit
    tl.atomic_add(loss_ptr, loss * inv_n_rows)


def launch_cross_entropy(logits, targets):
    n_rows, n_cols = logits.shape
    loss = torch.zeros((), device=logits.device, dtype=torch.float32)
    cross_entropy_kernel[(n_rows,)](
        logits, targets, loss, n_rows, n_cols, 1.0 / n_rows, BLOCK=4096, num_warps=8
    )
    return loss


# ---------------------------------------------------------------- level1/36 kl_div (batchmean)
@triton.jit
def kl_div_kernel(p_ptr, t_ptr, out_ptr, n_elements, inv_batch, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    p = tl.load(p_ptr + offs, mask=mask, other=1.0)
    t = tl.load(t_ptr + offs, mask=mask, other=0.0)
    val = tl.where(t > 0, t * (tl.log(t) - tl.log(p)), 0.0)
    partial = tl.sum(val, axis=0)
    tl.atomic_add(out_ptr, partial * inv_batch)


def launch_kl_div(predictions, targets):
    n = predictions.numel()
    out = torch.zeros((), device=predictions.device, dtype=torch.float32)
    kl_div_kernel[(triton.cdiv(n, 8192),)](
        predictions, targets, out, n, 1.0 / predictions.shape[0], BLOCK=8192, num_warps=8
    )
    return out


# ---------------------------------------------------------------- level2/1 linear + gelu + scale
@triton.jit
def linear_gelu_scale_kernel(
    x_ptr,
    w_ptr,
    b_ptr,
    y_ptr,
    M,
    N,
    K,
    stride_xm,
    stride_wn,
    stride_ym,
    scale,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    GROUP_M: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + (pid % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    x_ptrs = x_ptr + offs_m[:, None] * stride_xm + offs_k[None, :]
    w_ptrs = w_ptr + offs_n[None, :] * stride_wn + offs_k[:, None]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        x = tl.load(x_ptrs)
        w = tl.load(w_ptrs)
        acc = tl.dot(x, w, acc, input_precision="tf32x3")
        x_ptrs += BLOCK_K
        w_ptrs += BLOCK_K
    bias = tl.load(b_ptr + offs_n)
    z = acc + bias[None, :]
    y = 0.5 * z * (1.0 + tl.erf(z * 0.7071067811865476)) * scale
    tl.store(y_ptr + offs_m[:, None] * stride_ym + offs_n[None, :], y)


def launch_linear_gelu_scale(x, weight, bias, scale):
    M, K = x.shape
    N = weight.shape[0]
    y = torch.empty((M, N), device=x.device, dtype=torch.float32)
    grid = (triton.cdiv(M, 128) * triton.cdiv(N, 128),)
    linear_gelu_scale_kernel[grid](
        x, weight, bias, y, M, N, K, x.stride(0), weight.stride(0), y.stride(0), scale,
        BLOCK_M=128, BLOCK_N=128, BLOCK_K=32, GROUP_M=8, num_warps=8, num_stages=3,
    )  # fmt: skip
    return y


# ---------------------------------------------------------------- level2/8 flash attention
@triton.jit
def flash_attn_fwd(
    q_ptr,
    k_ptr,
    v_ptr,
    o_ptr,
    sm_scale,
    seq_len,
    stride_b,
    stride_s,
    HEAD_DIM: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
):
    pid_m = tl.program_id(0)
    bh = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    base = bh.to(tl.int64) * stride_b
    q = tl.load(
        q_ptr + base + offs_m[:, None] * stride_s + offs_d[None, :],
        mask=offs_m[:, None] < seq_len,
        other=0.0,
    )
    qk_scale = sm_scale * 1.44269504
    m_i = tl.full([BLOCK_M], -float("inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    for start_n in range(0, seq_len, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        kv_rows = start_n + offs_n
        k = tl.load(
            k_ptr + base + kv_rows[None, :] * stride_s + offs_d[:, None],
            mask=kv_rows[None, :] < seq_len,
            other=0.0,
        )  # (HEAD_DIM, BLOCK_N): K^T tile
        qk = tl.dot(q, k) * qk_scale
        qk = tl.where(kv_rows[None, :] < seq_len, qk, -float("inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(
            v_ptr + base + kv_rows[:, None] * stride_s + offs_d[None, :],
            mask=kv_rows[:, None] < seq_len,
            other=0.0,
        )
        acc = tl.dot(p, v, acc)
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(
        o_ptr + base + offs_m[:, None] * stride_s + offs_d[None, :],
        acc,
        mask=offs_m[:, None] < seq_len,
    )


def launch_flash_attn(q, k, v, sm_scale):
    BH, S, D = q.shape
    o = torch.empty_like(q)
    grid = (triton.cdiv(S, 128), BH)
    flash_attn_fwd[grid](
        q, k, v, o, sm_scale, S, q.stride(0), q.stride(1),
        HEAD_DIM=D, BLOCK_M=128, BLOCK_N=64, num_warps=8, num_stages=2,
    )  # fmt: skip
    return o


# ---------------------------------------------------------------- level2/12 linear + logsumexp + relu
@triton.jit
def linear_lse_relu_kernel(
    x_ptr,
    w_ptr,
    b_ptr,
    y_ptr,
    M,
    N,
    K,
    shift,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
):
    pid = tl.program_id(0)
    offs_m = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    m_i = tl.full((BLOCK_M,), float("-inf"), tl.float32)
    s_i = tl.zeros((BLOCK_M,), tl.float32)
    for n0 in range(0, N, BLOCK_N):
        offs_n = n0 + tl.arange(0, BLOCK_N)
        acc = tl.zeros((BLOCK_M, BLOCK_N), tl.float32)
        for k0 in range(0, K, BLOCK_K):
            offs_k = k0 + tl.arange(0, BLOCK_K)
            x = tl.load(x_ptr + offs_m[:, None] * K + offs_k[None, :], mask=offs_m[:, None] < M)
            w = tl.load(w_ptr + offs_n[None, :] * K + offs_k[:, None])
            acc = tl.dot(x, w, acc)
        acc += tl.load(b_ptr + offs_n)[None, :]
        m_new = tl.maximum(m_i, tl.max(acc, axis=1))
        s_i = s_i * tl.exp(m_i - m_new) + tl.sum(tl.exp(acc - m_new[:, None]), axis=1)
        m_i = m_new
    lse = m_i + tl.log(s_i)
    out = tl.maximum(lse - shift, 0.0)
    tl.store(y_ptr + offs_m, out, mask=offs_m < M)


def launch_linear_lse_relu(x, weight, bias, shift):
    M, K = x.shape
    N = weight.shape[0]
    y = torch.empty((M, 1), device=x.device, dtype=torch.float32)
    linear_lse_relu_kernel[(triton.cdiv(M, 64),)](
        x, weight, bias, y, M, N, K, shift,
        BLOCK_M=64, BLOCK_N=128, BLOCK_K=32, num_warps=8, num_stages=3,
    )  # fmt: skip
    return y


# ---------------------------------------------------------------- level2/11 conv2d + mish + avgpool
@triton.jit
def conv_mish_avgpool_kernel(
    x_ptr,
    w_ptr,
    b_ptr,
    y_ptr,
    NB,
    C,
    H,
    W,
    OC,
    PH,
    PW,
    KS: tl.constexpr,
    PAD: tl.constexpr,
    POOL: tl.constexpr,
    BLOCK_P: tl.constexpr,
    BLOCK_OC: tl.constexpr,
    BLOCK_K: tl.constexpr,
):
    pid_p = tl.program_id(0)
    pid_c = tl.program_id(1)
    offs_p = pid_p * BLOCK_P + tl.arange(0, BLOCK_P)  # pooled pixel over NB*PH*PW
    offs_oc = pid_c * BLOCK_OC + tl.arange(0, BLOCK_OC)
    p_mask = offs_p < NB * PH * PW
    n = offs_p // (PH * PW)
    rem = offs_p % (PH * PW)
    ph = rem // PW
    pw = rem % PW
    K_total = C * KS * KS
    bias = tl.load(b_ptr + offs_oc, mask=offs_oc < OC, other=0.0)
    pooled = tl.zeros((BLOCK_P, BLOCK_OC), tl.float32)
    for sub in tl.static_range(POOL * POOL):
        oh = ph * POOL + sub // POOL
        ow = pw * POOL + sub % POOL
        acc = tl.zeros((BLOCK_P, BLOCK_OC), tl.float32)
        for k0 in range(0, K_total, BLOCK_K):
            offs_k = k0 + tl.arange(0, BLOCK_K)
            c = offs_k // (KS * KS)
            kh = (offs_k % (KS * KS)) // KS
            kw = offs_k % KS
            ih = oh[:, None] + kh[None, :] - PAD
            iw = ow[:, None] + kw[None, :] - PAD
            m = (
                p_mask[:, None]
                & (offs_k[None, :] < K_total)
                & (ih >= 0)
                & (ih < H)
                & (iw >= 0)
                & (iw < W)
            )
            a = tl.load(
                x_ptr + ((n[:, None] * C + c[None, :]) * H + ih) * W + iw, mask=m, other=0.0
            )
            b = tl.load(
                w_ptr + offs_oc[None, :] * K_total + offs_k[:, None],
                mask=(offs_oc[None, :] < OC) & (offs_k[:, None] < K_total),
                other=0.0,
            )
            acc = tl.dot(a, b, acc)
        z = acc + bias[None, :]
        sp = tl.where(z > 20.0, z, libdevice.log1p(tl.exp(z)))
        pooled += z * libdevice.tanh(sp)
    pooled = pooled / (POOL * POOL)
    y_off = ((n[:, None] * OC + offs_oc[None, :]) * PH + ph[:, None]) * PW + pw[:, None]
    tl.store(y_ptr + y_off, pooled, mask=p_mask[:, None] & (offs_oc[None, :] < OC))


def launch_conv_mish_avgpool(x, weight, bias, pool):
    NB, C, H, W = x.shape
    OC, _, KS, _ = weight.shape
    PH, PW = H // pool, W // pool
    y = torch.empty((NB, OC, PH, PW), device=x.device, dtype=torch.float32)
    grid = (triton.cdiv(NB * PH * PW, 64), triton.cdiv(OC, 64))
    conv_mish_avgpool_kernel[grid](
        x, weight, bias, y, NB, C, H, W, OC, PH, PW, KS=KS, PAD=KS // 2, POOL=pool,
        BLOCK_P=64, BLOCK_OC=64, BLOCK_K=32, num_warps=4, num_stages=2,
    )  # fmt: skip
    return y


# ---------------------------------------------------------------- cases: what the launchers pass
F32, I32, I64, CE = "*fp32", "i32", "*i64", "constexpr"


def _sig(names: str, types: str) -> dict[str, str]:
    """Signature dict from space-separated argument names and their types."""
    kinds = {"p": F32, "i": I32, "f": "fp32", "l": I64, "c": CE}
    return {n: kinds[t] for n, t in zip(names.split(), types, strict=True)}


TRITON_CASES = {
    # elementwise a + b, 1D blocks with contiguity hints and streaming cache hints
    "fresh8_triton_elementwise_add": (
        add_kernel,
        _sig("a_ptr b_ptr out_ptr n_elements BLOCK_SIZE", "pppic"),
        {"BLOCK_SIZE": 4096},
    ),
    # exact erf GELU, 1D blocks
    "fresh8_triton_gelu": (
        gelu_kernel,
        _sig("x_ptr out_ptr n_elements BLOCK_SIZE", "ppic"),
        {"BLOCK_SIZE": 2048},
    ),
    # tanh through libdevice in a persistent grid-stride loop
    "fresh8_triton_tanh": (
        tanh_kernel,
        _sig("x_ptr out_ptr n_elements BLOCK_SIZE", "ppic"),
        {"BLOCK_SIZE": 4096},
    ),
    # sum over the middle dim: 2D tile accumulated over rows, reduced once at the end
    "fresh8_triton_sum_dim": (
        sum_dim1_kernel,
        _sig("x_ptr out_ptr R N stride_b stride_r stride_n BLOCK_R BLOCK_N", "ppiiiiicc"),
        {"BLOCK_R": 32, "BLOCK_N": 256},
    ),
    # max over the middle dim, pipelined row loop
    "fresh8_triton_max_dim": (
        max_dim1_kernel,
        _sig("x_ptr out_ptr R N BLOCK_R BLOCK_N", "ppiicc"),
        {"BLOCK_R": 64, "BLOCK_N": 128},
    ),
    # argmax over the last dim, several whole rows per program, int64 indices
    "fresh8_triton_argmax_dim": (
        argmax_kernel,
        {"x_ptr": F32, "out_ptr": I64, "n_rows": I32, "N": I32, "BLOCK_N": CE, "ROWS_PER_PROG": CE},
        {"BLOCK_N": 1024, "ROWS_PER_PROG": 4},
    ),  # fmt: skip
    # row softmax, persistent programs over rows, whole row in registers, exp2
    "fresh8_triton_softmax": (
        softmax_kernel,
        _sig(
            "x_ptr out_ptr n_rows n_cols x_row_stride out_row_stride BLOCK_SIZE NUM_STAGES",
            "ppiiiicc",
        ),
        {"BLOCK_SIZE": 4096, "NUM_STAGES": 2},
    ),  # fmt: skip
    # log-softmax over very wide rows: online max/sum pass then a write pass
    "fresh8_triton_log_softmax": (
        log_softmax_kernel,
        _sig("x_ptr out_ptr n_cols BLOCK", "ppic"),
        {"BLOCK": 4096},
    ),
    # layernorm, one row per program held in registers
    "fresh8_triton_layernorm": (
        layernorm_kernel,
        _sig("x_ptr w_ptr b_ptr y_ptr N eps BLOCK_N", "ppppifc"),
        {"BLOCK_N": 8192},
    ),
    # rmsnorm, one row per program, two passes over column blocks
    "fresh8_triton_rmsnorm": (
        rmsnorm_kernel,
        _sig("x_ptr w_ptr y_ptr stride_row N eps BLOCK_N", "pppiifc"),
        {"BLOCK_N": 2048},
    ),
    # groupnorm, one program per (sample, group): sum/sumsq pass then normalise pass
    "fresh8_triton_groupnorm": (
        groupnorm_kernel,
        _sig("x_ptr w_ptr b_ptr y_ptr C HW num_groups eps BLOCK", "ppppiiifc"),
        {"BLOCK": 4096},
    ),
    # square GEMM with block pointers, swizzled tile order, tf32 tensor cores
    "fresh8_triton_square_gemm": (
        matmul_kernel,
        _sig(
            "a_ptr b_ptr c_ptr M N K stride_am stride_ak stride_bk stride_bn stride_cm "
            "stride_cn BLOCK_M BLOCK_N BLOCK_K GROUP_M",
            "pppiiiiiiiiicccc",
        ),
        {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32, "GROUP_M": 8},
    ),  # fmt: skip
    # batched GEMM, batch on grid axis 1, grouped tile order, pipelined K loop
    "fresh8_triton_batched_matmul": (
        bmm_kernel,
        _sig(
            "a_ptr b_ptr c_ptr M N K stride_ab stride_am stride_ak stride_bb stride_bk "
            "stride_bn stride_cb stride_cm stride_cn BLOCK_M BLOCK_N BLOCK_K GROUP_M",
            "pppiiiiiiiiiiiicccc",
        ),
        {"BLOCK_M": 128, "BLOCK_N": 64, "BLOCK_K": 32, "GROUP_M": 8},
    ),  # fmt: skip
    # matrix-vector product, row tiles with split-K partial sums combined by atomics
    "fresh8_triton_matrix_vector": (
        matvec_kernel,
        _sig("a_ptr x_ptr y_ptr M K stride_am BLOCK_M BLOCK_K SPLIT_K", "pppiiiccc"),
        {"BLOCK_M": 16, "BLOCK_K": 256, "SPLIT_K": 4},
    ),
    # 3x3 conv2d as an implicit GEMM over (pixels x out-channels) with tl.dot
    "fresh8_triton_conv2d": (
        conv2d_igemm_kernel,
        _sig(
            "x_ptr w_ptr bias_ptr y_ptr N C H W OC KH KW PAD BLOCK_M BLOCK_N BLOCK_K",
            "ppppiiiiicccccc",
        ),
        {"KH": 3, "KW": 3, "PAD": 1, "BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32},
    ),  # fmt: skip
    # depthwise 3x3 conv, 2D output tile per (n, c) plane, unrolled taps
    "fresh8_triton_depthwise_conv2d": (
        dwconv_kernel,
        _sig("x_ptr w_ptr b_ptr y_ptr C H W K PAD BLOCK_H BLOCK_W", "ppppiiicccc"),
        {"K": 3, "PAD": 1, "BLOCK_H": 32, "BLOCK_W": 64},
    ),
    # 3x3 stride-2 max pooling over flattened output elements
    "fresh8_triton_maxpool2d": (
        maxpool2d_kernel,
        _sig("x_ptr y_ptr H W OH OW total KS STRIDE PAD BLOCK", "ppiiiiicccc"),
        {"KS": 3, "STRIDE": 2, "PAD": 1, "BLOCK": 1024},
    ),
    # 3x3 stride-1 average pooling (padding counted), 2D output tiles
    "fresh8_triton_avgpool2d": (
        avgpool2d_kernel,
        _sig("x_ptr y_ptr H W KS PAD BLOCK_H BLOCK_W", "ppiicccc"),
        {"KS": 3, "PAD": 1, "BLOCK_H": 16, "BLOCK_W": 64},
    ),
    # row cumsum with tl.cumsum, several whole rows per program
    "fresh8_triton_cumsum": (
        cumsum_kernel,
        _sig("x_ptr y_ptr n_rows N BLOCK_M", "ppicc"),
        {"N": 2048, "BLOCK_M": 4},
    ),
    # row cumprod with tl.associative_scan and a multiply combine function
    "fresh8_triton_cumprod": (
        cumprod_kernel,
        _sig("x_ptr y_ptr n_rows N BLOCK_M", "ppicc"),
        {"N": 512, "BLOCK_M": 8},
    ),
    # cross-entropy: per-row online logsumexp minus target logit, mean by atomic add
    "fresh8_triton_cross_entropy": (
        cross_entropy_kernel,
        {
            "logits_ptr": F32,
            "targets_ptr": I64,
            "loss_ptr": F32,
            "n_rows": I32,
            "n_cols": I32,
            "inv_n_rows": "fp32",
            "BLOCK": CE,
        },
        {"BLOCK": 4096},
    ),  # fmt: skip
    # KL divergence (batchmean): blockwise t*(log t - log p) partial sums, atomic add
    "fresh8_triton_kl_div": (
        kl_div_kernel,
        _sig("p_ptr t_ptr out_ptr n_elements inv_batch BLOCK", "pppifc"),
        {"BLOCK": 8192},
    ),
    # fused linear (x W^T + b) with erf-GELU and scale epilogue, 3xTF32 dot
    "fresh8_triton_gemm_gelu_scale": (
        linear_gelu_scale_kernel,
        _sig(
            "x_ptr w_ptr b_ptr y_ptr M N K stride_xm stride_wn stride_ym scale BLOCK_M "
            "BLOCK_N BLOCK_K GROUP_M",
            "ppppiiiiiifcccc",
        ),
        {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32, "GROUP_M": 8},
    ),  # fmt: skip
    # flash-attention forward for softmax(Q K^T * scale) V, online softmax with exp2
    "fresh8_triton_bmm_scale_softmax_bmm": (
        flash_attn_fwd,
        _sig(
            "q_ptr k_ptr v_ptr o_ptr sm_scale seq_len stride_b stride_s HEAD_DIM BLOCK_M BLOCK_N",
            "ppppfiiiccc",
        ),
        {"HEAD_DIM": 128, "BLOCK_M": 128, "BLOCK_N": 64},
    ),  # fmt: skip
    # fused linear + row logsumexp + ReLU: N tiles of GEMM folded into an online LSE
    "fresh8_triton_gemm_logsumexp_relu": (
        linear_lse_relu_kernel,
        _sig("x_ptr w_ptr b_ptr y_ptr M N K shift BLOCK_M BLOCK_N BLOCK_K", "ppppiiifccc"),
        {"BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 32},
    ),
    # fused conv2d (implicit GEMM) + Mish + 2x2 average pool, four sub-positions per output
    "fresh8_triton_conv2d_mish_avgpool": (
        conv_mish_avgpool_kernel,
        _sig(
            "x_ptr w_ptr b_ptr y_ptr NB C H W OC PH PW KS PAD POOL BLOCK_P BLOCK_OC BLOCK_K",
            "ppppiiiiiiicccccc",
        ),
        {"KS": 3, "PAD": 1, "POOL": 2, "BLOCK_P": 64, "BLOCK_OC": 64, "BLOCK_K": 32},
    ),  # fmt: skip
}


if __name__ == "__main__":
    capture_main(__doc__, {}, TRITON_CASES, {}, {})
