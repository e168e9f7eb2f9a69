"""Feedback text: what a reflection LLM (and a person) reads about one evaluation.

Stage by stage, short and specific: compiler errors with their source lines and the relevant
documentation; runtime errors with the kernel-side frames and the limit hit; mismatch figures;
timing against eager and torch.compile with a roofline line and compiler resource usage; guard
flags with their reasons. Every number a reader sees comes from a pure function below.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from kernelsearch.errors import ConfigError
from kernelsearch.hardware import (
    HardwareProfile,
    Occupancy,
    Roofline,
    best_block_occupancy,
    occupancy,
    profile_for_arch,
    roofline_fractions,
)
from kernelsearch.result import EvalResult, Flag, Mismatch, Stage
from kernelsearch.retrieval import (
    ApiFactsIndex,
    DocSection,
    Retriever,
    api_section,
    cap_sections,
    parse_errors,
)
from kernelsearch.retrieval.query import bottleneck_query, query_for

log = logging.getLogger(__name__)

DEFAULT_FEEDBACK_CHARS = 8000
DOCS_K = 3
MIN_DOCS_CHARS = 400  # below this, documentation is left out rather than cut to nothing
MAX_ERRORS_SHOWN = 5
MAX_MESSAGE_CHARS = 300
TEMPLATE_ARGS_KEPT = 80  # template argument lists longer than this collapse to <…>
LOG_TAIL_CHARS = 1500  # unparsed logs: their tail is shown
MAX_KERNEL_FRAMES = 4
LOW_OCCUPANCY = 0.25
SLOW_SPEEDUP = 1.0
NEAR_ROOFLINE = 0.8

# Phrases in an error that name the limit a run hit, and how to say it.
LIMIT_PATTERNS: tuple[tuple[str, str], ...] = (
    (
        r"out of memory|CUDA_ERROR_OUT_OF_MEMORY|MemoryError|std::bad_alloc",
        "memory limit (out of memory)",
    ),
    (
        r"illegal memory access|misaligned address|Segmentation fault|SIGSEGV|signal 11",
        "memory access fault (out-of-bounds or bad pointer)",
    ),
    (r"device-side assert|SIGABRT|signal 6|Aborted", "an assertion or abort inside the kernel"),
    (
        r"too many resources requested for launch|invalid configuration argument",
        "a launch limit (threads, registers or shared memory per block)",
    ),
    (r"Killed|SIGKILL|signal 9", "killed by the sandbox (memory or time limit)"),
    (r"timed? ?out|Timeout", "the time limit"),
)


# ---- pure helpers for each line a reader sees ----------------------------------------------
def trim_template_noise(
    message: str, keep: int = TEMPLATE_ARGS_KEPT, limit: int = MAX_MESSAGE_CHARS
) -> str:
    """Collapse long template argument lists (`fragment<nvcuda::wmma::matrix_a, 16, ...>` ->
    `fragment<…>`) and cap the length."""

    def collapse(text: str) -> str:
        out, depth, start = [], 0, 0
        for i, ch in enumerate(text):
            if ch == "<":
                if depth == 0:
                    start = i
                depth += 1
            elif ch == ">" and depth:
                depth -= 1
                if depth == 0:
                    inner = text[start + 1 : i]
                    out.append((start, i, len(inner) > keep))
        result, last = [], 0
        for s, e, long in out:
            if long:
                result.append(text[last : s + 1] + "…")
                last = e
        result.append(text[last:])
        return "".join(result)

    text = collapse(" ".join(message.split()))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _cap(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def format_ms(ms: float) -> str:
    if ms >= 100:
        return f"{ms:.0f} ms"
    if ms >= 1:
        return f"{ms:.2f} ms"
    return f"{ms * 1000:.1f} µs"


def format_amount(value: float, unit: str) -> str:
    """1.26e7, "B" -> "12.6 MB"."""
    for factor, prefix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "K")):
        if abs(value) >= factor:
            return f"{value / factor:.3g} {prefix}{unit}"
    return f"{value:.3g} {unit}"


def compile_error_lines(
    log_text: str, backend: str, max_errors: int = MAX_ERRORS_SHOWN
) -> list[str]:
    """The first distinct errors (by message) with their locations and source lines."""
    errors = parse_errors(log_text, backend)
    if not errors:
        tail = log_text.strip()[-LOG_TAIL_CHARS:]
        return [f"Compiler output (tail):\n{tail}"] if tail else []
    lines: list[str] = []
    seen: set[str] = set()
    for error in errors:
        message = trim_template_noise(error.message)
        if message in seen:
            continue
        seen.add(message)
        head = f"- {error.location}: {message}" if error.location else f"- {message}"
        lines.append(head)
        if error.source_line:
            lines.append(f"    {_cap(error.source_line.strip(), 200)}")
        if len(seen) == max_errors:
            break
    hidden = len({trim_template_noise(e.message) for e in errors}) - len(seen)
    if hidden > 0:
        lines.append(f"(+{hidden} more distinct errors; fix the first ones first)")
    return lines


def kernel_frames(traceback_text: str, max_frames: int = MAX_KERNEL_FRAMES) -> list[str]:
    """Traceback frames in the candidate's own code (not in site-packages or the stdlib)."""
    frames = re.findall(r'File "([^"]+)", line (\d+), in (\S+)\n\s*(.*)', traceback_text)
    own = [
        f"{path.rsplit('/', 1)[-1]}:{line} in {fn}: {code.strip()}"
        for path, line, fn, code in frames
        if "site-packages" not in path and "/lib/python" not in path
    ]
    return own[-max_frames:]


def limit_hit(text: str) -> str | None:
    for pattern, description in LIMIT_PATTERNS:
        if re.search(pattern, text, flags=re.IGNORECASE):
            return description
    return None


def mismatch_lines(m: Mismatch, trials_passed: int = 0, trials_run: int = 0) -> list[str]:
    """What was wrong with the output, most decisive first."""
    lines: list[str] = []
    if m.shape_expected is not None and m.shape_got is not None and m.shape_expected != m.shape_got:
        lines.append(
            f"Output shape mismatch: expected {list(m.shape_expected)}, got {list(m.shape_got)}."
        )
    if m.dtype_expected and m.dtype_got and m.dtype_expected != m.dtype_got:
        lines.append(f"Output dtype mismatch: expected {m.dtype_expected}, got {m.dtype_got}.")
    if not lines:
        lines.append(
            f"Values differ: max abs diff {m.max_abs_diff:.3g}, mean abs diff {m.mean_abs_diff:.3g}; "
            f"{m.bad_fraction:.2%} of elements outside tolerance"
            + (
                f", first at index {list(m.first_bad_index)}."
                if m.first_bad_index is not None
                else "."
            )
        )
    bad_values = [name for name, present in (("NaN", m.has_nan), ("Inf", m.has_inf)) if present]
    if bad_values:
        lines.append(f"Output contains {' and '.join(bad_values)}.")
    trial = f"trial {m.trial}" if m.trial >= 0 else "a trial"
    passed = f" ({trials_passed}/{trials_run} trials passed)" if trials_run else ""
    lines.append(f"Failed on {trial} with inputs from {m.distribution}{passed}.")
    if m.reason:
        lines.append(m.reason)
    return lines


def timing_lines(result: EvalResult) -> list[str]:
    if result.runtime is None:
        return []
    t = result.runtime
    spread = f"std {format_ms(t.std)}" if t.iqr is None else f"IQR {format_ms(t.iqr)}"
    lines = [
        f"Kernel time: {format_ms(t.median)} median ({t.trials} trials, {t.method}; min {format_ms(t.min)}, {spread})."
    ]
    for label, base, speedup in (
        ("eager PyTorch", result.baseline_eager_ms, result.speedup_eager),
        ("torch.compile", result.baseline_compile_ms, result.speedup_compile),
    ):
        if base is not None and speedup is not None:
            verdict = "faster" if speedup >= 1 else "slower"
            lines.append(f"vs {label}: {format_ms(base)} -> {speedup:.2f}x ({verdict}).")
    return lines


def roofline_line(r: Roofline) -> str:
    """One line: bound, work, achieved fractions of peak, distance from the bound."""
    if r.bound == "memory":
        achieved = f"uses {r.bandwidth_fraction:.0%} of peak bandwidth ({r.achieved_gbs:.0f} GB/s)"
    else:
        achieved = (
            f"uses {r.flop_fraction:.0%} of peak {r.dtype} FLOP/s ({r.achieved_tflops:.2f} TFLOP/s)"
        )
    line = (
        f"Roofline ({r.profile}): {r.bound} bound; moves {format_amount(r.bytes_moved, 'B')}, "
        f"{format_amount(r.flops, 'FLOP')}; {achieved}; roofline time {format_ms(r.roofline_ms)}"
    )
    if r.exceeds_roofline:
        return line + " — FASTER than the hardware allows: the timing or the work is not real."
    return line + f" ({r.roofline_fraction:.0%} of the way to the bound)."


def resource_line(resources: dict[str, Any], occ: Occupancy | None = None) -> str | None:
    """Registers, shared memory, spills, and the occupancy they imply."""
    parts: list[str] = []
    if resources.get("registers") is not None:
        parts.append(f"{resources['registers']} registers/thread")
    if resources.get("shared_mem_bytes") is not None:
        parts.append(
            f"{format_amount(float(resources['shared_mem_bytes']), 'B')} shared memory/block"
        )
    spills = (resources.get("spill_stores") or 0) + (resources.get("spill_loads") or 0)
    if resources.get("spill_stores") is not None or resources.get("spill_loads") is not None:
        parts.append(
            f"spills: {resources.get('spill_stores') or 0} B stored, {resources.get('spill_loads') or 0} B loaded"
            + (" (local memory traffic: reduce per-thread state)" if spills else "")
        )
    if resources.get("threads_per_block") is not None:
        parts.append(f"{resources['threads_per_block']} threads/block")
    if not parts:
        return None
    line = "Compiler resources: " + ", ".join(parts) + "."
    if occ is None:
        return line
    limit = occ.limiting_factor.replace("_", " ")
    if resources.get("threads_per_block") is not None:
        if occ.blocks_per_sm == 0:
            return line + f" This block cannot launch: {limit} exceed the per-SM limit."
        return line + (
            f" Occupancy {occ.occupancy:.0%} ({occ.active_warps}/{occ.max_warps} warps, "
            f"{occ.blocks_per_sm} blocks/SM, limited by {limit})."
        )
    # CUDA kernels are launched from C++: the block size is unknown, the ceiling is not.
    if occ.blocks_per_sm == 0:
        return line + f" No block size can launch: {limit} exceed the per-SM limit."
    return line + (
        f" Block size not known; these resources allow at most {occ.occupancy:.0%} "
        f"occupancy ({occ.active_warps}/{occ.max_warps} warps, e.g. {occ.blocks_per_sm} "
        f"blocks of {occ.threads_per_block} threads; limited by {limit})."
    )


def flag_lines(flags: tuple[Flag, ...] | list[Flag]) -> list[str]:
    return [f"- [{f.severity.value}] {f.name}: {f.reason}" for f in flags]


# ---- numbers from the hardware profile --------------------------------------------------------
def work_dtype(result: EvalResult) -> str:
    """The dtype whose peak FLOP/s applies: resources['dtype'], else the output dtype, else fp32."""
    if result.resources.get("dtype"):
        return str(result.resources["dtype"])
    if result.mismatch and result.mismatch.dtype_expected:
        return result.mismatch.dtype_expected
    return "float32"


def result_roofline(result: EvalResult, hardware: HardwareProfile | None) -> Roofline | None:
    if (
        hardware is None
        or result.runtime_ms is None
        or result.flops is None
        or result.bytes_moved is None
    ):
        return None
    try:
        return roofline_fractions(
            hardware, result.flops, result.bytes_moved, work_dtype(result), result.runtime_ms
        )
    except (ConfigError, ValueError) as e:
        log.info("no roofline for %s: %s", result.task, e)
        return None


def result_occupancy(result: EvalResult, hardware: HardwareProfile | None) -> Occupancy | None:
    """The occupancy of the kernel's launch configuration; when the block size is not known
    (CUDA kernels launched from C++), the best any block size reaches with its resources.
    Without a device profile (compiled ahead of time, no GPU here), the per-SM limits come from
    a profile of the architecture it was compiled for."""
    r = result.resources
    if hardware is None:
        hardware = profile_for_arch(_compiled_arch(result))
    if hardware is None or hardware.kind != "gpu" or r.get("registers") is None:
        return None
    registers, shared = int(r["registers"]), int(r.get("shared_mem_bytes") or 0)
    try:
        if r.get("threads_per_block") is None:
            return best_block_occupancy(hardware, registers, shared)[1]
        return occupancy(hardware, int(r["threads_per_block"]), registers, shared)
    except (ConfigError, ValueError) as e:
        log.info("no occupancy for %s: %s", result.task, e)
        return None


def _compiled_arch(result: EvalResult) -> str:
    """The GPU architecture the kernel was compiled for, or "" (the device of a compile-only
    result is its arch; Triton's compiled kernels name theirs)."""
    if result.device.startswith("sm_"):
        return result.device
    kernels = result.resources.get("kernels") or []
    arch = kernels[0].get("arch", "") if kernels and isinstance(kernels[0], dict) else ""
    return arch if str(arch).startswith("sm_") else ""


# ---- the text ----------------------------------------------------------------------------------
def render_feedback(
    result: EvalResult,
    *,
    retriever: Retriever | None = None,
    hardware: HardwareProfile | None = None,
    api: ApiFactsIndex | None = None,
    max_chars: int = DEFAULT_FEEDBACK_CHARS,
) -> str:
    """The feedback for one evaluation, at most `max_chars` long. For a failure whose errors
    name a library function, type or intrinsic, the installed API's facts follow the diagnosis
    (when `api` is given: the real signature, or the nearest real names of a missing one).
    Documentation sections are retrieved (when a retriever is given) for failures and for
    correct kernels that are slow or far from the roofline, and fill the room left."""
    roofline = result_roofline(result, hardware)
    occ = result_occupancy(result, hardware)
    lines = [
        f"Task {result.task} [{result.backend} on {result.device}]: {result.stage.value.replace('_', ' ')}."
    ]
    lines.extend(_stage_lines(result, roofline, occ))
    if result.flags:
        lines.append("Guard flags:")
        lines.extend(flag_lines(result.flags))
    body = "\n".join(lines)
    if api is not None:
        block = api_section(result, room_chars=max_chars - len(body) - MIN_DOCS_CHARS, index=api)
        if block:
            body += "\n\n" + block
    if retriever is not None and _wants_docs(result, roofline, occ):
        room = max_chars - len(body) - len("\n\nRelevant documentation:\n")
        if room >= MIN_DOCS_CHARS:
            docs = _retrieve(result, retriever, roofline, occ, room)
            if docs:
                body += "\n\nRelevant documentation:\n" + "\n\n".join(d.text for d in docs)
    return body if len(body) <= max_chars else body[: max_chars - 1] + "…"


def _stage_lines(result: EvalResult, roofline: Roofline | None, occ: Occupancy | None) -> list[str]:
    stage = result.stage
    if stage is Stage.COMPILE_FAILED:
        return [
            "Compilation failed:",
            *compile_error_lines(result.compile_log or result.error, result.backend),
        ]
    if stage in (Stage.RUNTIME_ERROR, Stage.CRASHED, Stage.TIMEOUT):
        text = "\n".join(p for p in (result.error, result.stdout) if p)
        errors = parse_errors(text, result.backend)
        out = [
            f"Error: {trim_template_noise(errors[-1].message if errors else result.error or 'no message')}"
        ]
        frames = kernel_frames(text)
        if frames:
            out.append("Kernel-side frames (innermost last):")
            out.extend(f"  {f}" for f in frames)
        limit = limit_hit(text) or ("the time limit" if stage is Stage.TIMEOUT else None)
        if limit:
            out.append(f"Limit hit: {limit} after {result.wall_s:.1f} s.")
        return out
    if stage is Stage.INCORRECT:
        m = result.mismatch or Mismatch(reason=result.error)
        return ["Output is wrong:", *mismatch_lines(m, result.trials_passed, result.trials_run)]
    if stage in (Stage.CORRECT, Stage.COMPILED):
        out = (
            ["Compiled; not run on this machine."]
            if stage is Stage.COMPILED
            else ["Output is correct."]
        )
        out.extend(timing_lines(result))
        if roofline is not None:
            out.append(roofline_line(roofline))
        res = resource_line(result.resources, occ)
        if res:
            out.append(res)
        return out
    return [result.error] if result.error else []


def _wants_docs(result: EvalResult, roofline: Roofline | None, occ: Occupancy | None) -> bool:
    if result.stage is Stage.NO_CODE:
        return False
    if result.stage is not Stage.CORRECT:
        return True
    slow = result.speedup_eager is not None and result.speedup_eager < SLOW_SPEEDUP
    far = roofline is not None and roofline.roofline_fraction < NEAR_ROOFLINE
    spills = bool(result.resources.get("spill_stores") or result.resources.get("spill_loads"))
    return slow or far or spills or (occ is not None and occ.occupancy < LOW_OCCUPANCY)


def _retrieve(
    result: EvalResult,
    retriever: Retriever,
    roofline: Roofline | None,
    occ: Occupancy | None,
    room: int,
) -> list[DocSection]:
    bottleneck = None
    if result.stage is Stage.CORRECT:
        bottleneck = bottleneck_query(
            roofline.bound if roofline else None,
            roofline.bandwidth_fraction if roofline else None,
            roofline.flop_fraction if roofline else None,
            spills=bool(
                result.resources.get("spill_stores") or result.resources.get("spill_loads")
            ),
            low_occupancy=occ is not None and occ.occupancy < LOW_OCCUPANCY,
        )
    query = query_for(result, bottleneck)
    if not query.strip():
        return []
    separators = 2 * DOCS_K  # the blank lines joining sections
    return cap_sections(
        retriever.search(query, k=DOCS_K, backend=result.backend), room - separators
    )
