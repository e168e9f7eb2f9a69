"""API facts: extraction from the installed triton / torch / CUDA toolkit, and lookups for the
errors of real captured logs (benchmarks/retrieval/logs, dev..dev8 splits)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernelsearch.result import EvalResult, Stage
from kernelsearch.retrieval.api_catalog import MAX_SIGNATURE_LINES, ApiEntry, ApiFact, nearest
from kernelsearch.retrieval.api_facts import ApiFactsIndex, api_facts_for, api_section
from kernelsearch.retrieval.api_headers import cuda_entries, cuda_include_dir, declarations
from kernelsearch.retrieval.api_names import name_refs
from kernelsearch.retrieval.api_sources import (
    aten_entries,
    native_functions_path,
    parse_native_functions,
    triton_entries,
)
from kernelsearch.retrieval.parsers import ErrorLine

LOGS = Path(__file__).resolve().parents[1] / "benchmarks" / "retrieval" / "logs"
needs_cuda = pytest.mark.skipif(cuda_include_dir() is None, reason="no CUDA toolkit installed")


def _log(name: str) -> str:
    return (LOGS / f"{name}.log").read_text()


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> ApiFactsIndex:
    """The real extraction, built once for this module in a temporary cache."""
    built = ApiFactsIndex(tmp_path_factory.mktemp("api_facts"))
    built.build()
    return built


@pytest.fixture(scope="module")
def triton_rows() -> list[ApiEntry]:
    return triton_entries()


# ---- extraction ----------------------------------------------------------------------------
def test_triton_zeros_like_takes_input_and_no_dtype(triton_rows: list[ApiEntry]) -> None:
    (row,) = [e for e in triton_rows if e.scope == "tl" and e.name == "zeros_like"]
    assert row.signature == "zeros_like(input)"


def test_triton_signatures_hide_internal_parameters(triton_rows: list[ApiEntry]) -> None:
    load = next(e for e in triton_rows if e.scope == "tl" and e.name == "load")
    assert load.signature.startswith("load(pointer, mask=None, other=None")
    assert not any("_semantic" in e.signature or "_builder" in e.signature for e in triton_rows)


def test_triton_libdevice_and_tensor_methods_are_listed(triton_rows: list[ApiEntry]) -> None:
    names = {(e.scope, e.name) for e in triton_rows}
    assert ("libdevice", "tanh") in names
    assert ("tensor", "to") in names
    assert ("tl", "tanh") not in names


def test_aten_conv2d_lists_bias_before_stride() -> None:
    conv = [e for e in aten_entries() if e.scope == "at" and e.name == "conv2d"]
    assert conv, "at::conv2d missing from native_functions.yaml"
    sig = conv[0].signature
    assert sig.index("Tensor? bias") < sig.index("stride")


def test_aten_skips_private_and_backward_ops_and_names_out_variants() -> None:
    names = {(e.scope, e.name) for e in aten_entries()}
    assert not any(n.startswith("_") or "backward" in n for _, n in names)
    assert ("at", "add_out") in names and ("Tensor", "add_out") not in names
    assert ("Tensor", "data_ptr") in names  # from TensorBase.h, not an operator


def test_native_functions_line_parser_agrees_with_yaml() -> None:
    yaml = pytest.importorskip("yaml")
    path = native_functions_path()
    assert path is not None
    text = path.read_text()
    loaded = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    expected = [(e["func"], e.get("variants", "function")) for e in loaded]
    assert parse_native_functions(text) == expected


@needs_cuda
def test_cuda_headers_declare_shfl_down_sync_and_hadd2() -> None:
    rows = cuda_entries(cuda_include_dir())
    shfl = [e.signature for e in rows if e.name == "__shfl_down_sync"]
    assert any(s.startswith("float __shfl_down_sync(unsigned mask, float var") for s in shfl)
    assert any("__half2 __hadd2(" in e.signature for e in rows if e.name == "__hadd2")
    assert any(e.name == "__nv_fp8_e4m3" and e.kind == "type" for e in rows)


def test_declarations_skip_old_arch_code_and_mark_deprecated() -> None:
    header = """
    /* a comment with int fake(int x); */
    #if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ < 700
    __DECL__ int old_shuffle(int var, unsigned int delta, int width=warpSize) __DEF_IF_HOST
    #else
    __DECL__ int new_shuffle(unsigned mask, int var) __DEF_IF_HOST
    #endif
    __DECL__ __DEPRECATED__(msg("x")) unsigned int __vote(int) __DEF_IF_HOST
    static __device__ __forceinline__ float twice(float x) { return helper(x) * 2.f; }
    """
    found = dict(declarations(header))
    assert "old_shuffle" not in found and "fake" not in found and "helper" not in found
    assert found["new_shuffle"] == "int new_shuffle(unsigned mask, int var)"
    assert found["__vote"] == "unsigned int __vote(int)  [deprecated]"
    assert found["twice"] == "float twice(float x)"


# ---- lookups from real logs ------------------------------------------------------------------
def test_zeros_like_with_dtype_keyword_shows_the_real_signature(index: ApiFactsIndex) -> None:
    facts = api_facts_for(_log("fresh5_triton_zeros_like_dtype_keyword"), "triton", index)
    assert [f.render() for f in facts][0].startswith("tl.zeros_like(input) — triton ")


def test_misspelled_fp8_dtype_gets_nearest_real_names(index: ApiFactsIndex) -> None:
    import triton.language as tl

    error = ErrorLine("AttributeError(\"module 'triton.language' has no attribute 'fp8e4'\")")
    (fact,) = api_facts_for([error], "triton", index)
    assert not fact.exists and fact.nearest
    assert "tl.float8e4nv" in fact.nearest[:2]
    assert all(hasattr(tl, n.removeprefix("tl.")) for n in fact.nearest)
    logged = api_facts_for(_log("fresh5_triton_fp8_torch_dtype_name"), "triton", index)
    assert "tl.float8e4nv" in logged[0].nearest


def test_name_missing_from_tl_points_at_libdevice(index: ApiFactsIndex) -> None:
    (fact,) = api_facts_for(_log("fresh4_triton_tanh_not_in_tl"), "triton", index)
    assert fact.name == "tl.tanh" and not fact.exists
    assert fact.elsewhere == ("tl.extra.cuda.libdevice.tanh",)


def test_missing_required_argument_picks_the_call_that_has_that_parameter(
    index: ApiFactsIndex,
) -> None:
    facts = api_facts_for(_log("fresh3_triton_argmax_without_axis"), "triton", index)
    assert [f.name for f in facts] == ["tl.argmax"]


def test_unknown_keyword_picks_the_innermost_call_passing_it(index: ApiFactsIndex) -> None:
    facts = api_facts_for(_log("fresh2_triton_reduce_dim_keyword"), "triton", index)
    assert [f.name for f in facts] == ["tl.sum"]
    assert "axis=None" in facts[0].signatures[0]


def test_conv2d_call_shows_schema_with_bias_before_stride(index: ApiFactsIndex) -> None:
    facts = api_facts_for(_log("fresh5_gcc_conv2d_stride_in_bias_slot"), "cpu", index)
    assert facts[0].name == "at::conv2d"
    assert "Tensor? bias=None, SymInt[2] stride=1" in facts[0].signatures[0]


def test_errors_about_no_library_name_get_no_fact(index: ApiFactsIndex) -> None:
    assert api_facts_for(_log("nvcc_undefined_identifier"), "cuda", index) == []
    assert api_facts_for(_log("triton_broadcast_mismatch"), "triton", index) == []
    assert api_facts_for(_log("gcc_std_max_int64"), "cpu", index)[0].name != "at::max"


@needs_cuda
def test_undefined_intrinsic_gets_nearest_real_intrinsics(index: ApiFactsIndex) -> None:
    (fact,) = api_facts_for(_log("fresh3_nvcc_half_exp_wrong_name"), "cuda", index)
    assert fact.name == "__hexp" and not fact.exists
    assert fact.nearest[0] == "hexp"
    (old,) = api_facts_for(_log("nvcc_shfl_no_sync"), "cuda", index)
    assert not old.exists and "__shfl_down_sync" in old.nearest


@needs_cuda
def test_undefined_half_function_names_its_header(index: ApiFactsIndex) -> None:
    facts = api_facts_for(_log("nvcc_bf16_missing_header"), "cuda", index)
    assert facts[0].where == "cuda_bf16.h"
    assert facts[0].signatures == ("float __bfloat162float(const __nv_bfloat16 a)",)


@needs_cuda
def test_atomic_overload_mismatch_lists_overloads_capped(index: ApiFactsIndex) -> None:
    (fact,) = api_facts_for(_log("nvcc_atomic_add_long"), "cuda", index)
    assert fact.name == "atomicAdd" and fact.exists
    assert len(fact.signatures) == MAX_SIGNATURE_LINES and fact.more > 0
    rendered = fact.render().splitlines()
    assert (
        rendered[0]
        == f"atomicAdd — {MAX_SIGNATURE_LINES + fact.more} overloads (CUDA {fact.version}):"
    )
    assert rendered[-1] == f"  (+{fact.more} more)"


def test_a_name_two_errors_are_about_is_kept_once_per_error() -> None:
    errors = [
        ErrorLine("TypeError(\"program_id() missing 1 required positional argument: 'axis'\")"),
        ErrorLine("TypeError(\"program_id() missing 1 required positional argument: 'axis'\")"),
    ]
    refs = name_refs(errors, "triton")
    assert [(r.name, r.error) for r in refs] == [("program_id", 0), ("program_id", 1)]


def test_an_error_answered_by_an_earlier_fact_adds_no_source_line_facts(
    index: ApiFactsIndex,
) -> None:
    facts = api_facts_for(_log("fresh5_triton_num_programs_without_axis"), "triton", index)
    assert [f.name for f in facts] == ["tl.num_programs"]
    facts = api_facts_for(_log("fresh6_triton_clamp_min_keyword"), "triton", index)
    assert [f.name for f in facts] == ["tl.clamp"]


def test_gcc_in_passing_argument_note_names_the_aten_function(index: ApiFactsIndex) -> None:
    facts = api_facts_for(_log("fresh6_gcc_sdpa_is_causal_in_mask_slot"), "cpu", index)
    assert [f.name for f in facts] == ["at::scaled_dot_product_attention"]
    assert "Tensor? attn_mask=None, float dropout_p=0.0, bool is_causal" in facts[0].signatures[0]


def test_note_before_every_error_is_not_credited_to_any() -> None:
    log = (
        "x.h:1:1: note: in passing argument 2 of ‘at::Tensor at::relu(const at::Tensor&)’\n"
        "main.cpp:4:5: error: invalid initialization of reference\n"
    )
    errors = [ErrorLine("invalid initialization of reference", "main.cpp:4")]
    assert name_refs(errors, "cpu", log) == []


def test_triton_class_keyword_typo_shows_its_constructor(index: ApiFactsIndex) -> None:
    (fact,) = api_facts_for(_log("fresh6_triton_range_num_stage_typo"), "triton", index)
    assert fact.name == "tl.range" and fact.kind == "class"
    assert "num_stages=None" in fact.signatures[0]
    assert fact.render().startswith("tl.range(arg1, arg2=None, step=None, num_stages=None")


@needs_cuda
def test_cuda_runtime_call_shows_both_runtime_headers(index: ApiFactsIndex) -> None:
    (fact,) = api_facts_for(_log("fresh6_nvcc_func_set_attribute_missing_value"), "cuda", index)
    assert fact.name == "cudaFuncSetAttribute"
    assert any("int value)" in s and "[cuda_runtime_api.h]" in s for s in fact.signatures)


@needs_cuda
def test_cooperative_groups_call_and_member_get_their_declarations(index: ApiFactsIndex) -> None:
    (tile,) = api_facts_for(_log("fresh6_nvcc_tiled_partition_runtime_to_static"), "cuda", index)
    assert tile.name == "cooperative_groups::tiled_partition"
    assert any("thread_block_tile<Size, ParentT>" in s for s in tile.signatures)
    (rank,) = api_facts_for(_log("fresh6_nvcc_cluster_map_shared_rank_missing_rank"), "cuda", index)
    assert rank.signatures == ("template <typename T> T* map_shared_rank(T *addr, int rank)",)


# ---- the section, the cache, the dataclass ----------------------------------------------------
def test_api_section_names_installed_versions_and_respects_room(index: ApiFactsIndex) -> None:
    result = EvalResult(
        task="t",
        backend="triton",
        device="cpu",
        stage=Stage.COMPILE_FAILED,
        compile_log=_log("fresh5_triton_zeros_like_dtype_keyword"),
    )
    section = api_section(result, room_chars=400, index=index)
    assert section.startswith("API reference (installed: triton ")
    assert "tl.zeros_like(input)" in section
    assert api_section(result, room_chars=20, index=index) == ""
    correct = EvalResult(task="t", backend="triton", device="cpu", stage=Stage.CORRECT)
    assert api_section(correct, index=index) == ""


def test_cache_rebuilds_only_when_a_version_changes(tmp_path: Path) -> None:
    versions = {"torch": "1", "triton": "1", "cuda": ""}
    extracted: list[int] = []

    def extract() -> list[ApiEntry]:
        extracted.append(1)
        return [ApiEntry("triton", "tl", "zeros", "function", "zeros(shape, dtype)", "m")]

    def make() -> ApiFactsIndex:
        return ApiFactsIndex(tmp_path, versions=lambda: dict(versions), extract=extract)

    assert make().build() is True
    assert make().build() is False
    assert (
        make().catalog().by_scope[("triton", "tl")]["zeros"][0].signature == "zeros(shape, dtype)"
    )
    versions["triton"] = "2"
    assert make().build() is True
    assert len(extracted) == 2


def test_api_fact_round_trips_through_dict() -> None:
    fact = ApiFact("tl.fp8e4", "triton", "3.9.0", "tl", False, nearest=("tl.float8e4nv",))
    assert ApiFact.from_dict(fact.to_dict()) == fact
    assert fact.render() == (
        "tl.fp8e4: not in triton.language (triton 3.9.0); nearest: tl.float8e4nv"
    )


def test_nearest_spells_out_fp_abbreviations_and_drops_weak_matches() -> None:
    names = ["float8e4nv", "float8e5", "int32", "program_id"]
    assert nearest("fp8e4", names)[:2] == ["float8e4nv", "float8e5"]
    assert nearest("mean", names) == []


def test_triton_tensor_method_keyword_error_shows_the_method(index: ApiFactsIndex) -> None:
    facts = api_facts_for(_log("fresh7_triton_to_rounding_keyword"), "triton", index)
    assert facts[0].name == "tensor.to"
    assert "fp_downcast_rounding" in facts[0].signatures[0]


def test_mlir_op_name_maps_to_the_tl_function(index: ApiFactsIndex) -> None:
    facts = api_facts_for(_log("fresh7_triton_store_cache_modifier_ca"), "triton", index)
    assert [f.name for f in facts] == ["tl.store"]
    assert "cache_modifier" in facts[0].signatures[0]


def test_bare_compilation_error_looks_up_the_calls_on_its_kernel_line(
    index: ApiFactsIndex,
) -> None:
    facts = api_facts_for(_log("fresh7_triton_zeros_dtype_string"), "triton", index)
    assert [f.name for f in facts] == ["tl.zeros"]


def test_function_missing_from_torch_namespace_is_reported_missing(index: ApiFactsIndex) -> None:
    (fact,) = api_facts_for(_log("fresh7_gcc_torch_swish_name"), "cpu", index)
    assert fact.name == "at::swish" and not fact.exists
    assert "at::hardswish" in fact.nearest


def test_python_operators_in_cpp_point_at_matmul_and_pow(index: ApiFactsIndex) -> None:
    matmul = api_facts_for(_log("fresh7_gcc_python_matmul_operator"), "cpu", index)
    power = api_facts_for(_log("fresh7_gcc_python_power_operator"), "cpu", index)
    assert matmul[0].name == "at::matmul"
    assert power[0].name == "at::pow"
