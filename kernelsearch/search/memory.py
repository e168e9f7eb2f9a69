"""Per-task memory: the best accepted kernel so far for each task, and its feedback.

Every evaluation is offered (parent re-runs, rejected children, minibatch and full runs), so a
record kernel is kept wherever it appears. The generation prompt shows the entry for its task;
an iteration takes one `snapshot()` and uses it for both the parent's and the child's runs.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from kernelsearch.search.score import Scored


@dataclass(frozen=True)
class MemoryEntry:
    task: str
    source: str
    feedback: str
    score: float
    speedup: float | None
    evaluation_id: int

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> MemoryEntry:
        return cls(**d)


class TaskArchive:
    """Best accepted evaluation per task (strictly higher score replaces)."""

    def __init__(self, entries: dict[str, MemoryEntry] | None = None) -> None:
        self.best: dict[str, MemoryEntry] = dict(entries or {})

    def offer(
        self,
        task: str,
        *,
        source: str,
        feedback: str,
        scored: Scored,
        accepted: bool,
        speedup: float | None,
        evaluation_id: int,
    ) -> bool:
        """Keep this kernel if it is accepted and beats the task's best; True if kept."""
        if not accepted:
            return False
        current = self.best.get(task)
        if current is not None and scored.score <= current.score:
            return False
        self.best[task] = MemoryEntry(task, source, feedback, scored.score, speedup, evaluation_id)
        return True

    def snapshot(self, tasks: Iterable[str]) -> dict[str, MemoryEntry | None]:
        return {t: self.best.get(t) for t in tasks}

    def to_dict(self) -> dict[str, Any]:
        return {t: e.to_dict() for t, e in self.best.items()}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TaskArchive:
        return cls({t: MemoryEntry.from_dict(e) for t, e in d.items()})
