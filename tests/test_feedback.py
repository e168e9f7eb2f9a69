"""Feedback text: fixed-input checks of every diagnostic line, and real broken kernels."""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from kernelsearch.feedback import (
    compile_error_lines,
    kernel_frames,
    limit_hit,
    mismatch_lines,
    render_feedback,
    resource_line,
    roofline_line,
    timing_lines,
    trim_template_noise,
)
from kernelsearch.hardware import HardwareProfile, get_profile, occupancy, roofline_fractions
from kernelsearch.result import EvalResult, Flag, Mismatch, Severity, Stage, TimingStats
from kernelsearch.retrieval import ApiFactsIndex, DocsIndex

REPO = Path(__file__).resolve().parents[1]
LOGS = REPO / "benchmarks" / "retrieval" / "logs"

# 1000 GB/s and 100 TFLOP/s fp32: round numbers for hand-computed fractions.
ROUND = HardwareProfile.from_dict(
    {
        "name": "round",
        "kind": "gpu",
        "vendor": "test",
        "description": "round numbers",
        "match": ["round"],
        "compute_units": 100,
        "memory_gb": 80,
        "memory_bandwidth_gbs": 1000,
        "l2_bytes": 1 << 20,
        "peak_tflops": {"fp32": 100.0},
    }
)


def stats(ms: float) -> TimingStats:
    return TimingStats(mean=ms, median=ms, std=0.01, min=ms, max=ms, trials=20, method="cuda_event")


@pytest.fixture(scope="module")
def docs(tmp_path_factory: pytest.TempPathFactory) -> DocsIndex:
    index = DocsIndex(corpus_dirs=[REPO / "docs_index"], cache_dir=tmp_path_factory.mktemp("docs"))
    index.build()
    return index


# ---- pure lines with fixed inputs -------------------------------------------------------------
def test_mismatch_lines_report_diffs_bad_fraction_first_index_nan_and_trial() -> None:
    m = Mismatch(
        trial=2,
        distribution="normal(0,1)",
        max_abs_diff=0.5,
        mean_abs_diff=0.00125,
        bad_fraction=0.0625,
        first_bad_index=[3, 7],
        has_nan=True,
    )
    lines = mismatch_lines(m, trials_passed=2, trials_run=5)
    assert lines == [
        "Values differ: max abs diff 0.5, mean abs diff 0.00125; 6.25% of elements outside tolerance, first at index [3, 7].",
        "Output contains NaN.",
        "Failed on trial 2 with inputs from normal(0,1) (2/5 trials passed).",
    ]


def test_mismatch_lines_lead_with_shape_and_dtype_mismatch() -> None:
    m = Mismatch(
        trial=0,
        shape_expected=[4, 8],
        shape_got=[32],
        dtype_expected="float32",
        dtype_got="float16",
    )
    lines = mismatch_lines(m)
    assert lines[0] == "Output shape mismatch: expected [4, 8], got [32]."
    assert lines[1] == "Output dtype mismatch: expected float32, got float16."
    assert not any(line.startswith("Values differ") for line in lines)


def test_roofline_line_for_a_memory_bound_kernel_names_the_bandwidth_fraction() -> None:
    # 1e9 bytes in 4 ms = 250 GB/s = 25% of 1000 GB/s; bound time = 1 ms.
    r = roofline_fractions(ROUND, flops=1e8, bytes_moved=1e9, dtype="float32", measured_ms=4.0)
    line = roofline_line(r)
    assert "memory bound" in line
    assert "uses 25% of peak bandwidth (250 GB/s)" in line
    assert "moves 1 GB, 100 MFLOP" in line
    assert "roofline time 1.00 ms (25% of the way to the bound)" in line


def test_roofline_line_for_a_compute_bound_kernel_and_an_impossible_one() -> None:
    # 1e12 FLOP in 20 ms = 50 TFLOP/s = 50% of 100; bound 10 ms.
    r = roofline_fractions(ROUND, flops=1e12, bytes_moved=1e6, dtype="float32", measured_ms=20.0)
    assert "compute bound" in roofline_line(r) and "uses 50% of peak fp32 FLOP/s" in roofline_line(
        r
    )
    fast = roofline_fractions(ROUND, flops=1e12, bytes_moved=1e6, dtype="float32", measured_ms=5.0)
    assert "FASTER than the hardware allows" in roofline_line(fast)


def test_resource_line_shows_spills_and_occupancy_from_the_profile() -> None:
    h100 = get_profile("h100-sxm")
    resources = {
        "registers": 64,
        "shared_mem_bytes": 0,
        "spill_stores": 16,
        "spill_loads": 8,
        "threads_per_block": 256,
    }
    occ = occupancy(h100, 256, 64, 0)
    line = resource_line(resources, occ)
    assert "64 registers/thread" in line and "256 threads/block" in line
    assert "spills: 16 B stored, 8 B loaded" in line
    # 64 regs x 256 threads = 16384 registers/block -> 4 blocks = 32 of 64 warps.
    assert "Occupancy 50% (32/64 warps, 4 blocks/SM, limited by registers)" in line
    assert resource_line({}) is None


def test_timing_lines_give_speedups_against_both_baselines() -> None:
    result = EvalResult(
        task="t",
        backend="cuda",
        device="cuda",
        stage=Stage.CORRECT,
        correct=True,
        runtime=stats(2.0),
        baseline_eager=stats(3.0),
        baseline_compile=stats(1.0),
    )
    lines = timing_lines(result)
    assert lines[1] == "vs eager PyTorch: 3.00 ms -> 1.50x (faster)."
    assert lines[2] == "vs torch.compile: 1.00 ms -> 0.50x (slower)."
    assert "std " in lines[0]  # recorded without an IQR: the std is the spread shown


def test_timing_line_shows_the_iqr_the_search_uses_as_noise() -> None:
    runtime = dataclasses.replace(stats(2.0), iqr=0.04)
    result = EvalResult("t", "cuda", "cuda", Stage.CORRECT, correct=True, runtime=runtime)
    line = timing_lines(result)[0]
    assert "IQR" in line and "std" not in line


def test_trim_template_noise_collapses_long_template_arguments_only() -> None:
    noisy = 'calling a __host__ function("std::vector<float, ::std::allocator<float> > ::vector(unsigned long, const ::std::allocator<float> &)")'
    assert (
        trim_template_noise(noisy, keep=20)
        == 'calling a __host__ function("std::vector<…> ::vector(unsigned long, const ::std::allocator<float> &)")'
    )
    shape = 'incomplete type "nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 8, half, nvcuda::wmma::row_major>"'
    assert trim_template_noise(shape) == shape  # short enough to keep: the shape is the point
    assert len(trim_template_noise("x" * 1000)) == 300


def test_kernel_frames_skip_library_frames_and_limit_hit_names_the_limit() -> None:
    tb = (LOGS / "python_interp_grid_int.log").read_text()
    frames = kernel_frames(tb)
    assert frames == ["repro.py:17 in <module>: add_kernel[4](x, y, out, x.numel(), BLOCK=256)"]
    assert limit_hit(
        "RuntimeError: CUDA error: an illegal memory access was encountered"
    ).startswith("memory access fault")
    assert (
        limit_hit("torch.OutOfMemoryError: CUDA out of memory.") == "memory limit (out of memory)"
    )
    assert limit_hit("ValueError: bad") is None


def test_compile_error_lines_show_distinct_errors_with_source_lines() -> None:
    lines = compile_error_lines(
        (LOGS / "nvcc_wmma_no_namespace.log").read_text(), "cuda", max_errors=2
    )
    assert lines[0] == '- kernel.cu:4: name followed by "::" must be a class or namespace name'
    assert lines[1].strip().startswith("wmma::fragment<")
    assert lines[-1].startswith("(+") and "more distinct errors" in lines[-1]


# ---- whole feedback texts ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("log", "backend", "key"),
    [
        ("nvcc_shfl_no_sync", "cuda", 'identifier "__shfl_down" is undefined'),
        ("gcc_omp_break_in_loop", "cpu", "break statement used with OpenMP for loop"),
        ("triton_dot_small_tile", "triton", "K >= 16"),
    ],
)
def test_compile_failure_feedback_has_the_key_message_and_documentation(
    log: str, backend: str, key: str, docs: DocsIndex
) -> None:
    result = EvalResult(
        task="1_x",
        backend=backend,
        device="cpu",
        stage=Stage.COMPILE_FAILED,
        compile_log=(LOGS / f"{log}.log").read_text(),
    )
    text = render_feedback(result, retriever=docs, max_chars=5000)
    assert key in text
    head, _, documentation = text.partition("Relevant documentation:")
    assert "Compilation failed:" in head
    assert documentation.count("\n## ") >= 1
    assert len(text) <= 5000


def test_compile_failure_about_a_library_call_shows_its_installed_signature_before_docs(
    docs: DocsIndex, tmp_path: Path
) -> None:
    result = EvalResult(
        task="1_x",
        backend="cpu",
        device="cpu",
        stage=Stage.COMPILE_FAILED,
        compile_log=(LOGS / "fresh5_gcc_conv2d_stride_in_bias_slot.log").read_text(),
    )
    api = ApiFactsIndex(cache_dir=tmp_path)
    text = render_feedback(result, retriever=docs, api=api, max_chars=5000)
    diagnosis, _, rest = text.partition("API reference (installed: torch ")
    assert "Compilation failed:" in diagnosis
    facts, _, documentation = rest.partition("Relevant documentation:")
    assert "at::conv2d" in facts and "Tensor? bias=None, SymInt[2] stride=1" in facts
    assert documentation.count("\n## ") >= 1 and len(text) <= 5000
    assert "API reference" not in render_feedback(result, retriever=docs, max_chars=5000)


def test_correct_but_slow_feedback_has_roofline_resources_flags_and_bottleneck_docs(
    docs: DocsIndex,
) -> None:
    result = EvalResult(
        task="19_ReLU",
        backend="cuda",
        device="cuda",
        stage=Stage.CORRECT,
        correct=True,
        runtime=stats(4.0),
        baseline_eager=stats(2.0),
        baseline_compile=stats(1.8),
        flops=1e8,
        bytes_moved=1e9,
        resources={"registers": 32, "threads_per_block": 256, "spill_stores": 0, "spill_loads": 0},
        flags=(Flag("launch_overhead", Severity.WARNING, "input smaller than 1 MB"),),
    )
    text = render_feedback(result, retriever=docs, hardware=ROUND)
    assert "uses 25% of peak bandwidth" in text
    assert "vs eager PyTorch: 2.00 ms -> 0.50x (slower)." in text
    assert "Compiler resources: 32 registers/thread" in text
    assert "- [warning] launch_overhead: input smaller than 1 MB" in text
    assert "Relevant documentation:" in text


def test_cuda_kernel_without_a_known_block_size_gets_its_occupancy_ceiling() -> None:
    h100 = get_profile("h100-sxm")
    result = EvalResult(
        task="19_ReLU",
        backend="cuda",
        device="cuda",
        stage=Stage.CORRECT,
        correct=True,
        runtime=stats(1.0),
        resources={"registers": 40, "shared_mem_bytes": 0, "spill_stores": 0, "spill_loads": 0},
    )
    text = render_feedback(result, hardware=h100)
    assert (
        "Block size not known; these resources allow at most 75% occupancy "
        "(48/64 warps, e.g. 24 blocks of 64 threads; limited by registers)."
    ) in text


def test_compiled_only_kernel_gets_occupancy_from_its_architectures_limits() -> None:
    result = EvalResult(
        task="19_ReLU",
        backend="cuda",
        device="sm_90a",
        stage=Stage.COMPILED,
        resources={"registers": 128, "shared_mem_bytes": 0},
    )
    text = render_feedback(result)  # no device profile: compiled here, no GPU
    assert "at most 25% occupancy (16/64 warps" in text and "limited by registers" in text
    assert "Roofline" not in text


def test_incorrect_feedback_without_retriever_is_just_the_diagnosis() -> None:
    result = EvalResult(
        task="t",
        backend="triton",
        device="cuda",
        stage=Stage.INCORRECT,
        trials_passed=0,
        trials_run=5,
        mismatch=Mismatch(
            trial=0, max_abs_diff=1.0, mean_abs_diff=0.5, bad_fraction=1.0, first_bad_index=[0]
        ),
    )
    text = render_feedback(result)
    assert "Output is wrong:" in text and "100.00% of elements outside tolerance" in text
    assert "Relevant documentation" not in text


def test_runtime_error_feedback_names_the_error_frames_and_limit() -> None:
    tb = 'Traceback (most recent call last):\n  File "/tmp/cand/model_new.py", line 40, in forward\n    k[grid](x)\nRuntimeError: CUDA error: an illegal memory access was encountered\n'
    result = EvalResult(
        task="t", backend="cuda", device="cuda", stage=Stage.RUNTIME_ERROR, error=tb, wall_s=1.5
    )
    text = render_feedback(result)
    assert "Error: RuntimeError: CUDA error: an illegal memory access was encountered" in text
    assert "model_new.py:40 in forward: k[grid](x)" in text
    assert "Limit hit: memory access fault (out-of-bounds or bad pointer) after 1.5 s." in text


# ---- real broken kernels, compiled now ---------------------------------------------------------
@pytest.mark.slow
@pytest.mark.skipif(shutil.which("nvcc") is None, reason="needs nvcc")
def test_real_nvcc_failure_gives_feedback_with_message_and_docs(
    tmp_path: Path, docs: DocsIndex
) -> None:
    source = tmp_path / "k.cu"
    source.write_text(
        textwrap.dedent(
            """
            __global__ void count(const float* x, long* n, int size) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < size && x[i] > 0.f) atomicAdd(n, 1L);
            }
            """
        )
    )
    done = subprocess.run(
        ["nvcc", "-c", "-arch=sm_90a", "k.cu"], cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode != 0
    result = EvalResult(
        task="t",
        backend="cuda",
        device="cpu",
        stage=Stage.COMPILE_FAILED,
        compile_log=done.stderr + done.stdout,
    )
    text = render_feedback(result, retriever=docs)
    assert 'no instance of overloaded function "atomicAdd"' in text
    assert "## atomicAdd overloads and types" in text


@pytest.mark.slow
def test_real_triton_compile_failure_gives_feedback_with_message_and_docs(
    tmp_path: Path, docs: DocsIndex
) -> None:
    kernel = tmp_path / "cand_kernel.py"
    kernel.write_text(
        textwrap.dedent(
            """
            import triton
            import triton.language as tl

            @triton.jit
            def copy(x_ptr, y_ptr, BLOCK: tl.constexpr):
                offs = tl.arange(0, BLOCK)
                tl.store(y_ptr + offs, tl.load(x_ptr + offs))
            """
        )
    )
    script = (
        "import sys, traceback; sys.path.insert(0, sys.argv[1]); import cand_kernel as c\n"
        "import triton\nfrom triton.compiler import ASTSource\nfrom triton.backends.compiler import GPUTarget\n"
        "src = ASTSource(fn=c.copy, signature={'x_ptr': '*fp32', 'y_ptr': '*fp32', 'BLOCK': 'constexpr'}, constexprs={'BLOCK': 96})\n"
        "triton.compile(src, target=GPUTarget('cuda', 90, 32))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)],
        capture_output=True,
        text=True,
        env={**os.environ, "TRITON_DEFAULT_FP_FUSION": "1"},
    )
    assert done.returncode != 0
    result = EvalResult(
        task="t",
        backend="triton",
        device="cpu",
        stage=Stage.COMPILE_FAILED,
        compile_log=done.stderr,
    )
    text = render_feedback(result, retriever=docs)
    assert "arange's range must be a power of 2" in text
    assert "## tl.arange and power-of-two block sizes" in text


def test_a_block_that_cannot_launch_says_which_limit_it_exceeds() -> None:
    h100 = get_profile("h100-sxm")
    resources = {"registers": 32, "shared_mem_bytes": 300 * 1024, "threads_per_block": 256}
    occ = occupancy(h100, 256, 32, 300 * 1024)
    assert resource_line(resources, occ).endswith(
        "This block cannot launch: shared memory exceed the per-SM limit."
    )
