"""Search queries built from what failed: compiler errors, runtime errors, mismatches, slowness."""

from __future__ import annotations

from kernelsearch.result import EvalResult, Stage
from kernelsearch.retrieval.parsers import parse_errors

MAX_QUERY_ERRORS = 3  # the first distinct errors carry the cause; later ones are fallout
FALLBACK_TAIL_CHARS = 600  # unparsed logs: their tail usually holds the message
MAX_SOURCE_CHARS = 160  # a quoted source line longer than this is a macro expansion: cut it
SOURCE_INDENT = "    "  # query lines starting with whitespace are context (see fts_query)

# The vocabulary each backend's documentation uses, so a generic diagnosis finds its sections.
BACKEND_WORDS = {
    "cuda": "CUDA kernel",
    "triton": "Triton tl",
    "cpu": "CPU C++ OpenMP vectorisation",
}
TIMEOUT_QUERY = "timeout hang never finished infinite loop deadlock __syncthreads barrier"


def query_from_log(log: str, backend: str) -> str:
    """The first distinct error messages, each followed by its source line indented (the
    search weighs messages above the code they quote); the log's tail when no parser
    recognises it."""
    errors = parse_errors(log, backend)
    if not errors:
        return log.strip()[-FALLBACK_TAIL_CHARS:]
    parts: list[str] = []
    seen: set[str] = set()
    for error in errors:
        if error.message in seen:
            continue
        seen.add(error.message)
        parts.append(error.message)
        source = error.source_line.strip()[:MAX_SOURCE_CHARS]
        if source:
            parts.append(SOURCE_INDENT + source)
        if len(seen) == MAX_QUERY_ERRORS:
            break
    return "\n".join(parts)


def mismatch_query(result: EvalResult) -> str:
    m = result.mismatch
    words = ["wrong results numeric mismatch"]
    if m is None:
        return " ".join(words)
    if m.shape_expected is not None and m.shape_got is not None and m.shape_expected != m.shape_got:
        words.append("output shape mismatch")
    if m.dtype_expected and m.dtype_got and m.dtype_expected != m.dtype_got:
        words.append("output dtype mismatch")
    if m.has_nan or m.has_inf:
        words.append("NaN Inf overflow")
    if 0 < m.bad_fraction < 0.05:
        words.append("boundary elements mask last block out of bounds")
    elif m.bad_fraction >= 0.5:
        words.append("indexing strides layout")
    if m.trial > 0:
        words.append("only some trials race condition uninitialized memory")
    return " ".join(words)


def bottleneck_query(
    bound: str | None,
    bandwidth_fraction: float | None,
    flop_fraction: float | None,
    spills: bool = False,
    low_occupancy: bool = False,
) -> str:
    """A query from the diagnosed bottleneck, e.g. "memory bound at 18% of peak bandwidth"."""
    words: list[str] = []
    if bound == "memory" and bandwidth_fraction is not None:
        words.append(
            f"memory bound at {bandwidth_fraction:.0%} of peak bandwidth "
            "coalesced vectorised loads achieved bandwidth"
        )
    elif bound == "compute" and flop_fraction is not None:
        words.append(f"compute bound at {flop_fraction:.0%} of peak FLOP/s tensor cores tiling")
    else:
        words.append("slow kernel slower than PyTorch fusion launch overhead")
    if spills:
        words.append("register spills local memory")
    if low_occupancy:
        words.append("low occupancy registers shared memory per block")
    return " ".join(words)


def query_for(result: EvalResult, bottleneck: str | None = None) -> str:
    """What to search the docs for, given how `result` failed.

    Compile, runtime and crash stages: the parsed errors. Timeout: hang topics. Incorrect: the
    mismatch's nature. Correct: `bottleneck` (from `bottleneck_query`) when the caller has a
    hardware profile, else a generic slowness query.
    """
    backend = BACKEND_WORDS.get(result.backend, result.backend)
    if result.stage is Stage.COMPILE_FAILED:
        return query_from_log(result.compile_log or result.error, result.backend)
    if result.stage in (Stage.RUNTIME_ERROR, Stage.CRASHED):
        return query_from_log(
            "\n".join(p for p in (result.error, result.stdout) if p), result.backend
        )
    if result.stage is Stage.TIMEOUT:
        return f"{TIMEOUT_QUERY} {backend}"
    if result.stage is Stage.INCORRECT:
        return f"{mismatch_query(result)} {backend}"
    if result.stage is Stage.CORRECT:
        return f"{bottleneck or bottleneck_query(None, None, None)} {backend}"
    reasons = " ".join(f.reason for f in result.flags)
    return f"{result.error} {reasons}".strip()
