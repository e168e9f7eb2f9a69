"""Evaluation results: the one shape every stage, store, report and export reads.

`EvalResult.accepted` is the single predicate for "this kernel counts": correct and no
error-severity flag. Nothing else in kernelsearch decides acceptance.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class Stage(str, Enum):
    """How far an evaluation got. Ordered roughly from earliest failure to success."""

    NO_CODE = "no_code"
    STATIC_FAILED = "static_failed"
    REJECTED = "rejected"
    COMPILE_FAILED = "compile_failed"
    COMPILED = "compiled"  # built (not linked/run): the most this machine can do for the backend
    RUNTIME_ERROR = "runtime_error"
    TIMEOUT = "timeout"
    CRASHED = "crashed"
    INCORRECT = "incorrect"
    CORRECT = "correct"


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True)
class Flag:
    """A guard's verdict: `error` rejects the kernel, `warning` is recorded and shown."""

    name: str
    severity: Severity
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "severity": self.severity.value, "reason": self.reason}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Flag:
        return cls(name=d["name"], severity=Severity(d["severity"]), reason=d["reason"])


@dataclass(frozen=True)
class TimingStats:
    """Wall or event timings in milliseconds, with the method that produced them."""

    mean: float
    median: float
    std: float
    min: float
    max: float
    trials: int
    method: str  # e.g. "cpu_perf_counter", "cuda_event_l2_flush"
    # Interquartile range: the spread one slow outlier (a preempted trial) cannot inflate.
    # None in results recorded before it existed.
    iqr: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TimingStats:
        return cls(**d)


@dataclass(frozen=True)
class Mismatch:
    """Correctness figures of the worst (or first failing) trial."""

    trial: int = -1
    distribution: str = "uniform[0,1)"
    max_abs_diff: float = 0.0
    mean_abs_diff: float = 0.0
    bad_fraction: float = 0.0
    first_bad_index: list[int] | None = None
    has_nan: bool = False
    has_inf: bool = False
    shape_expected: list[int] | None = None
    shape_got: list[int] | None = None
    dtype_expected: str | None = None
    dtype_got: str | None = None
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Mismatch:
        return cls(**d)


@dataclass(frozen=True)
class EvalResult:
    task: str
    backend: str
    device: str
    stage: Stage
    correct: bool = False
    error: str = ""
    compile_log: str = ""
    trials_passed: int = 0
    trials_run: int = 0
    mismatch: Mismatch | None = None
    runtime: TimingStats | None = None
    baseline_eager: TimingStats | None = None
    baseline_compile: TimingStats | None = None
    interpreted: bool = False
    resources: dict[str, Any] = field(default_factory=dict)
    flags: tuple[Flag, ...] = ()
    stdout: str = ""
    wall_s: float = 0.0
    source_hash: str = ""
    flops: float | None = None  # work of one forward, counted on the meta device
    bytes_moved: float | None = None  # minimum bytes one forward must read + write

    # ---- the one acceptance predicate -------------------------------------------------
    @property
    def accepted(self) -> bool:
        return (
            self.stage is Stage.CORRECT
            and self.correct
            and not any(f.severity is Severity.ERROR for f in self.flags)
        )

    @property
    def runtime_ms(self) -> float | None:
        return self.runtime.median if self.runtime else None

    @property
    def baseline_eager_ms(self) -> float | None:
        return self.baseline_eager.median if self.baseline_eager else None

    @property
    def baseline_compile_ms(self) -> float | None:
        return self.baseline_compile.median if self.baseline_compile else None

    @property
    def speedup_eager(self) -> float | None:
        return _speedup(self.baseline_eager_ms, self.runtime_ms)

    @property
    def speedup_compile(self) -> float | None:
        return _speedup(self.baseline_compile_ms, self.runtime_ms)

    def with_(self, **changes: Any) -> EvalResult:
        return dataclasses.replace(self, **changes)

    def add_flags(self, *flags: Flag) -> EvalResult:
        return dataclasses.replace(self, flags=tuple(self.flags) + tuple(flags))

    # ---- serialisation ----------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "task": self.task,
            "backend": self.backend,
            "device": self.device,
            "stage": self.stage.value,
            "correct": self.correct,
            "accepted": self.accepted,
            "error": self.error,
            "compile_log": self.compile_log,
            "trials_passed": self.trials_passed,
            "trials_run": self.trials_run,
            "mismatch": self.mismatch.to_dict() if self.mismatch else None,
            "runtime_ms": self.runtime.to_dict() if self.runtime else None,
            "baseline_eager_ms": self.baseline_eager.to_dict() if self.baseline_eager else None,
            "baseline_compile_ms": self.baseline_compile.to_dict()
            if self.baseline_compile
            else None,
            "speedup_eager": self.speedup_eager,
            "speedup_compile": self.speedup_compile,
            "interpreted": self.interpreted,
            "resources": dict(self.resources),
            "flags": [f.to_dict() for f in self.flags],
            "stdout": self.stdout,
            "wall_s": self.wall_s,
            "source_hash": self.source_hash,
            "flops": self.flops,
            "bytes_moved": self.bytes_moved,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> EvalResult:
        def stats(key: str) -> TimingStats | None:
            return TimingStats.from_dict(d[key]) if d.get(key) else None

        return cls(
            task=d["task"],
            backend=d["backend"],
            device=d["device"],
            stage=Stage(d["stage"]),
            correct=bool(d.get("correct", False)),
            error=d.get("error", ""),
            compile_log=d.get("compile_log", ""),
            trials_passed=d.get("trials_passed", 0),
            trials_run=d.get("trials_run", 0),
            mismatch=Mismatch.from_dict(d["mismatch"]) if d.get("mismatch") else None,
            runtime=stats("runtime_ms"),
            baseline_eager=stats("baseline_eager_ms"),
            baseline_compile=stats("baseline_compile_ms"),
            interpreted=bool(d.get("interpreted", False)),
            resources=dict(d.get("resources") or {}),
            flags=tuple(Flag.from_dict(f) for f in d.get("flags") or ()),
            stdout=d.get("stdout", ""),
            wall_s=float(d.get("wall_s", 0.0)),
            source_hash=d.get("source_hash", ""),
            flops=d.get("flops"),
            bytes_moved=d.get("bytes_moved"),
        )

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)


def _speedup(baseline_ms: float | None, kernel_ms: float | None) -> float | None:
    if baseline_ms is None or kernel_ms is None or kernel_ms <= 0:
        return None
    return baseline_ms / kernel_ms


def source_hash(source: str) -> str:
    """Short content hash of a kernel source: `EvalResult.source_hash`, archive and replay keys."""
    return hashlib.sha256(source.encode()).hexdigest()[:16]
