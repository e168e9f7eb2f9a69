"""Docs index: corpus parsing, FTS query escaping, rebuild-on-change, user documents, parsers."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from kernelsearch.errors import ConfigError
from kernelsearch.result import EvalResult, Stage
from kernelsearch.retrieval import (
    DocSection,
    DocsIndex,
    add_documents,
    cap_sections,
    fts_query,
    parse_errors,
    query_for,
    query_from_log,
)
from kernelsearch.retrieval.corpus import html_to_text, load_sections, parse_markdown
from kernelsearch.retrieval.wording import other_wording

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "docs_index"
LOGS = REPO / "benchmarks" / "retrieval" / "logs"

NASTY = [
    'kernel.cu(3): error: identifier "blokDim" is undefined',
    "AND OR NOT NEAR( * ^ : - + \" ' ( ) { } [ ]",
    "std::vector<float, ::std::allocator<float> > ::vector(unsigned long)",
    '"unterminated',
    "col:1 title:* body:NEAR(a b, 3)",
    "‘at::Tensor’ → ‘float*’ — ünïcödé",
    "",
    "   \n\t ",
    "*",
]


@pytest.fixture()
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    root.mkdir()
    (root / "gpu_memory.md").write_text(
        "# GPU memory\n\n## Coalesced access\nSymptoms: strided loads, low bandwidth\n"
        "Neighbouring threads should read neighbouring words.\n\n"
        "## Bank conflicts\nSymptoms: shared memory bank conflict\nPad the tile by one column.\n"
    )
    return root


def test_section_id_is_file_stem_and_heading_slug_with_symptoms_split_out() -> None:
    sections = parse_markdown(
        "# T\n\n## tl.dot shape rules\nSymptoms: K >= 16\nbody\n## tl.dot shape rules\nagain\n",
        "triton_dot",
        "triton_dot.md",
    )
    assert [s.id for s in sections] == [
        "triton_dot/tl-dot-shape-rules",
        "triton_dot/tl-dot-shape-rules-2",
    ]
    assert sections[0].symptoms == "K >= 16"
    assert sections[0].body == "body"


def test_our_corpus_has_80_sections_each_with_a_symptoms_line() -> None:
    sections = load_sections([CORPUS])
    assert len(sections) >= 80
    assert [s.id for s in sections if not s.symptoms] == []
    assert len({s.id for s in sections}) == len(sections)


@pytest.mark.parametrize("text", NASTY)
def test_fts_query_never_raises_on_nasty_compiler_text(
    text: str, corpus: Path, tmp_path: Path
) -> None:
    index = DocsIndex(corpus_dirs=[corpus], cache_dir=tmp_path / "cache")
    match = fts_query(text)
    assert all(part.startswith('"') and part.endswith('"') for part in match.split(" OR ") if match)
    index.search(text)  # must not raise sqlite3.OperationalError


def test_fts_query_drops_stopwords_and_splits_camel_case() -> None:
    assert fts_query("    error: the atomicAdd") == '"atomicadd" OR "atomic" OR "add"'
    assert fts_query("error: in the") == ""


def test_fts_query_counts_message_words_twice_and_indented_source_words_once() -> None:
    match = fts_query("identifier blokDim is undefined\n    int i = blokDim.x * offset;")
    terms = match.split(" OR ")
    assert terms.count('"undefined"') == 2 and terms.count('"blokdim"') == 2
    assert terms.count('"offset"') == 1 and terms.count('"int"') == 1


def test_fts_query_searches_multi_word_names_in_messages_as_phrases() -> None:
    terms = fts_query('identifier "CHECK_INPUT" is undefined\n    x = tl.argmax(v);').split(" OR ")
    assert terms.count('"check input"') == 2
    assert '"tl argmax"' not in terms  # names in quoted source are the user's, not phrases
    assert '"argmax"' in terms


def test_a_function_named_with_empty_parentheses_outweighs_the_message_words() -> None:
    terms = fts_query("where() missing 1 required positional argument: 'y'").split(" OR ")
    assert terms.count('"where"') == 3 and terms.count('"missing"') == 2


def test_other_wording_maps_nvcc_and_gcc_messages_both_ways() -> None:
    assert "not declared in this scope" in other_wording('identifier "CHECK_INPUT" is undefined')
    assert "is undefined" in other_wording("'CHECK_INPUT' was not declared in this scope")
    nvcc = other_wording('no instance of overloaded function "atomicAdd" matches the argument list')
    assert "no matching function for call" in nvcc
    assert "no instance of overloaded function" in other_wording(
        "no matching function for call to 'max(float&, int&)'"
    )
    assert "powers" in other_wording("unsupported operand type(s) for **: 'tensor' and 'int'")
    assert other_wording("expected ‘;’ before ‘return’") == "missing semicolon"
    assert other_wording("expected an identifier") == ""


def test_a_section_worded_for_gcc_is_found_for_the_same_nvcc_message(tmp_path: Path) -> None:
    root = tmp_path / "corpus"
    root.mkdir()
    filler = "".join(f"## Topic {n}\nSymptoms: topic {n} words\nText {n}.\n\n" for n in range(6))
    (root / "notes.md").write_text(
        "## Misspelt names\nSymptoms: identifier is undefined, undefined variable, "
        "identifier undefined in kernel\nCheck the spelling and the headers.\n\n"
        "## Check macros\nSymptoms: CHECK_INPUT was not declared in this scope, CHECK_CUDA was "
        "not declared in this scope\nDefine the macros yourself.\n\n" + filler
    )
    index = DocsIndex(corpus_dirs=[root], cache_dir=tmp_path / "cache")
    query = 'identifier "CHECK_INPUT" is undefined\n    CHECK_INPUT(x);'
    assert index.search(query)[0].id == "notes/check-macros"


def test_a_search_ranks_the_section_quoting_the_message_above_one_matching_the_code(
    tmp_path: Path,
) -> None:
    root = tmp_path / "corpus"
    root.mkdir()
    filler = "".join(f"## Topic {n}\nSymptoms: topic {n} words\nText {n}.\n\n" for n in range(4))
    (root / "notes.md").write_text(
        "## Missing include\nSymptoms: identifier is undefined\nInclude the header.\n\n"
        "## Shared tiles\nSymptoms: shared tile stride\nPad the rows.\n\n" + filler
    )
    index = DocsIndex(corpus_dirs=[root], cache_dir=tmp_path / "cache")
    query = 'identifier "blokDim" is undefined\n    float v = tile[i * stride];'
    assert index.search(query)[0].id == "notes/missing-include"


def test_index_builds_once_and_rebuilds_only_when_a_document_changes(
    corpus: Path, tmp_path: Path
) -> None:
    index = DocsIndex(corpus_dirs=[corpus], cache_dir=tmp_path / "cache")
    assert index.build() is True
    assert index.build() is False
    assert DocsIndex(corpus_dirs=[corpus], cache_dir=tmp_path / "cache").build() is False
    assert index.search("bank conflict")[0].id == "gpu_memory/bank-conflicts"

    doc = corpus / "gpu_memory.md"
    doc.write_text(
        doc.read_text() + "\n## Warp shuffles\nSymptoms: __shfl_down_sync\nUse the mask.\n"
    )
    assert index.build() is True
    assert index.search("__shfl_down_sync")[0].id == "gpu_memory/warp-shuffles"
    assert index.build() is False
    assert index.build(force=True) is True


def test_a_corrupt_index_file_is_rebuilt(corpus: Path, tmp_path: Path) -> None:
    index = DocsIndex(corpus_dirs=[corpus], cache_dir=tmp_path / "cache")
    index.build()
    index.db_path.write_bytes(b"not a database")
    assert index.build() is True
    with sqlite3.connect(index.db_path) as con:
        assert con.execute("SELECT count(*) FROM sections").fetchone()[0] == 2


def test_search_returns_distinct_sections_capped_in_characters(
    corpus: Path, tmp_path: Path
) -> None:
    (corpus / "copy.md").write_text((corpus / "gpu_memory.md").read_text())
    index = DocsIndex(corpus_dirs=[corpus], cache_dir=tmp_path / "cache")
    hits = index.search("strided loads bank conflict tile", k=3)
    assert len({" ".join(h.body.split()) for h in hits}) == len(hits) == 2
    small = index.search("strided loads bank conflict", k=3, max_chars=90)
    assert sum(len(s.text) for s in small) <= 90


def test_cap_sections_cuts_the_last_section_at_a_line_boundary() -> None:
    body = "\n".join(f"line {i} " + "x" * 40 for i in range(40))
    sections = [
        DocSection("a/b", "B", "s", body, "a.md"),
        DocSection("a/c", "C", "s", body, "a.md"),
    ]
    capped = cap_sections(sections, len(sections[0].text) + 500)
    assert [s.id for s in capped] == ["a/b", "a/c"]
    assert capped[1].body.endswith("…")
    assert sum(len(s.text) for s in capped) <= len(sections[0].text) + 500
    assert cap_sections(sections, 10) == []


def test_user_documents_are_copied_and_searched_with_ours(corpus: Path, tmp_path: Path) -> None:
    html = tmp_path / "npu.html"
    html.write_text(
        "<html><head><style>p{}</style></head><body><h1>NPU</h1><h2>Vector tiles</h2>"
        "<p>Symptoms: aie vector width &amp; tile</p><p>Use 512-bit vectors.</p></body></html>"
    )
    text = tmp_path / "notes.txt"
    text.write_text("Our cluster's zorbular cache needs 128-byte alignment.\n")
    cache = tmp_path / "cache"
    stored = add_documents([html, text], cache_dir=cache)
    assert [p.name for p in stored] == ["npu.html", "notes.txt"]
    index = DocsIndex(corpus_dirs=[corpus], cache_dir=cache)
    assert (cache / "user_docs" / "npu.html").exists()
    assert index.search("zorbular")[0].id == "notes/notes"
    hit = index.search("aie vector tile")[0]
    assert hit.id == "npu/vector-tiles" and hit.symptoms == "aie vector width & tile"
    assert len(index.sections()) == 4


def test_adding_an_unsupported_or_missing_document_names_the_file(tmp_path: Path) -> None:
    pdf = tmp_path / "manual.pdf"
    pdf.write_bytes(b"%PDF")
    with pytest.raises(ConfigError, match="manual.pdf: unsupported document type"):
        add_documents([pdf], cache_dir=tmp_path / "cache")
    with pytest.raises(ConfigError, match="no such file"):
        add_documents([tmp_path / "absent.md"], cache_dir=tmp_path / "cache")


def test_html_to_text_keeps_headings_and_drops_scripts() -> None:
    text = html_to_text("<h2>Title</h2><script>var x=1;</script><p>a &lt; b</p>")
    assert "## Title" in text and "a < b" in text and "var x" not in text


# ---- error parsers on real captured logs -----------------------------------------------------
@pytest.mark.parametrize(
    ("log", "backend", "message", "source"),
    [
        ("nvcc_undefined_identifier", "cuda", 'identifier "blokDim" is undefined', "blokDim.x"),
        ("nvcc_shared_too_large", "cuda", "uses too much shared data", ""),
        ("nvcc_unsupported_arch", "cuda", "Unsupported gpu architecture 'sm_35'", ""),
        (
            "gcc_cuda_launch_in_cpp",
            "cpu",
            "expected primary-expression before ‘<’ token",
            "scale_kernel<<<",
        ),
        (
            "triton_arange_runtime_bound",
            "triton",
            "arange's arguments must be of type tl.constexpr",
            "tl.arange(0, n)",
        ),
        (
            "python_ext_data_ptr_dtype",
            "python",
            "expected scalar type Float but found Double",
            "ext.first_value",
        ),
    ],
)
def test_parsers_find_the_key_message_and_source_line(
    log: str, backend: str, message: str, source: str
) -> None:
    errors = parse_errors((LOGS / f"{log}.log").read_text(), backend)
    first = next(e for e in errors if message in e.message)
    assert source in first.source_line


def test_nvcc_source_lines_show_cuda_keywords_not_preprocessed_attributes() -> None:
    log = (
        "kernel.cu(3): error: A __global__ function or function template cannot be a member"
        " function\n  struct Op { __attribute__((global)) void __attribute__((launch_bounds(256)))"
        " apply(float* y); };\n              ^\n"
    )
    (error,) = parse_errors(log, "cuda")
    assert (
        error.source_line
        == "struct Op { __global__ void __launch_bounds__(256) apply(float* y); };"
    )


def test_nvcc_operand_types_line_joins_the_message_and_the_code_stays_the_source() -> None:
    log = (
        'kernel.cu(13): error: no operator "+" matches these operands\n'
        "            operand types are: const float2 + const float2\n"
        "    y[i] = a[i] + b[i];\n                ^\n"
    )
    (error,) = parse_errors(log, "cuda")
    assert error.message.endswith("(operand types are: const float2 + const float2)")
    assert error.source_line == "y[i] = a[i] + b[i];"


def test_nvcc_continuation_lines_all_join_the_message_before_the_source_line() -> None:
    log = (
        'kernel.cu(22): error: no instance of overloaded function "at::Tensor::view" matches'
        " the argument list\n            argument types are: (int64_t, int)\n"
        "            object type is: at::Tensor\n    return y.view(x.size(0), -1);\n"
        "           ^\n"
    )
    (error,) = parse_errors(log, "cuda")
    assert "(argument types are: (int64_t, int)) (object type is: at::Tensor)" in error.message
    assert error.source_line == "return y.view(x.size(0), -1);"


def test_triton_mlir_diagnostics_are_parsed_without_their_ir_dump() -> None:
    errors = parse_errors((LOGS / "fresh_triton_dot_int_accumulator.log").read_text(), "triton")
    assert errors[0].message == "unsupported MMA instruction for the given operand/result types"
    assert errors[0].source_line == "acc = tl.dot(a, b, acc)"
    assert all("%" not in e.message for e in errors)


def test_a_bare_exception_line_in_a_chained_traceback_is_an_error() -> None:
    log = (LOGS / "fresh_triton_python_list_in_kernel.log").read_text()
    errors = parse_errors(log, "triton")
    bare = next(e for e in errors if e.message == "AssertionError")
    assert "isinstance(idx" in bare.source_line


def test_query_from_log_indents_source_lines_and_cuts_macro_expansions() -> None:
    long_line = "do { " + "x; " * 200 + "} while (0);"
    log = f"main.cpp:4:5: error: ‘scalar_t’ was not declared in this scope\n    4 | {long_line}\n"
    message, source = query_from_log(log, "cpu").split("\n")
    assert message == "‘scalar_t’ was not declared in this scope"
    assert source.startswith("    do {") and len(source) <= 4 + 160


def test_nvcc_notes_from_system_headers_are_not_errors() -> None:
    errors = parse_errors((LOGS / "nvcc_shfl_missing_mask.log").read_text(), "cuda")
    assert len(errors) == 1
    assert "argument types are: (float, int)" in errors[0].message


def test_query_for_a_compile_failure_comes_from_the_compile_log() -> None:
    log = (LOGS / "nvcc_atomic_max_float.log").read_text()
    result = EvalResult(
        task="t", backend="cuda", device="cpu", stage=Stage.COMPILE_FAILED, compile_log=log
    )
    query = query_for(result)
    assert "atomicMax" in query and query == query_from_log(log, "cuda")


def test_query_for_an_unparsed_log_falls_back_to_its_tail() -> None:
    assert query_from_log("something odd happened\nlast words", "cpu").endswith("last words")


def test_a_backend_search_skips_other_languages_sections():
    from kernelsearch.retrieval.index import for_backend

    assert for_backend("cpu_openmp/x", "cpu") and for_backend("torch_cpp/x", "cpu")
    assert not for_backend("cuda_atomics/x", "cpu") and not for_backend("triton_dot/x", "cpu")
    assert for_backend("torch_cpp/x", "cuda") and not for_backend("cpu_aten/x", "cuda")
    assert not for_backend("torch_cpp/x", "triton") and for_backend("triton_dot/x", "triton")
    assert for_backend("correctness/x", "triton") and for_backend("my_notes/x", "cpu")
    assert for_backend("cuda_atomics/x", None) and for_backend("cuda_atomics/x", "python")


def test_search_for_cpu_never_returns_cuda_or_triton_sections(tmp_path):
    from kernelsearch.retrieval import DocsIndex

    index = DocsIndex(cache_dir=tmp_path)
    query = "atomicAdd shared memory tl.dot omp parallel data_ptr"
    mixed = {s.id.split("_", 1)[0] for s in index.search(query, k=8, max_chars=10**9)}
    assert {"cuda", "triton"} & mixed  # the query alone would pull other languages in
    got = index.search(query, k=8, max_chars=10**9, backend="cpu")
    assert got and all(not s.id.startswith(("cuda_", "triton_")) for s in got)


def test_bm25_gets_one_weight_per_indexed_table_column(corpus: Path, tmp_path: Path) -> None:
    from kernelsearch.retrieval.index import COLUMN_WEIGHTS, _bm25_weights

    index = DocsIndex(corpus_dirs=[corpus], cache_dir=tmp_path / "cache")
    index.build()
    with sqlite3.connect(index.db_path) as con:
        columns = [row[1] for row in con.execute("PRAGMA table_info(sections)")]
    weights = dict(zip(columns, _bm25_weights(), strict=True))
    assert weights == {
        "id": 0.0,
        "title": COLUMN_WEIGHTS[0],
        "symptoms": COLUMN_WEIGHTS[1],
        "body": COLUMN_WEIGHTS[2],
        "source": 0.0,
    }


def test_a_failed_cache_rebuild_leaves_the_previous_database_and_no_partial_file(tmp_path):
    import sqlite3

    from kernelsearch.retrieval.sqlite_file import write_database

    db = tmp_path / "cache" / "index.sqlite"
    write_database(db, lambda con: con.execute("CREATE TABLE t(x)"))

    def broken(con: sqlite3.Connection) -> None:
        con.execute("CREATE TABLE u(x)")
        raise RuntimeError("extraction failed")

    with pytest.raises(RuntimeError):
        write_database(db, broken)
    with sqlite3.connect(db) as con:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master")]
    assert tables == ["t"]
    assert sorted(p.name for p in db.parent.iterdir()) == ["index.sqlite"]
