"""Broken Triton kernels. Kept in a real file because Triton reads a kernel's source."""
# ruff: noqa: F841

import triton
import triton.language as tl

SCALE = 0.5  # a plain global: Triton refuses to read it inside a kernel


@triton.jit
def arange_runtime_bound(x_ptr, y_ptr, n):
    offs = tl.arange(0, n)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs))


@triton.jit
def arange_not_pow2(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


@triton.jit
def dot_small_tile(a_ptr, b_ptr, c_ptr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(a_ptr + rm[:, None] * BK + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * BN + rn[None, :])
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], tl.dot(a, b))


@triton.jit
def dot_mixed_dtypes(a_ptr, b_ptr, c_ptr, B: tl.constexpr):
    r = tl.arange(0, B)
    a = tl.load(a_ptr + r[:, None] * B + r[None, :])
    b = tl.load(b_ptr + r[:, None] * B + r[None, :])
    tl.store(c_ptr + r[:, None] * B + r[None, :], tl.dot(a, b))


@triton.jit
def dot_1d(a_ptr, b_ptr, c_ptr, B: tl.constexpr):
    r = tl.arange(0, B)
    a = tl.load(a_ptr + r)
    b = tl.load(b_ptr + r)
    tl.store(c_ptr, tl.dot(a, b))


@triton.jit
def broadcast_mismatch(x_ptr, y_ptr, out_ptr, BX: tl.constexpr, BY: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BX))
    y = tl.load(y_ptr + tl.arange(0, BY))
    tl.store(out_ptr + tl.arange(0, BX), x + y)


@triton.jit
def store_shape_mismatch(x_ptr, out_ptr, B: tl.constexpr):
    r = tl.arange(0, B)
    tile = tl.load(x_ptr + r[:, None] * B + r[None, :])
    tl.store(out_ptr + r, tile)


@triton.jit
def reads_python_global(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m) * SCALE, mask=m)


def plain_helper(v):
    return v * 2


@triton.jit
def calls_plain_python(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, plain_helper(tl.load(x_ptr + offs, mask=m)), mask=m)


@triton.jit
def sum_bad_axis(x_ptr, out_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.store(out_ptr, tl.sum(x, axis=1))


@triton.jit
def program_id_axis3(x_ptr, y_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(3)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs))


@triton.jit
def load_from_integer(x_ptr, n, y_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(n + offs)
    tl.store(y_ptr + offs, v)


@triton.jit
def float_offsets(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK) * 1.5
    tl.store(y_ptr + offs, tl.load(x_ptr + offs))


@triton.jit
def zeros_runtime_shape(x_ptr, y_ptr, n):
    acc = tl.zeros((n,), dtype=tl.float32)
    tl.store(y_ptr + tl.arange(0, 16), acc)


@triton.jit
def static_range_runtime(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for i in tl.static_range(n):
        acc += tl.load(x_ptr + i * BLOCK + tl.arange(0, BLOCK))
    tl.store(y_ptr + tl.arange(0, BLOCK), acc)


@triton.jit
def mask_wrong_shape(x_ptr, y_ptr, n, B: tl.constexpr):
    r = tl.arange(0, B)
    ptrs = x_ptr + r[:, None] * B + r[None, :]
    row_mask = tl.arange(0, 2 * B) < n
    tile = tl.load(ptrs, mask=row_mask, other=0.0)
    tl.store(y_ptr + r[:, None] * B + r[None, :], tile)


@triton.jit
def tensor_condition(x_ptr, y_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    if x > 0:
        x = x * 2
    tl.store(y_ptr + tl.arange(0, BLOCK), x)


@triton.jit
def reshape_bad_numel(x_ptr, y_ptr, B: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, B))
    y = tl.reshape(x, (B, 2))
    tl.store(y_ptr + tl.arange(0, B), tl.sum(y, axis=1))
