"""Extractors for API facts from what is installed: Triton's language module (inspected) and
ATen's operators (torchgen's packaged native_functions.yaml, plus the Tensor methods declared in
torch's headers). The CUDA toolkit's headers are read by `api_headers`.

Facts only: names, signatures, parameter names and defaults, overload lists; never docstrings.
Each extractor returns `ApiEntry` rows; `api_facts` caches them and answers lookups.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import inspect
import logging
import re
from pathlib import Path

from kernelsearch.retrieval.api_catalog import ApiEntry
from kernelsearch.retrieval.api_headers import declarations

log = logging.getLogger(__name__)

# Parameters Triton adds for its own code generator; a user never passes them.
TRITON_INTERNAL_PARAM = re.compile(r"^_")
MAX_DEFAULT_CHARS = 40  # a default whose repr is longer is shown as `...`

# Tensor methods that are not operators (data_ptr, accessor, sizes) are declared here.
TORCH_TENSOR_HEADERS = ("ATen/core/TensorBase.h", "ATen/core/TensorBody.h")


def package_version(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


# ---- Triton ------------------------------------------------------------------------------
def format_signature(name: str, fn: object, drop_self: bool = False) -> str:
    """`name(a, b=None, *, c=False)` from a callable, without Triton's internal parameters and
    without annotations (they are strings Triton writes for itself)."""
    target = getattr(fn, "fn", fn)  # a JITFunction keeps the Python function in .fn
    try:
        sig = inspect.signature(target)
    except (TypeError, ValueError):
        return f"{name}(...)"
    parts: list[str] = []
    star_done = False
    params = list(sig.parameters.values())
    if drop_self and params and params[0].name == "self":
        params = params[1:]
    for p in params:
        if TRITON_INTERNAL_PARAM.match(p.name):
            continue
        if p.kind is p.VAR_POSITIONAL:
            parts.append(f"*{p.name}")
            star_done = True
            continue
        if p.kind is p.VAR_KEYWORD:
            parts.append(f"**{p.name}")
            continue
        if p.kind is p.KEYWORD_ONLY and not star_done:
            parts.append("*")
            star_done = True
        if p.default is p.empty:
            parts.append(p.name)
        else:
            shown = repr(p.default)
            parts.append(f"{p.name}={shown if len(shown) <= MAX_DEFAULT_CHARS else '...'}")
    return f"{name}({', '.join(parts)})"


def triton_entries() -> list[ApiEntry]:
    """Public names of triton.language, tl.math, libdevice and tl.tensor's methods."""
    try:
        import triton.language as tl
    except ImportError:
        log.info("triton not installed: no Triton API facts")
        return []
    modules: list[tuple[str, object, str]] = [
        ("tl", tl, "triton.language"),
        ("tl.math", tl.math, "triton.language.math"),
    ]
    try:
        import triton.language.extra.cuda as tl_cuda
        from triton.language.extra.cuda import libdevice
    except ImportError:
        log.info("triton.language.extra.cuda.libdevice not importable: no libdevice facts")
    else:
        modules.append(("libdevice", libdevice, "triton.language.extra.cuda.libdevice"))
        modules.append(("tl.extra.cuda", tl_cuda, "triton.language.extra.cuda"))
    out: list[ApiEntry] = []
    for scope, module, where in modules:
        for name in sorted(dir(module)):
            if name.startswith("_"):
                continue
            obj = getattr(module, name)
            kind = _triton_kind(obj)
            if kind is None:
                continue
            sig = format_signature(name, obj) if kind == "function" else ""
            if kind == "class" and _defines_init(obj):  # tl.range(...): its constructor's
                sig = format_signature(name, obj.__init__, drop_self=True)
            out.append(ApiEntry("triton", scope, name, kind, sig, where))
    for name in sorted(dir(tl.tensor)):
        obj = getattr(tl.tensor, name)
        if name.startswith("_") or not callable(obj):
            continue
        sig = format_signature(name, obj, drop_self=True)
        out.append(ApiEntry("triton", "tensor", name, "method", sig, "triton.language.tensor"))
    return out


def _defines_init(cls: type) -> bool:
    """Whether a Triton class writes its own constructor (not object's or Enum's)."""
    init = getattr(cls, "__init__", None)
    return (getattr(init, "__module__", "") or "").startswith("triton")


def _triton_kind(obj: object) -> str | None:
    """What a public attribute of a Triton module is; None for names it merely imported."""
    import types

    import triton.language as tl

    if isinstance(obj, types.ModuleType):
        return "module" if obj.__name__.startswith("triton") else None
    if isinstance(obj, tl.dtype):
        return "dtype"
    module = getattr(obj, "__module__", "") or ""
    if isinstance(obj, type):
        return "class" if module.startswith("triton") else None
    if callable(obj):
        return "function" if module.startswith("triton") else None
    return "constant" if isinstance(obj, (int, float, str)) else None


# ---- ATen --------------------------------------------------------------------------------
def native_functions_path() -> Path | None:
    try:
        import torchgen
    except ImportError:
        return None
    path = Path(torchgen.__file__).parent / "packaged/ATen/native/native_functions.yaml"
    return path if path.is_file() else None


def parse_native_functions(text: str) -> list[tuple[str, str]]:
    """(schema, variants) per `- func:` entry, read line by line: each entry's schema is on its
    `- func:` line and its variants on an indented `variants:` line (default "function").
    A line parser, so no YAML library is needed; tests check it against yaml where installed."""
    out: list[tuple[str, str]] = []
    for line in text.splitlines():
        if line.startswith("- func:"):
            out.append((line[len("- func:") :].strip(), "function"))
        elif line.startswith("  variants:") and out:
            value = line.split(":", 1)[1].split("#", 1)[0].strip()
            out[-1] = (out[-1][0], value)
    return out


_SCHEMA = re.compile(
    r"^(?P<name>[\w]+)(?:\.(?P<overload>\w+))?\((?P<args>.*)\)\s*->\s*(?P<ret>.+)$"
)


def aten_entries() -> list[ApiEntry]:
    """Public ATen operators: `at::name` for function variants, `Tensor::name` for method
    variants, one row per overload. Private (`_`) and backward ops are skipped; out= overloads
    are listed under the C++ name `name_out`."""
    path = native_functions_path()
    if path is None:
        log.info("torchgen's native_functions.yaml not found: no ATen facts")
        return []
    out: list[ApiEntry] = []
    for schema, variants in parse_native_functions(path.read_text()):
        m = _SCHEMA.match(schema)
        if not m:
            continue
        name, overload = m.group("name"), m.group("overload") or ""
        if name.startswith("_") or "backward" in name:
            continue
        is_out = overload == "out" or overload.endswith("_out") or "(a!) out" in m.group("args")
        sig = f"{name}{'.' + overload if overload else ''}({m.group('args')}) -> {m.group('ret')}"
        kinds = [v.strip() for v in variants.split(",")]
        if "function" in kinds:
            out.append(
                ApiEntry(
                    "aten", "at", f"{name}_out" if is_out else name, "function", sig, path.name
                )
            )
        if "method" in kinds and not is_out:
            out.append(ApiEntry("aten", "Tensor", name, "method", sig, path.name))
    out.extend(_tensor_header_methods({e.name for e in out if e.scope == "Tensor"}))
    return out


def _tensor_header_methods(known: set[str]) -> list[ApiEntry]:
    """Tensor methods declared in torch's headers that are not operators (sizes, data_ptr,
    accessor, options): their C++ declarations."""
    spec = importlib.util.find_spec("torch")
    if spec is None or not spec.submodule_search_locations:
        return []
    roots = [Path(p) / "include" for p in spec.submodule_search_locations]
    out: list[ApiEntry] = []
    seen: set[tuple[str, str]] = set()
    for rel in TORCH_TENSOR_HEADERS:
        path = next((r / rel for r in roots if (r / rel).is_file()), None)
        if path is None:
            continue
        for name, sig in declarations(path.read_text(errors="replace")):
            free_function = "(const TensorBase&" in sig or "(const Tensor&" in sig
            private = name.startswith("_") or "backward" in name
            if name in known or private or free_function or (name, sig) in seen:
                continue
            seen.add((name, sig))
            out.append(ApiEntry("aten", "Tensor", name, "method", sig, path.name))
    return out
