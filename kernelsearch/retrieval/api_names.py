"""Which API names a parsed error is about: the names its message quotes (a missing attribute,
an undefined identifier, the function a call did not match) and, for errors about a call's
arguments, the library functions called on the quoted source line.

Pure text work on `ErrorLine`s; `api_facts` decides which of these names exist.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from kernelsearch.retrieval.parsers import ErrorLine

# Which libraries a backend's errors can be about.
BACKEND_LIBRARIES: dict[str, tuple[str, ...]] = {
    "triton": ("triton",),
    "python": ("triton",),
    "cuda": ("cuda", "aten"),
    "nvcc": ("cuda", "aten"),
    "cpu": ("aten",),
    "gcc": ("aten",),
}

# A message about how a function was called: only then are the source line's calls looked up.
CALL_MESSAGE = re.compile(
    r"argument|overload|no matching function|too (?:few|many)|could not convert|"
    r"invalid conversion|cannot convert|no suitable|incompatible with parameter|"
    r"incompatible function|positional|conversion from .* requested",
    re.IGNORECASE,
)
# A quoted source line longer than this is a macro expansion, not the user's call.
MAX_SOURCE_CHARS = 160
# A CUDA name worth reporting as missing: intrinsics and helpers follow these spellings; other
# undefined identifiers are the user's own (a typo of a variable, a helper defined later).
CUDA_INTRINSIC = re.compile(r"^(?:__\w+|atomic[A-Z]\w*|make_\w+)$")
TRITON_MODULE_SCOPES = {
    "triton.language": "tl",
    "triton.language.math": "tl.math",
    "triton.language.extra.cuda": "tl.extra.cuda",
    "triton.language.extra.cuda.libdevice": "libdevice",
}


@dataclass(frozen=True)
class NameRef:
    """A name to look up: library, scope (see api_sources), name, and how to show it.
    `about`: the message names it (it is what the error is about), not just the source line.
    `missing_ok`: report it even when it does not exist (the scope is fully known, or the
    compiler itself said the name is missing). `arity`: arguments the failed call passed, to
    list the overloads of that many parameters first."""

    library: str
    scope: str
    name: str
    about: bool = True
    missing_ok: bool = False
    arity: int | None = None
    callable_only: bool = False  # a name a message merely mentions: only functions count
    param: str | None = None  # only a function with this parameter counts
    error: int = 0  # which error (0 = first) the name came from


# ---- message patterns ---------------------------------------------------------------------
_TL_MODULE_ATTR = re.compile(r"module '(triton\.language[\w.]*)' has no attribute '(\w+)'")
_TL_TENSOR_ATTR = re.compile(r"'tensor' object has no attribute '(\w+)'")
# `f() got ...` names the function; `range.__init__() got ...` the class constructed.
_PY_CALLED = re.compile(
    r"\b(\w+)(?:\.__init__)?\(\) "
    r"(?:got an unexpected keyword|missing \d+ required|got multiple values|takes)"
)
_PY_KEYWORD = re.compile(
    r"unexpected keyword argument '(\w+)'|multiple values for argument '(\w+)'"
)
_PY_REQUIRED = re.compile(r"missing a required argument: '(\w+)'")
_TL_MENTION = re.compile(r"\btl\.(\w+)\b")
# `tensor.to() got an unexpected keyword argument`: a method of Triton's tensor class.
_TL_METHOD_CALLED = re.compile(r"\btensor\.(\w+)\(\) ")
# MLIR names the Triton op that failed verification: `'tt.store' op invalid cache policy`.
_TT_OP = re.compile(r"'tt\.(\w+)' op\b")
# A message that names no function ("CompilationError", "AssertionError"): the tl calls on the
# kernel line it points at are the candidates.
_NAMES_NOTHING = re.compile(r"^\w*(?:Error|Exception)$")
_NVCC_UNDEFINED = re.compile(r'identifier "(\w+)" is undefined$')
_NVCC_OVERLOAD = re.compile(
    r'(?:no|more than one) instance of (?:overloaded function|function template) "([\w:]+)"'
)
_NVCC_ARG_TYPES = re.compile(r"argument types are: \((.*?)\)\)?$")
_GCC_NO_MATCH = re.compile(r"no matching function for call to ‘([^’]*?)\((.*)\)’")
_GCC_ARG_COUNT = re.compile(
    r"too (?:few|many) arguments to function ‘[^’]*?\b((?:at|torch)::\w+)\("
)
# g++'s note after a bad argument names the function it was passed to:
# "note: in passing argument 4 of ‘at::Tensor at::scaled_dot_product_attention(...)’".
_GCC_PASSING_NOTE = re.compile(
    r"note: in passing argument \d+ of [‘'][^’'(]*?\b(?:at|torch)::(\w+)\("
)
_GCC_NO_MEMBER = re.compile(r"‘class at::Tensor(?:Base)?’ has no member named ‘(\w+)’")
# A function that is not in the at:: or torch:: namespace, as g++ and nvcc say it.
_NOT_IN_NAMESPACE = re.compile(
    r"‘(\w+)’ is not a member of ‘(?:at|torch)’|namespace \"(?:at|torch)\" has no member \"(\w+)\""
)

# Python operators written in C++: `a @ b` and `x ** 2` are at::matmul and at::pow there.
_STRAY_AT = re.compile(r"stray [‘']@[’'] in program")
_UNARY_STAR = re.compile(r"invalid type argument of unary [‘']\*[’']")

# ---- source-line calls ----------------------------------------------------------------------
_TRITON_CALL = re.compile(
    r"\b(?P<mod>tl\.math|tl\.extra\.cuda\.libdevice|libdevice|tl)\.(?P<name>\w+)\s*\("
)
_ATEN_CALL = re.compile(r"\b(?:at|torch)::(\w+)\s*[(<]")
_METHOD_CALL = re.compile(r"(?<=[\w)\]])\.(\w+)\s*(?:<[^<>()]*>)?\s*\(")
_CUDA_CALL = re.compile(r"(?<![\w.:])(__\w+|atomic\w+|make_\w+|cuda[A-Z]\w*)\s*\(")
_CG_CALL = re.compile(r"\b(?:cg|cooperative_groups)::(\w+)\s*(?:<[^<>()]*>)?\s*\(")


def name_refs(errors: list[ErrorLine], backend: str, log: str = "") -> list[NameRef]:
    """Names the errors are about (`about`, from the messages and, given the raw `log`, from
    the compiler's notes under them, in log order), then names called on their source lines
    when a message is about a call; each (library, scope, name) once per error.
    `NameRef.error` says which error a name came from."""
    libraries = BACKEND_LIBRARIES.get(backend.lower(), ())
    notes = note_refs(log, errors) if "aten" in libraries and log else []
    about: list[NameRef] = []
    called: list[NameRef] = []
    for index, error in enumerate(errors):
        message, source = error.message, error.source_line
        if len(source) > MAX_SOURCE_CHARS:
            source = ""
        found: list[NameRef] = []
        if "triton" in libraries:
            found += _triton_message_refs(message, source)
        if "cuda" in libraries:
            found += _cuda_message_refs(message)
        if "aten" in libraries:
            found += _aten_message_refs(message, source)
        about += [replace(r, error=index) for r in found]
        about += [r for r in notes if r.error == index]
        if CALL_MESSAGE.search(message) and not _PY_KEYWORD.search(message):
            called += [
                replace(r, about=False, error=index) for r in _source_calls(source, libraries)
            ]
    seen: set[tuple[str, str, str, int]] = set()
    out: list[NameRef] = []
    for ref in about + called:
        key = (ref.library, ref.scope, ref.name, ref.error)
        if key not in seen:
            seen.add(key)
            out.append(ref)
    return out


def note_refs(log: str, errors: list[ErrorLine]) -> list[NameRef]:
    """ATen functions g++'s "in passing argument N of ..." notes name, each credited to the
    error above it in the log (notes before any of `errors` are skipped)."""
    starts = [log.find(e.message) for e in errors]
    refs: list[NameRef] = []
    for m in _GCC_PASSING_NOTE.finditer(log):
        above = [i for i, start in enumerate(starts) if 0 <= start < m.start()]
        if above:
            owner = max(above, key=lambda i: starts[i])
            refs.append(NameRef("aten", "at", m.group(1), error=owner))
    return refs


def _source_calls(source: str, libraries: tuple[str, ...]) -> list[NameRef]:
    """Library functions called on a source line. For ATen: its `at::`/`torch::` calls, or
    when there are none the last method called (`x.norm().item()` -> item)."""
    refs: list[NameRef] = []
    if "triton" in libraries:
        refs += [
            NameRef("triton", _triton_scope(m.group("mod")), m.group("name"))
            for m in _TRITON_CALL.finditer(source)
        ]
    if "cuda" in libraries:
        refs += [NameRef("cuda", "cuda", n) for n in _CUDA_CALL.findall(source)]
        refs += [NameRef("cuda", "cg", n) for n in _CG_CALL.findall(source)]
    if "aten" in libraries:
        functions = _ATEN_CALL.findall(source)
        refs += [NameRef("aten", "at", n) for n in functions]
        methods = _METHOD_CALL.findall(source)
        if methods and not functions:
            refs.append(NameRef("aten", "Tensor", methods[-1]))
    return refs


def _triton_scope(module_text: str) -> str:
    return {"tl": "tl", "tl.math": "tl.math"}.get(module_text, "libdevice")


def _triton_message_refs(message: str, source: str) -> list[NameRef]:
    refs: list[NameRef] = []
    m = _TL_MODULE_ATTR.search(message)
    if m and m.group(1) in TRITON_MODULE_SCOPES:
        refs.append(
            NameRef("triton", TRITON_MODULE_SCOPES[m.group(1)], m.group(2), missing_ok=True)
        )
    m = _TL_TENSOR_ATTR.search(message)
    if m:
        refs.append(NameRef("triton", "tensor", m.group(1), missing_ok=True))
    calls = [
        (c.group("mod"), c.group("name"), call_arguments(source, c.end() - 1))
        for c in _TRITON_CALL.finditer(source)
    ]
    method = _TL_METHOD_CALLED.search(message)
    if method:
        refs.append(NameRef("triton", "tensor", method.group(1)))
    m = _TT_OP.search(message)
    if m:
        refs.append(NameRef("triton", "tl", m.group(1)))
    if _NAMES_NOTHING.match(message.strip()):
        refs += [NameRef("triton", _triton_scope(mod), name) for mod, name, _ in calls]
    m = _PY_CALLED.search(message)
    if m and not method:
        refs += [
            NameRef("triton", _triton_scope(mod), name)
            for mod, name, _ in calls
            if name == m.group(1)
        ] or [NameRef("triton", "tl", m.group(1))]
    m = _PY_KEYWORD.search(message)
    if m and not _PY_CALLED.search(message):
        keyword = m.group(1) or m.group(2)
        taking = [
            (mod, name, args)
            for mod, name, args in calls
            if re.search(rf"\b{keyword}\s*=(?!=)", args)
        ]
        if taking:  # the innermost call passing that keyword
            mod, name, _ = min(taking, key=lambda c: len(c[2]))
            refs.append(NameRef("triton", _triton_scope(mod), name))
    m = _PY_REQUIRED.search(message)
    if m:  # the call it is missing from is the one whose function has that parameter
        refs += [
            NameRef("triton", _triton_scope(mod), name, param=m.group(1)) for mod, name, _ in calls
        ]
    refs += [NameRef("triton", "tl", n, callable_only=True) for n in _TL_MENTION.findall(message)]
    return refs


def _cuda_message_refs(message: str) -> list[NameRef]:
    refs: list[NameRef] = []
    m = _NVCC_UNDEFINED.search(message)
    if m:
        name = m.group(1)
        refs.append(NameRef("cuda", "cuda", name, missing_ok=bool(CUDA_INTRINSIC.match(name))))
    m = _NVCC_OVERLOAD.search(message)
    if m:
        qualified = m.group(1)
        args = _NVCC_ARG_TYPES.search(message)
        arity = count_arguments(args.group(1)) if args else None
        name = qualified.rsplit("::", 1)[-1]
        if qualified.startswith(("at::", "torch::")):
            refs.append(NameRef("aten", "at", name, arity=arity))
        elif qualified.startswith("cooperative_groups::"):
            refs.append(NameRef("cuda", "cg", name, arity=arity))
        else:
            refs.append(NameRef("cuda", "cuda", name, arity=arity))
    return refs


def _aten_message_refs(message: str, source: str) -> list[NameRef]:
    refs: list[NameRef] = []
    m = _GCC_NO_MATCH.search(message)
    if m:
        qualified = re.sub(r"<[^<>]*>", "", m.group(1)).strip()
        arity = count_arguments(m.group(2))
        name = qualified.rsplit("::", 1)[-1]
        if re.match(r"at::Tensor(?:Base)?::", qualified):
            refs.append(NameRef("aten", "Tensor", name, arity=arity))
        elif qualified.startswith(("at::", "torch::")) or re.search(
            rf"\b(?:at|torch)::{re.escape(name)}\s*[(<]", source
        ):
            refs.append(NameRef("aten", "at", name, arity=arity))
    m = _GCC_ARG_COUNT.search(message)
    if m:
        refs.append(NameRef("aten", "at", m.group(1).split("::")[-1]))
    m = _GCC_NO_MEMBER.search(message)
    if m:
        refs.append(NameRef("aten", "Tensor", m.group(1), missing_ok=True))
    if _STRAY_AT.search(message):
        refs.append(NameRef("aten", "at", "matmul"))
    if _UNARY_STAR.search(message) and "**" in source:
        refs.append(NameRef("aten", "at", "pow"))
    m = _NOT_IN_NAMESPACE.search(message)
    if m:
        refs.append(NameRef("aten", "at", m.group(1) or m.group(2), missing_ok=True))
    return refs


def call_arguments(text: str, open_paren: int) -> str:
    """The text between the parenthesis at `open_paren` and its match (to the end if unclosed)."""
    depth = 0
    for i in range(open_paren, len(text)):
        if text[i] in "([{":
            depth += 1
        elif text[i] in ")]}":
            depth -= 1
            if depth == 0:
                return text[open_paren + 1 : i]
    return text[open_paren + 1 :]


def count_arguments(arg_list: str) -> int:
    """Top-level comma-separated items: 'at::Tensor&, std::vector<long int>&' -> 2."""
    if not arg_list.strip():
        return 0
    depth, count = 0, 1
    for ch in arg_list:
        if ch in "(<[{":
            depth += 1
        elif ch in ")>]}":
            depth -= 1
        elif ch == "," and depth == 0:
            count += 1
    return count
