"""Error parsers: turn a compiler or Python log into the errors a person (and a query) needs.

Each backend family has one parser (a small `ErrorParser`): nvcc, gcc/g++, Triton and Python
tracebacks. A parser finds the error lines, the source line each points at, and any error
codes; notes and template-instantiation chatter from system headers are dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

# Backend name (EvalResult.backend) -> the parsers whose formats its logs can contain.
BACKEND_PARSERS: dict[str, tuple[str, ...]] = {
    "cuda": ("nvcc", "gcc", "python"),
    "nvcc": ("nvcc", "gcc", "python"),
    "cpu": ("gcc", "python"),
    "gcc": ("gcc", "python"),
    "triton": ("triton", "mlir", "python"),
    "python": ("python",),
}


@dataclass(frozen=True)
class ErrorLine:
    """One error: its message, where it points (file:line), the offending source line, code."""

    message: str
    location: str = ""
    source_line: str = ""
    code: str = ""

    def render(self) -> str:
        head = f"{self.location}: {self.message}" if self.location else self.message
        return f"{head}\n    {self.source_line.strip()}" if self.source_line.strip() else head


class ErrorParser(Protocol):
    """Finds errors in one tool's output. Returns them in log order, possibly repeated."""

    name: str

    def parse(self, log: str) -> list[ErrorLine]: ...


# nvcc quotes the preprocessed line: `__global__` appears as `__attribute__((global))`.
_NVCC_ATTRIBUTE = re.compile(r"__attribute__\(\((\w+)(\([^()]*\))?\)\)")


def _cuda_keywords(source: str) -> str:
    """`__attribute__((global)) void k(` -> `__global__ void k(`; `launch_bounds(256)` too."""
    return _NVCC_ATTRIBUTE.sub(lambda m: f"__{m.group(1)}__{m.group(2) or ''}", source)


def _source_after(lines: list[str], start: int, limit: int = 3) -> str:
    """The first indented, non-caret line within `limit` lines after `start` (nvcc/gcc quote
    the offending source there)."""
    for line in lines[start + 1 : start + 1 + limit]:
        text = line.rstrip()
        bare = text.strip()
        if not bare:
            continue
        if set(bare) <= {"^", "~", "|", " "} or re.match(r"^\s*\|", text):
            continue
        gutter = re.match(r"^\s*\d+\s*\|\s?(.*)$", text)
        if gutter:
            return gutter.group(1).strip()
        if text.startswith((" ", "\t")):
            return bare
        return ""
    return ""


class NvccParser:
    """nvcc front-end errors (`file(12): error: ...`), ptxas and nvcc driver errors."""

    name = "nvcc"
    _FRONT = re.compile(
        r"^(?P<file>[^\s()][^()]*)\((?P<line>\d+)\): (?:catastrophic )?error(?: (?P<code>#[\w-]+))?: (?P<msg>.+)$"
    )
    _PTXAS = re.compile(
        r"^ptxas(?: (?P<where>[^;]+;))?(?P<extra>[^:]*?)\s*(?:error|fatal)\s*: (?P<msg>.+)$"
    )
    _DRIVER = re.compile(r"^nvcc (?:fatal|error)\s*: (?P<msg>.+)$")
    _CONTINUATION = re.compile(
        r"^\s{2,}(?P<text>(?:argument types are|operand types are|object type is|detected during).*)$"
    )

    def parse(self, log: str) -> list[ErrorLine]:
        lines = log.splitlines()
        out: list[ErrorLine] = []
        for i, line in enumerate(lines):
            m = self._FRONT.match(line)
            if m:
                msg = m.group("msg").strip()
                start = i  # continuation lines ("argument types are", "object type is") join msg
                while start + 1 < len(lines):
                    cont = self._CONTINUATION.match(lines[start + 1])
                    if not cont or cont.group("text").startswith("detected during"):
                        break
                    msg = f"{msg} ({cont.group('text').strip()})"
                    start += 1
                out.append(
                    ErrorLine(
                        message=msg,
                        location=f"{m.group('file').rsplit('/', 1)[-1]}:{m.group('line')}",
                        source_line=_cuda_keywords(_source_after(lines, start)),
                        code=m.group("code") or "",
                    )
                )
                continue
            m = self._PTXAS.match(line)
            if m:
                msg = m.group("msg").strip()
                if "aborted due to errors" not in msg:
                    out.append(ErrorLine(message=f"ptxas: {msg}"))
                continue
            m = self._DRIVER.match(line)
            if m:
                out.append(ErrorLine(message=f"nvcc: {m.group('msg').strip()}"))
        return out


class GccParser:
    """gcc/g++ errors (`file:12:5: error: ...`, fatal errors) and linker failures."""

    name = "gcc"
    _DIAG = re.compile(
        r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?:(?P<col>\d+):)? (?P<kind>fatal error|error): (?P<msg>.+)$"
    )
    _LINK = re.compile(
        r"(?P<msg>undefined reference to .+|undefined symbol: .+|ld returned \d+ exit status)"
    )

    def parse(self, log: str) -> list[ErrorLine]:
        lines = log.splitlines()
        out: list[ErrorLine] = []
        for i, line in enumerate(lines):
            m = self._DIAG.match(line)
            if m:
                file = m.group("file").rsplit("/", 1)[-1]
                out.append(
                    ErrorLine(
                        message=m.group("msg").strip(),
                        location=f"{file}:{m.group('line')}",
                        source_line=_source_after(lines, i),
                    )
                )
                continue
            m = self._LINK.search(line)
            if m and "collect2" not in line:
                out.append(ErrorLine(message=m.group("msg").strip()))
        return out


class TritonParser:
    """Triton `CompilationError: at L:C:` blocks: the message after the caret, and the line above it."""

    name = "triton"
    _HEAD = re.compile(r"(?P<type>[A-Za-z_][\w.]*): at (?P<line>\d+):(?P<col>\d+):\s*$")

    def parse(self, log: str) -> list[ErrorLine]:
        lines = log.splitlines()
        out: list[ErrorLine] = []
        for i, line in enumerate(lines):
            m = self._HEAD.search(line)
            if not m:
                continue
            caret = next(
                (j for j in range(i + 1, len(lines)) if re.fullmatch(r"\s*\^\s*", lines[j])), None
            )
            if caret is None:
                continue
            message_lines: list[str] = []
            for text in lines[caret + 1 :]:
                if not text.strip() or text.startswith("Traceback") or self._HEAD.search(text):
                    break
                message_lines.append(text.strip())
            kind = m.group("type").rsplit(".", 1)[-1]
            message = " ".join(message_lines) or kind
            out.append(
                ErrorLine(
                    message=message,
                    location=f"kernel line {m.group('line')}",
                    source_line=lines[caret - 1].strip() if caret > i + 1 else "",
                    code=kind,
                )
            )
        return out


class MlirParser:
    """MLIR diagnostics Triton's later passes print (`kernel.py:12:5: error: ...`): the message
    without the IR dump that often follows it, and the quoted kernel line."""

    name = "mlir"
    _DIAG = re.compile(
        r"^(?P<file>[^\s:][^:]*\.py):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.+)$"
    )
    _IR_DUMP = re.compile(r"(?:: |\s)(?:%\w+ = |\"\w+\.\w+\"\().*$")

    def parse(self, log: str) -> list[ErrorLine]:
        lines = log.splitlines()
        out: list[ErrorLine] = []
        for i, line in enumerate(lines):
            m = self._DIAG.match(line)
            if not m:
                continue
            message = self._IR_DUMP.sub("", m.group("msg")).strip()
            nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
            out.append(
                ErrorLine(
                    message=message,
                    location=f"kernel line {m.group('line')}",
                    source_line="" if nxt.startswith(("#", "^")) else nxt,
                )
            )
        return out


class PythonTracebackParser:
    """The exception line of a Python traceback, with the last frame's code line."""

    name = "python"
    _EXC = re.compile(
        r"^(?P<type>[A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning))(?:: ?(?P<msg>.*))?$"
    )
    _FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<fn>.+)$')

    def parse(self, log: str) -> list[ErrorLine]:
        lines = log.splitlines()
        out: list[ErrorLine] = []
        last_frame = ("", "")
        for i, line in enumerate(lines):
            f = self._FRAME.match(line)
            if f:
                code = lines[i + 1].strip() if i + 1 < len(lines) else ""
                where = f"{f.group('file').rsplit('/', 1)[-1]}:{f.group('line')}"
                last_frame = (where, code if not self._FRAME.match(code) else "")
                continue
            m = self._EXC.match(line)
            if m:
                text = (m.group("msg") or "").strip()
                if re.fullmatch(r"at \d+:\d+:", text):
                    continue  # a Triton CompilationError header: TritonParser reads it
                kind = m.group("type").rsplit(".", 1)[-1]
                message = f"{kind}: {text}" if text else kind
                out.append(
                    ErrorLine(
                        message=message,
                        location=last_frame[0],
                        source_line=last_frame[1],
                        code=m.group("type").rsplit(".", 1)[-1],
                    )
                )
        return out


PARSERS: dict[str, ErrorParser] = {
    p.name: p
    for p in (NvccParser(), GccParser(), TritonParser(), MlirParser(), PythonTracebackParser())
}


def parsers_for(backend: str) -> list[ErrorParser]:
    """The parsers for a backend's logs; every parser for an unknown backend name."""
    names = BACKEND_PARSERS.get(backend.lower(), tuple(PARSERS))
    return [PARSERS[n] for n in names]


def parse_errors(log: str, backend: str) -> list[ErrorLine]:
    """Distinct errors in log order (same message at the same place counted once)."""
    seen: set[tuple[str, str]] = set()
    found: list[tuple[int, ErrorLine]] = []
    for parser in parsers_for(backend):
        for error in parser.parse(log):
            key = (error.message, error.location)
            if key not in seen:
                seen.add(key)
                found.append((_position(log, error), error))
    found.sort(key=lambda pair: pair[0])
    return [e for _, e in found]


def _position(log: str, error: ErrorLine) -> int:
    pos = log.find(error.message.split(" (", 1)[0].removeprefix("ptxas: ").removeprefix("nvcc: "))
    return pos if pos >= 0 else len(log)
