"""The API facts' data: `ApiEntry` (one declared name as extracted), `ApiFact` (what is said
about one name an error is about) and `Catalog`, which turns a looked-up name into a fact:
its signatures, or for a name that does not exist the closest real names.
"""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from kernelsearch.retrieval.api_names import NameRef

MAX_SIGNATURE_LINES = 6  # overloads shown per fact; the rest are counted
MAX_NEAREST = 4
NEAREST_CUTOFF = 0.6  # difflib ratio below which a name is not offered as "nearest"

# Scopes: where a name lives, and how a person writes it.
TRITON_SCOPES = {
    "tl": "tl.",
    "tl.math": "tl.math.",
    "libdevice": "tl.extra.cuda.libdevice.",
    "tl.extra.cuda": "tl.extra.cuda.",
    "tensor": "tensor.",
}
ATEN_SCOPES = {"at": "at::", "Tensor": "Tensor::"}
CUDA_SCOPES = {"cuda": "", "cg": "cooperative_groups::"}

LIBRARY_LABELS = {"triton": "triton", "aten": "torch", "cuda": "CUDA"}
SCOPE_MODULES = {
    "tl": "triton.language",
    "tl.math": "triton.language.math",
    "libdevice": "triton.language.extra.cuda.libdevice",
    "tl.extra.cuda": "triton.language.extra.cuda",
    "tensor": "Triton's tensor methods",
    "at": "ATen's functions",
    "Tensor": "at::Tensor's methods",
    "cuda": "the CUDA headers",
    "cg": "cooperative_groups",
}
SHOWN_PREFIX = {**TRITON_SCOPES, **ATEN_SCOPES, **CUDA_SCOPES}
# Abbreviations people write for dtype names, spelled out before comparing (fp8e4 ~ float8e4nv).
_ABBREVIATIONS = ((re.compile(r"\bfp(?=\d)"), "float"), (re.compile(r"\bbf(?=\d)"), "bfloat"))


@dataclass(frozen=True)
class ApiEntry:
    """One declared name: its library, scope, kind and one signature (one row per overload)."""

    library: str  # "triton" | "aten" | "cuda"
    scope: str  # a key of TRITON_SCOPES / ATEN_SCOPES / CUDA_SCOPES
    name: str
    kind: str  # function | method | dtype | class | module | constant | type
    signature: str = ""  # a Triton class's: its constructor's
    where: str = ""  # module, header or schema file it came from


@dataclass(frozen=True)
class ApiFact:
    """What is installed for one name the error is about."""

    name: str  # as a person writes it: tl.zeros_like, at::conv2d, atomicAdd
    library: str  # triton | aten | cuda
    version: str  # of that library
    scope: str = ""  # see SCOPE_MODULES
    exists: bool = True
    kind: str = "function"
    signatures: tuple[str, ...] = ()  # capped at MAX_SIGNATURE_LINES
    more: int = 0  # overloads left out by the cap
    where: str = ""  # header (CUDA) or schema file
    nearest: tuple[str, ...] = ()  # for a missing name: close real names, same library
    elsewhere: tuple[str, ...] = ()  # for a missing name: the same name in another scope

    def render(self) -> str:
        label = f"{LIBRARY_LABELS[self.library]} {self.version}"
        if not self.exists:
            parts = [f"{self.name}: not in {SCOPE_MODULES.get(self.scope, self.library)} ({label})"]
            if self.elsewhere:
                parts.append("exists as " + ", ".join(self.elsewhere))
            if self.nearest:
                parts.append("nearest: " + ", ".join(self.nearest))
            return "; ".join(parts)
        source = f"{label}, {self.where}" if self.where else label
        if self.kind not in ("function", "method") and not self.signatures:
            return f"{self.name} — {self.kind} ({source})"
        if self.kind == "class":  # a constructor's signature
            return f"{_qualify(self.name, self.signatures[0])} — class ({source})"
        if len(self.signatures) == 1 and not self.more:
            return f"{_qualify(self.name, self.signatures[0])} — {source}"
        count = len(self.signatures) + self.more
        lines = [f"{self.name} — {count} overloads ({label}):"]
        lines += [f"  {sig}" for sig in self.signatures]
        if self.more:
            lines.append(f"  (+{self.more} more)")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ApiFact:
        fields = dict(data)
        for key in ("signatures", "nearest", "elsewhere"):
            fields[key] = tuple(fields.get(key, ()))
        return cls(**fields)


def _qualify(shown: str, signature: str) -> str:
    """'tl.zeros_like' + 'zeros_like(input)' -> 'tl.zeros_like(input)' (an ATen overload name
    stays: 'at::softmax.int(...)'); a C++ declaration is prefixed: 'Tensor::size: int64_t ...'."""
    bare = shown.rsplit(".", 1)[-1].rsplit("::", 1)[-1]
    if signature.startswith((bare + "(", bare + ".")):
        return shown + signature[len(bare) :]
    return signature if shown == bare else f"{shown}: {signature}"


class Catalog:
    """The entries in memory: (library, scope) -> name -> rows, plus the versions."""

    def __init__(self, entries: list[ApiEntry], versions: Mapping[str, str]) -> None:
        self.versions = dict(versions)
        self.by_scope: dict[tuple[str, str], dict[str, list[ApiEntry]]] = defaultdict(
            lambda: defaultdict(list)
        )
        for e in entries:
            self.by_scope[(e.library, e.scope)][e.name].append(e)

    def version(self, library: str) -> str:
        return self.versions.get({"aten": "torch"}.get(library, library), "")

    def fact(self, ref: NameRef) -> ApiFact | None:
        """The fact for `ref`, or None when there is nothing worth saying: an unknown name in a
        scope that is not fully known, a non-function a message merely mentions, a function
        without the parameter the message is about."""
        names = self.by_scope.get((ref.library, ref.scope), {})
        shown = SHOWN_PREFIX[ref.scope] + ref.name
        version = self.version(ref.library)
        rows = names.get(ref.name)
        if rows:
            kind = rows[0].kind
            if ref.callable_only and kind not in ("function", "method"):
                return None
            if ref.param and not any(_has_param(r.signature, ref.param) for r in rows):
                return None
            rows = _by_arity(rows, ref.arity)
            sigs = list(dict.fromkeys(r.signature for r in rows if r.signature))
            shown_sigs = sigs[:MAX_SIGNATURE_LINES]
            where = rows[0].where
            if ref.library == "cuda" and len(sigs) > 1:  # each overload says its header
                header = {r.signature: r.where for r in rows}
                shown_sigs = [f"{s}  [{header[s]}]" for s in shown_sigs]
                where = ""
            elif ref.library != "cuda":
                where = ""
            return ApiFact(
                shown, ref.library, version, ref.scope, True, kind, tuple(shown_sigs),
                max(0, len(sigs) - MAX_SIGNATURE_LINES), where,
            )  # fmt: skip
        if not ref.missing_ok or not names:
            return None
        elsewhere = tuple(
            SHOWN_PREFIX[scope]
            + ref.name
            + (" (module)" if other[ref.name][0].kind == "module" else "")
            for (library, scope), other in self.by_scope.items()
            if library == ref.library and scope != ref.scope and ref.name in other
        )
        near = (
            ()
            if elsewhere
            else tuple(SHOWN_PREFIX[ref.scope] + n for n in nearest(ref.name, list(names)))
        )
        return ApiFact(
            shown, ref.library, version, ref.scope, False, "", (), 0, "", near, elsewhere
        )


def _has_param(signature: str, param: str) -> bool:
    inner = signature[signature.find("(") + 1 : signature.rfind(")")]
    return re.search(rf"(?:^|[\s,*&]){re.escape(param)}\s*(?:=|,|$)", inner) is not None


def _by_arity(rows: list[ApiEntry], arity: int | None) -> list[ApiEntry]:
    """Overloads taking `arity` parameters first (stable), when the failed call's is known."""
    if arity is None:
        return rows

    def distance(row: ApiEntry) -> int:
        inner = row.signature[row.signature.find("(") + 1 : row.signature.rfind(")")]
        params = [p for p in inner.split(",") if p.strip() and p.strip() != "*"]
        return abs(len(params) - arity)

    return sorted(rows, key=distance)


def nearest(name: str, candidates: list[str], n: int = MAX_NEAREST) -> list[str]:
    """Up to n candidates closest to `name` (difflib ratio, also after spelling out fp8/bf16
    abbreviations and ignoring `_`), best first, none under NEAREST_CUTOFF."""

    def norm(text: str) -> str:
        text = text.lower()
        for pattern, full in _ABBREVIATIONS:
            text = pattern.sub(full, text)
        return text.replace("_", "")

    target, target_norm = name.lower(), norm(name)
    scored: list[tuple[float, str]] = []
    matcher = difflib.SequenceMatcher()
    for cand in candidates:
        if cand == name:
            continue
        best = 0.0
        for a, b in ((target, cand.lower()), (target_norm, norm(cand))):
            matcher.set_seqs(a, b)
            if (
                matcher.real_quick_ratio() >= NEAREST_CUTOFF
                and matcher.quick_ratio() >= NEAREST_CUTOFF
            ):
                best = max(best, matcher.ratio())
        if best >= NEAREST_CUTOFF:
            scored.append((best, cand))
    scored.sort(key=lambda pair: (-pair[0], pair[1]))
    return [c for _, c in scored[:n]]
