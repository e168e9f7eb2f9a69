"""Per-kernel GPU resource usage from compiler output: registers, shared memory, spills.

Two sources, one shape:
- `ptxas -v` (what `nvcc -Xptxas -v` prints while compiling CUDA sources);
- `cuobjdump --dump-resource-usage` of a finished cubin / object / shared library (Triton's
  compiled kernels, and CUDA extensions built by `load_inline`).

`summarize` folds the kernels into the flat `EvalResult.resources` dict: the worst kernel's
registers and shared memory (what limits occupancy), total spill bytes, and every kernel's
own figures under `kernels`.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import asdict, dataclass
from typing import Any

DEMANGLE_TIMEOUT_S = 30.0

_ENTRY = re.compile(r"Compiling entry function '([^']+)' for '([^']+)'")
_PROPS = re.compile(
    r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", re.IGNORECASE
)
_USED = re.compile(r"Used (\d+) registers")
_SMEM = re.compile(r"(\d+) bytes smem")
_CMEM = re.compile(r"(\d+) bytes cmem\[0\]")
_CUOBJ_FUNC = re.compile(r"^\s*Function ([^:\s]+):\s*$")
_CUOBJ_FIELD = re.compile(r"([A-Z]+)(?:\[\d+\])?:(\d+)")


@dataclass(frozen=True)
class KernelResources:
    name: str
    registers: int = 0  # per thread
    shared_mem_bytes: int = 0  # per block (static; Triton adds what it requests at launch)
    stack_bytes: int = 0  # per-thread local memory: spill slots and local arrays
    spill_stores_bytes: int | None = 0  # per thread; None when the source does not say
    spill_loads_bytes: int | None = 0
    constant_bytes: int = 0
    arch: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def parse_ptxas_verbose(text: str) -> list[KernelResources]:
    """Kernels described in `ptxas -v` output (entry functions only, in order)."""
    kernels: list[KernelResources] = []
    current: dict[str, Any] | None = None

    def flush() -> None:
        if current is not None:
            kernels.append(KernelResources(**current))

    for line in text.splitlines():
        if m := _ENTRY.search(line):
            flush()
            current = {"name": m.group(1), "arch": m.group(2)}
            continue
        if current is None:
            continue
        if m := _PROPS.search(line):
            stack, stores, loads = (int(g) for g in m.groups())
            current.update(stack_bytes=stack, spill_stores_bytes=stores, spill_loads_bytes=loads)
        elif m := _USED.search(line):
            current["registers"] = int(m.group(1))
            if s := _SMEM.search(line):
                current["shared_mem_bytes"] = int(s.group(1))
            if c := _CMEM.search(line):
                current["constant_bytes"] = int(c.group(1))
    flush()
    return kernels


def parse_cuobjdump(text: str) -> list[KernelResources]:
    """Kernels in `cuobjdump --dump-resource-usage` output."""
    kernels: list[KernelResources] = []
    name: str | None = None
    for line in text.splitlines():
        if m := _CUOBJ_FUNC.match(line):
            name = m.group(1)
            continue
        if name is None or "REG:" not in line:
            continue
        fields = {k: int(v) for k, v in _CUOBJ_FIELD.findall(line)}
        stack = fields.get("STACK", 0) + fields.get("LOCAL", 0)
        kernels.append(
            KernelResources(
                name=name,
                registers=fields.get("REG", 0),
                shared_mem_bytes=fields.get("SHARED", 0),
                stack_bytes=stack,
                # A cubin does not say which local bytes are spills: none when there are none.
                spill_stores_bytes=0 if stack == 0 else None,
                spill_loads_bytes=0 if stack == 0 else None,
                constant_bytes=fields.get("CONSTANT", 0),
            )
        )
        name = None
    return kernels


def demangle(names: list[str]) -> dict[str, str]:
    """Mangled C++ names -> readable ones (identity when no c++filt is installed)."""
    tool = shutil.which("cu++filt") or shutil.which("c++filt")
    if not tool or not names:
        return {n: n for n in names}
    try:
        out = subprocess.run(
            [tool],
            input="\n".join(names),
            capture_output=True,
            text=True,
            timeout=DEMANGLE_TIMEOUT_S,
        ).stdout.splitlines()
    except (OSError, subprocess.TimeoutExpired):
        return {n: n for n in names}
    if len(out) != len(names):
        return {n: n for n in names}
    return dict(zip(names, out))


def summarize(kernels: list[KernelResources], source: str) -> dict[str, Any]:
    """Flat resources for EvalResult: occupancy-limiting maxima plus every kernel's figures."""
    if not kernels:
        return {"resource_source": source, "kernels": []}
    readable = demangle([k.name for k in kernels])
    return {
        "resource_source": source,
        "registers": max(k.registers for k in kernels),
        "shared_mem_bytes": max(k.shared_mem_bytes for k in kernels),
        "stack_bytes": max(k.stack_bytes for k in kernels),
        "spill_stores": _total(k.spill_stores_bytes for k in kernels),
        "spill_loads": _total(k.spill_loads_bytes for k in kernels),
        "kernels": [{**k.to_dict(), "name": readable.get(k.name, k.name)} for k in kernels],
    }


def _total(values: Any) -> int | None:
    """Sum of per-kernel bytes; None when any kernel's figure is unknown."""
    values = list(values)
    return None if any(v is None for v in values) else sum(values)
