"""Triton compile errors captured ahead-of-time for an sm_90 CUDA target (no GPU needed).

Run: python benchmarks/retrieval/capture/triton_cases.py [case ...]
Each case compiles one kernel from triton_kernels.py with
`triton.compile(ASTSource(fn, signature, constexprs), target=GPUTarget("cuda", 90, 32))`
and saves the full traceback (with chained causes) as a log.
"""

from __future__ import annotations

import os
import traceback

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")

import triton  # noqa: E402
import triton_kernels as tk  # noqa: E402
from _capture import LOG_DIR, selected  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402

F32 = "*fp32"
F16 = "*fp16"

# name: (kernel, signature, constexprs)
CASES = {
    "triton_arange_runtime_bound": (
        tk.arange_runtime_bound,
        {"x_ptr": F32, "y_ptr": F32, "n": "i32"},
        {},
    ),
    "triton_arange_not_pow2": (
        tk.arange_not_pow2,
        {"x_ptr": F32, "y_ptr": F32, "n": "i32", "BLOCK": "constexpr"},
        {"BLOCK": 100},
    ),
    "triton_dot_small_tile": (
        tk.dot_small_tile,
        {
            "a_ptr": F16,
            "b_ptr": F16,
            "c_ptr": F32,
            "BM": "constexpr",
            "BN": "constexpr",
            "BK": "constexpr",
        },
        {"BM": 16, "BN": 16, "BK": 8},
    ),
    "triton_dot_mixed_dtypes": (
        tk.dot_mixed_dtypes,
        {"a_ptr": F16, "b_ptr": F32, "c_ptr": F32, "B": "constexpr"},
        {"B": 32},
    ),
    "triton_dot_1d": (
        tk.dot_1d,
        {"a_ptr": F16, "b_ptr": F16, "c_ptr": F32, "B": "constexpr"},
        {"B": 32},
    ),
    "triton_broadcast_mismatch": (
        tk.broadcast_mismatch,
        {"x_ptr": F32, "y_ptr": F32, "out_ptr": F32, "BX": "constexpr", "BY": "constexpr"},
        {"BX": 128, "BY": 64},
    ),
    "triton_store_shape_mismatch": (
        tk.store_shape_mismatch,
        {"x_ptr": F32, "out_ptr": F32, "B": "constexpr"},
        {"B": 32},
    ),
    "triton_reads_python_global": (
        tk.reads_python_global,
        {"x_ptr": F32, "y_ptr": F32, "n": "i32", "BLOCK": "constexpr"},
        {"BLOCK": 128},
    ),
    "triton_calls_plain_python": (
        tk.calls_plain_python,
        {"x_ptr": F32, "y_ptr": F32, "n": "i32", "BLOCK": "constexpr"},
        {"BLOCK": 128},
    ),
    "triton_sum_bad_axis": (
        tk.sum_bad_axis,
        {"x_ptr": F32, "out_ptr": F32, "BLOCK": "constexpr"},
        {"BLOCK": 128},
    ),
    "triton_program_id_axis3": (
        tk.program_id_axis3,
        {"x_ptr": F32, "y_ptr": F32, "BLOCK": "constexpr"},
        {"BLOCK": 128},
    ),
    "triton_load_from_integer": (
        tk.load_from_integer,
        {"x_ptr": F32, "n": "i32", "y_ptr": F32, "BLOCK": "constexpr"},
        {"BLOCK": 128},
    ),
    "triton_float_offsets": (
        tk.float_offsets,
        {"x_ptr": F32, "y_ptr": F32, "BLOCK": "constexpr"},
        {"BLOCK": 128},
    ),
    "triton_zeros_runtime_shape": (
        tk.zeros_runtime_shape,
        {"x_ptr": F32, "y_ptr": F32, "n": "i32"},
        {},
    ),
    "triton_static_range_runtime": (
        tk.static_range_runtime,
        {"x_ptr": F32, "y_ptr": F32, "n": "i32", "BLOCK": "constexpr"},
        {"BLOCK": 128},
    ),
    "triton_mask_wrong_shape": (
        tk.mask_wrong_shape,
        {"x_ptr": F32, "y_ptr": F32, "n": "i32", "B": "constexpr"},
        {"B": 32},
    ),
    "triton_tensor_condition": (
        tk.tensor_condition,
        {"x_ptr": F32, "y_ptr": F32, "BLOCK": "constexpr"},
        {"BLOCK": 128},
    ),
    "triton_reshape_bad_numel": (
        tk.reshape_bad_numel,
        {"x_ptr": F32, "y_ptr": F32, "B": "constexpr"},
        {"B": 64},
    ),
}


def compile_error(fn, signature, constexprs) -> str:
    try:
        triton.compile(
            ASTSource(fn=fn, signature=signature, constexprs=constexprs),
            target=GPUTarget("cuda", 90, 32),
        )
    except Exception as e:  # the compiler's own exception is the log
        return "".join(traceback.format_exception(e))
    return ""


def main() -> None:
    LOG_DIR.mkdir(parents=True, exist_ok=True)
    for name in selected(list(CASES)):
        text = compile_error(*CASES[name])
        if not text:
            print(f"[{name}] compiled cleanly: no log written")
            continue
        (LOG_DIR / f"{name}.log").write_text(text)
        print(f"[{name}] {len(text)} chars")


if __name__ == "__main__":
    main()
