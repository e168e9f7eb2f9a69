"""Configuration objects: every default lives here, once. The CLI fills these; the API takes them."""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kernelsearch.errors import ConfigError

# Correctness tolerances, following current KernelBench: strict fp32, looser for half types.
DEFAULT_TOLERANCE = {"float32": 1e-4, "float16": 1e-2, "bfloat16": 1e-2, "float64": 1e-6}


def default_cache_dir() -> Path:
    """Build cache, baseline cache and docs index live here (KERNELSEARCH_CACHE overrides)."""
    env = os.environ.get("KERNELSEARCH_CACHE")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "kernelsearch"


@dataclass(frozen=True)
class EvalConfig:
    """How one kernel is built, checked and timed."""

    backend: str = "cpu"
    arch: str | None = None  # None: the local GPU's arch, else sm_90a
    correctness_trials: int = 5
    warmup: int = 3
    timing_trials: int = 20  # CPU default; GPU paths use gpu_timing_trials
    gpu_timing_trials: int = 100
    atol: float | None = None  # None: by output dtype (DEFAULT_TOLERANCE)
    rtol: float | None = None
    threads: int | None = None  # torch intra-op threads for cpu timing (None: all cores)
    compile_timeout_s: float = 300.0
    run_timeout_s: float = 120.0
    memory_limit_mb: int = 8192
    cache_dir: Path = field(default_factory=default_cache_dir)
    baselines: bool = True  # time eager + torch.compile alongside the kernel
    allow_torch_ops: bool = False  # guard policy: strict unless opted in
    suspicious_speedup: float = 10.0  # over eager: re-verified in a fresh process first
    perturb_sizes: bool = True  # extra trial at perturbed size constants (hard-coded shapes)
    seed: int = 42

    def __post_init__(self) -> None:
        if self.correctness_trials < 1:
            raise ConfigError(f"--trials must be >= 1, got {self.correctness_trials}")
        if self.timing_trials < 1 or self.gpu_timing_trials < 1:
            raise ConfigError("timing trials must be >= 1")
        if self.compile_timeout_s <= 0 or self.run_timeout_s <= 0:
            raise ConfigError("timeouts must be positive")

    def replace(self, **changes: Any) -> EvalConfig:
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["cache_dir"] = str(self.cache_dir)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> EvalConfig:
        d = dict(d)
        if "cache_dir" in d:
            d["cache_dir"] = Path(d["cache_dir"])
        known = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in known})
