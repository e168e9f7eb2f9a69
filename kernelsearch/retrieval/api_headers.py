"""Function and type declarations read from C/C++ headers: the CUDA toolkit's headers
(intrinsics, half/bfloat16/fp8 functions, atomics, math, wmma, the runtime API, cooperative
groups) and torch's Tensor headers.

A regular expression per statement, not a compiler, so some things are missed: functions
declared through macros that paste names together, operators, overloads inside `#if` branches
other than the old-GPU ones `drop_old_arch` removes (both branches of other conditions are
read), and members of class bodies appear as free functions. Nothing is preprocessed.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from pathlib import Path

from kernelsearch.retrieval.api_catalog import ApiEntry

log = logging.getLogger(__name__)

# CUDA headers with device-side declarations, relative to the toolkit's include/ (globs).
CUDA_HEADER_GLOBS = (
    "cuda_fp16.h",
    "cuda_fp16.hpp",
    "cuda_bf16.h",
    "cuda_bf16.hpp",
    "cuda_fp8.h",
    "cuda_fp8.hpp",
    "sm_*_intrinsics.h",
    "sm_*_intrinsics.hpp",
    "*atomic_functions.h",
    "*atomic_functions.hpp",
    "vector_functions.h",
    "cuda_pipeline_primitives.h",
    "crt/device_functions.h",
    "crt/device_double_functions.h",
    "crt/math_functions.h",
    "crt/math_functions.hpp",
    "crt/sm_*_rt.h",
    "crt/mma.h",
    "cuda_runtime_api.h",
    "cuda_runtime.h",
    "cooperative_groups.h",
)
# Headers whose names live in a namespace scope (see api_catalog.CUDA_SCOPES); others: "cuda".
CUDA_HEADER_SCOPES = {"cooperative_groups.h": "cg"}


def cuda_version(include_dir: Path | None) -> str | None:
    """'13.0' from cuda.h's CUDA_VERSION define (no subprocess), None without a toolkit."""
    if include_dir is None:
        return None
    try:
        text = (include_dir / "cuda.h").read_text(errors="replace")
    except OSError:
        return None
    m = re.search(r"#define\s+CUDA_VERSION\s+(\d+)", text)
    if not m:
        return None
    value = int(m.group(1))
    return f"{value // 1000}.{value % 1000 // 10}"


def cuda_include_dir() -> Path | None:
    from kernelsearch.backends.nvcc import cuda_home

    home = cuda_home()
    return home / "include" if home and (home / "include").is_dir() else None


# ---- C/C++ declarations (CUDA headers, torch headers) -------------------------------------
_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_PREPROCESSOR = re.compile(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.M)
# A statement (text between `;`, `{` and `}`) that is a function declaration or definition
# head: return-type words, a name, parameters with at most one level of nested parentheses,
# then attribute macros. Matched per statement, anchored, so it never backtracks across a file.
_DECL = re.compile(
    r"^(?P<ret>[\w\s:*&<>,]*?[\w*&>])\s*(?<![\w:])(?P<name>[A-Za-z_]\w*)\s*"
    r"\((?P<params>[^()]*(?:\([^()]*\)[^()]*)*)\)"
    r"\s*(?:const\s*)?(?:noexcept\s*)?(?:(?:__THROW|__[A-Z_]+__|[A-Z_]{4,})\s*)*$"
)
# Macros that stand for a declaration's end (`;` in device code, `{}` in host code).
DECLARATION_END_MACROS = ("__DEF_IF_HOST",)
# `__DEPRECATED__(msg)`, `__attribute__((x))`: between the qualifiers and the return type.
_ATTRIBUTE_MACRO = re.compile(r"\b__\w+__\s*\((?:[^()]|\([^()]*\))*\)")
_OLD_ARCH = re.compile(r"__CUDA_ARCH__\s*<")


def drop_old_arch(text: str) -> str:
    """Blank the lines inside `#if ... __CUDA_ARCH__ < N` branches (their `#else` is kept):
    those declarations exist only when compiling for GPUs older than sm_N, e.g. the
    `__shfl_down` without `_sync` that CUDA 9 deprecated and sm_70+ code cannot call."""
    out: list[str] = []
    stack: list[bool] = []  # per open #if: is the current branch old-arch-only
    for line in text.split("\n"):
        directive = re.match(r"\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)", line)
        if directive:
            word, rest = directive.groups()
            if word.startswith("if"):
                stack.append(bool(_OLD_ARCH.search(rest)))
            elif word == "elif" and stack:
                stack[-1] = bool(_OLD_ARCH.search(rest))
            elif word == "else" and stack:
                stack[-1] = False
            elif word == "endif" and stack:
                stack.pop()
            out.append(line)
            continue
        out.append("" if any(stack) else line)
    return "\n".join(out)


NOT_A_NAME = frozenset(
    """if for while switch return sizeof alignof decltype static_assert defined asm volatile
    else do case new delete throw operator template typename using""".split()
)
NOT_A_TYPE = frozenset("return else case goto new delete throw typedef using operator".split())
# Words before the return type that say where a function lives, not what it returns.
_QUALIFIER = re.compile(
    r"^(?:extern|static|inline|constexpr|virtual|explicit|friend|__forceinline__|__inline__|"
    r"__device__|__host__|__global__|__cdecl|C10_\w+|TORCH_API|_CRTIMP|__[A-Z0-9_]+__|"
    r"__device_builtin__|__cudart_builtin__|_{1,2}[A-Z][A-Z0-9_]*|[A-Z][A-Z0-9_]{3,})$"
)


def declarations(text: str) -> Iterator[tuple[str, str]]:
    """(name, `ret name(params)`) for each function declaration or definition head in C/C++
    source text. Comments, preprocessor lines, attribute macros with arguments and code only
    compiled for old GPUs (see `drop_old_arch`) are removed first."""
    text = _PREPROCESSOR.sub("", drop_old_arch(_COMMENT.sub("", text)))
    for macro in DECLARATION_END_MACROS:
        text = text.replace(macro, ";")
    for statement in re.split(r"[;{}]", text):
        deprecated = "__DEPRECATED__" in statement
        m = _DECL.match(_ATTRIBUTE_MACRO.sub(" ", statement).strip())
        if not m:
            continue
        name = m.group("name")
        words = m.group("ret").split()
        if name in NOT_A_NAME or any(w in NOT_A_TYPE for w in words):
            continue
        ret = " ".join(w for w in words if not _QUALIFIER.match(w)).strip()
        if not ret:
            continue
        params = " ".join(m.group("params").split())
        yield name, f"{ret} {name}({params})" + ("  [deprecated]" if deprecated else "")


# The compiler builtins behind atomicAdd_block & co (`__iAtomicAdd_block`, `__nvvm_*`): declared, but not
# what code calls; listed, they would crowd out the real names among the nearest.
_BUILTIN_ATOMIC = re.compile(r"^__(?:(?:i|u|f|d|ll|ull|ill)Atomic|nvvm_)")


def cuda_entries(include_dir: Path | None) -> list[ApiEntry]:
    """Functions and types declared in the toolkit headers (CUDA_HEADER_GLOBS): one row per
    distinct overload and scope, header order (the .h declaration before the .hpp definition).
    Members of cooperative groups' classes (sync, map_shared_rank) are listed in its scope."""
    if include_dir is None:
        log.info("no CUDA toolkit: no CUDA API facts")
        return []
    out: list[ApiEntry] = []
    seen: set[tuple[str, str, str]] = set()
    for pattern in CUDA_HEADER_GLOBS:
        for path in sorted(include_dir.glob(pattern)):
            text = path.read_text(errors="replace")
            where = str(path.relative_to(include_dir))
            scope = CUDA_HEADER_SCOPES.get(where, "cuda")
            for name, sig in declarations(text):
                if name.startswith("__internal") or _BUILTIN_ATOMIC.match(name):
                    continue
                key = (scope, name, _parameter_types(sig))
                if key in seen:
                    continue
                seen.add(key)
                out.append(ApiEntry("cuda", scope, name, "function", sig, where))
            for name in _type_names(text):
                if (scope, "type", name) not in seen:
                    seen.add((scope, "type", name))
                    out.append(ApiEntry("cuda", scope, name, "type", "", where))
    return out


BUILTIN_TYPE_WORDS = frozenset("int long short char float double unsigned signed bool void".split())
_TYPE_DECL = re.compile(
    r"\b(?:struct|class)\s+(?:__\w+__(?:\(\d+\))?\s+|alignas\(\d+\)\s+)*(?P<name>[A-Za-z_]\w*)\s*[:{;]"
    r"|\btypedef\s+[^;{}()]*?\b(?P<alias>[A-Za-z_]\w*)\s*;"
)


def _type_names(text: str) -> list[str]:
    text = _PREPROCESSOR.sub("", _COMMENT.sub("", text))
    return [m.group("name") or m.group("alias") for m in _TYPE_DECL.finditer(text)]


def _parameter_types(signature: str) -> str:
    """The parameter list with names and defaults dropped, to tell overloads apart:
    'int f(const int a, int b=3)' -> 'const int|int'."""
    inner = signature[signature.index("(") + 1 : signature.rindex(")")]
    types = []
    for param in inner.split(","):
        param = param.split("=", 1)[0].strip()
        words = param.replace("*", " * ").replace("&", " & ").split()
        last = words[-1] if len(words) > 1 else ""
        if re.fullmatch(r"[A-Za-z_]\w*", last) and last not in BUILTIN_TYPE_WORDS:
            words = words[:-1]
        types.append(" ".join(words))
    return "|".join(types)
