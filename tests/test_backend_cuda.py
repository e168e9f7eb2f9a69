"""CUDA backend without a GPU: nvcc compile-only for sm_90a, ptxas figures, flags load_inline uses."""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import pytest

from kernelsearch.backends import RunMode, get_backend, nvcc
from kernelsearch.backends.arch import arch_for_capability, cuda_gpu_available, parse_arch
from kernelsearch.backends.resource_usage import parse_cuobjdump, parse_ptxas_verbose, summarize
from kernelsearch.config import EvalConfig
from kernelsearch.errors import ConfigError
from kernelsearch.harness.guards.static import check_source, first_error
from kernelsearch.result import Stage

ROOT = Path(__file__).resolve().parents[1]
SMOKE = ROOT / "benchmarks" / "smoke"
FIXTURES = ROOT / "tests" / "fixtures" / "kernels" / "cuda"

needs_nvcc = pytest.mark.skipif(nvcc.nvcc_path() is None, reason="nvcc not installed")
no_gpu_only = pytest.mark.skipif(cuda_gpu_available(), reason="with a GPU cuda runs for real")

PTXAS_LOG = """\
ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_Z6tiled_PKfPfi' for 'sm_90a'
ptxas info    : Function properties for _Z6tiled_PKfPfi
    48 bytes stack frame, 40 bytes spill stores, 36 bytes spill loads
ptxas info    : Used 255 registers, used 1 barriers, 48 bytes cumulative stack size, 16384 bytes smem, 384 bytes cmem[0]
ptxas info    : Compile time = 24.490 ms
ptxas info    : Compiling entry function '_Z5smallPKfPfi' for 'sm_90a'
ptxas info    : Function properties for _Z5smallPKfPfi
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 10 registers, used 0 barriers
"""

CUOBJDUMP_LOG = """\
Resource usage:
 Common:
  GLOBAL:0
 Function add_relu:
  REG:30 STACK:0 SHARED:0 LOCAL:0 CONSTANT[0]:576 TEXTURE:0 SURFACE:0 SAMPLER:0
 Function spilly:
  REG:255 STACK:64 SHARED:2048 LOCAL:0 CONSTANT[0]:576 TEXTURE:0 SURFACE:0 SAMPLER:0
"""


def _config() -> EvalConfig:
    cache = os.environ.get("KERNELSEARCH_CACHE")
    base = EvalConfig(backend="cuda", arch="sm_90a", baselines=False)
    return base.replace(cache_dir=Path(cache)) if cache else base


# ---- architecture names -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "sm", "torch_list", "gencode"),
    [
        ("sm_90a", "sm_90a", "9.0a", "-gencode=arch=compute_90a,code=sm_90a"),
        ("9.0a", "sm_90a", "9.0a", "-gencode=arch=compute_90a,code=sm_90a"),
        ("sm_80", "sm_80", "8.0", "-gencode=arch=compute_80,code=sm_80"),
        ("sm_100a", "sm_100a", "10.0a", "-gencode=arch=compute_100a,code=sm_100a"),
    ],
)
def test_arch_spellings_map_to_nvcc_and_torch_forms(text, sm, torch_list, gencode):
    arch = parse_arch(text)
    assert (arch.sm, arch.torch_arch_list, arch.gencode) == (sm, torch_list, gencode)


def test_unknown_arch_is_a_config_error_naming_an_example():
    with pytest.raises(ConfigError, match="sm_90a"):
        parse_arch("hopper")


def test_hopper_and_newer_build_for_the_arch_specific_variant():
    assert arch_for_capability(9, 0) == "sm_90a"
    assert arch_for_capability(8, 0) == "sm_80"


# ---- compiler output parsing ------------------------------------------------------------


def test_ptxas_verbose_gives_registers_smem_and_spills_per_kernel():
    kernels = parse_ptxas_verbose(PTXAS_LOG)
    assert [k.registers for k in kernels] == [255, 10]
    assert kernels[0].shared_mem_bytes == 16384 and kernels[0].spill_stores_bytes == 40
    assert kernels[0].spill_loads_bytes == 36 and kernels[0].stack_bytes == 48
    assert kernels[1].spill_stores_bytes == 0 and kernels[1].arch == "sm_90a"
    flat = summarize(kernels, source="ptxas")
    assert flat["registers"] == 255 and flat["shared_mem_bytes"] == 16384
    assert flat["spill_stores"] == 40 and len(flat["kernels"]) == 2


def test_cuobjdump_gives_registers_and_local_memory_but_not_spill_split():
    kernels = parse_cuobjdump(CUOBJDUMP_LOG)
    assert [(k.name, k.registers) for k in kernels] == [("add_relu", 30), ("spilly", 255)]
    assert kernels[0].spill_stores_bytes == 0  # no local memory at all: no spills
    assert kernels[1].stack_bytes == 64 and kernels[1].spill_stores_bytes is None
    assert summarize(kernels, source="cuobjdump")["spill_stores"] is None


def test_summary_of_no_kernels_is_empty_but_says_where_it_looked():
    assert summarize([], source="ptxas") == {"resource_source": "ptxas", "kernels": []}


def test_missing_cuda_library_header_gets_an_environment_note():
    log = "x.cu:3:10: fatal error: cublas_v2.h: No such file or directory"
    assert "math libraries" in nvcc.explain_missing_headers(log)
    assert nvcc.explain_missing_headers("error: expected a ';'") == ""


# ---- the backend ------------------------------------------------------------------------


def test_cuda_backend_builds_for_the_configured_arch():
    backend = get_backend("cuda")
    env = backend.worker_env(EvalConfig(backend="cuda", arch="sm_90a"), RunMode.COMPILE_ONLY)
    assert env["TORCH_CUDA_ARCH_LIST"] == "9.0a"
    assert backend.memory_mode(RunMode.RUN) == "rss"


@needs_nvcc
def test_plan_uses_load_inline_sources_and_flags_for_the_target(tmp_path, monkeypatch):
    monkeypatch.setenv("TORCH_CUDA_ARCH_LIST", "9.0a")
    args = {
        "cpp_sources": ["torch::Tensor f(torch::Tensor x);"],
        "cuda_sources": ["__global__ void k() {}"],
        "functions": ["f"],
        "extra_cuda_cflags": ["-O3", "--use_fast_math"],
    }
    plan = nvcc.plan_build(tmp_path, args)
    assert "PYBIND11_MODULE" in plan.cpp_source.read_text()
    assert "#include <cuda_runtime.h>" in plan.cuda_source.read_text()
    flags = " ".join(plan.nvcc)
    assert "-gencode=arch=compute_90a,code=sm_90a" in flags
    assert "--use_fast_math" in flags and "-DTORCH_EXTENSION_NAME=" in flags
    assert re.search(r"torch/include", flags)


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.py")), ids=lambda p: p.name)
def test_cuda_fixture_is_a_well_formed_load_inline_candidate(path):
    """Checked statically: the suite compiles only one good and one bad CUDA source."""
    source = path.read_text()
    ast.parse(source)
    assert first_error(check_source(source, "cuda")) is None
    assert "cuda_sources=_CUDA" in source and "class ModelNew" in source
    functions = re.search(r"functions=\[([^\]]*)\]", source).group(1)
    for name in re.findall(r'"(\w+)"', functions):
        assert re.search(rf"torch::Tensor {name}\(", source), f"{name} is not declared"


@needs_nvcc
@no_gpu_only
@pytest.mark.slow
def test_good_cuda_source_compiles_for_sm90a_with_ptxas_registers():
    from kernelsearch.harness.evaluate import Harness
    from kernelsearch.tasks import load_task

    task = load_task(SMOKE / "1_add_relu.py")
    with Harness(_config()) as harness:
        result = harness.evaluate(task, (FIXTURES / "1_add_relu.py").read_text())
    assert result.stage is Stage.COMPILED, result.compile_log or result.error
    assert not result.accepted and result.runtime is None
    assert result.resources["registers"] > 0
    assert result.resources["spill_stores"] == 0
    assert result.resources["kernels"][0]["arch"] == "sm_90a"


@needs_nvcc
@no_gpu_only
@pytest.mark.slow
def test_bad_cuda_source_is_compile_failed_with_nvccs_error():
    from kernelsearch.harness.evaluate import Harness
    from kernelsearch.tasks import load_task

    task = load_task(SMOKE / "1_add_relu.py")
    with Harness(_config()) as harness:
        result = harness.evaluate(task, (FIXTURES / "1_add_relu_compile_error.py").read_text())
    assert result.stage is Stage.COMPILE_FAILED
    assert "nvcc failed compiling cuda.cu" in result.compile_log
    assert re.search(r"error.*float4", result.compile_log)
