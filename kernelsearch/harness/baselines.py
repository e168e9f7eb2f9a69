"""Baseline times (PyTorch eager and torch.compile), cached on disk per what they depend on."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kernelsearch.result import TimingStats


@dataclass(frozen=True)
class Baselines:
    task: str
    eager: TimingStats | None
    compile: TimingStats | None
    device_name: str
    compile_error: str = ""
    cached: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "task": self.task,
            "eager": self.eager.to_dict() if self.eager else None,
            "compile": self.compile.to_dict() if self.compile else None,
            "device_name": self.device_name,
            "compile_error": self.compile_error,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any], cached: bool = False) -> Baselines:
        return cls(
            task=d["task"],
            eager=TimingStats.from_dict(d["eager"]) if d.get("eager") else None,
            compile=TimingStats.from_dict(d["compile"]) if d.get("compile") else None,
            device_name=d.get("device_name", ""),
            compile_error=d.get("compile_error", ""),
            cached=cached,
        )


def cache_key(**parts: Any) -> str:
    """Key over (task hash incl. size overrides, backend, device, threads, torch version, ...)."""
    blob = json.dumps(parts, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:24]


class BaselineCache:
    def __init__(self, root: Path):
        self.root = Path(root)

    def get(self, key: str) -> Baselines | None:
        path = self.root / f"{key}.json"
        if not path.is_file():
            return None
        try:
            found = Baselines.from_dict(json.loads(path.read_text()), cached=True)
        except (json.JSONDecodeError, KeyError, TypeError):
            return None
        timings = [t for t in (found.eager, found.compile) if t is not None]
        if any(t.iqr is None for t in timings):  # measured before the robust spread existed
            return None
        return found

    def put(self, key: str, value: Baselines) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        tmp = self.root / f".{key}.{os.getpid()}.tmp"
        tmp.write_text(json.dumps(value.to_dict(), indent=1))
        os.replace(tmp, self.root / f"{key}.json")
