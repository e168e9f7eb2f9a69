"""The engine's state: everything `--resume` needs, serialised to the run store's checkpoint."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from kernelsearch.search.memory import TaskArchive
from kernelsearch.search.score import Scored

SEED_ITERATION = 0
RETIME_ITERATION = -2
TEST_ITERATION = -1
STATE_VERSION = 1


@dataclass
class PoolCandidate:
    """A candidate in the pool: its components, lineage and full-evaluation scores."""

    id: int
    components: dict[str, str]
    parents: tuple[int, ...]
    origin: str
    iteration: int
    discovery_evals: int
    scores: dict[str, Scored] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "components": self.components,
            "parents": list(self.parents),
            "origin": self.origin,
            "iteration": self.iteration,
            "discovery_evals": self.discovery_evals,
            "scores": {t: [s.score, s.margin] for t, s in self.scores.items()},
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> PoolCandidate:
        return cls(
            id=d["id"],
            components=dict(d["components"]),
            parents=tuple(d["parents"]),
            origin=d["origin"],
            iteration=d["iteration"],
            discovery_evals=d["discovery_evals"],
            scores={t: Scored(v[0], v[1]) for t, v in d["scores"].items()},
        )


@dataclass
class EngineState:
    pool: dict[int, PoolCandidate] = field(default_factory=dict)
    next_candidate_id: int = 0
    next_iteration: int = 1
    completed: set[int] = field(default_factory=set)
    seed_done: bool = False
    loop_done: bool = False
    rng: random.Random = field(default_factory=random.Random)
    sampler: dict[str, Any] = field(default_factory=dict)
    round_robin: dict[int, int] = field(default_factory=dict)
    merges_done: int = 0
    merges_due: int = 0
    merged_pairs: set[tuple[int, int]] = field(default_factory=set)
    archive: TaskArchive = field(default_factory=TaskArchive)
    used_evals: int = 0
    elapsed_s: float = 0.0
    consecutive_failures: int = 0

    def allocate_candidate(self) -> int:
        cid = self.next_candidate_id
        self.next_candidate_id += 1
        return cid

    def to_dict(self) -> dict[str, Any]:
        version, internal, gauss = self.rng.getstate()
        return {
            "version": STATE_VERSION,
            "pool": [c.to_dict() for c in self.pool.values()],
            "next_candidate_id": self.next_candidate_id,
            "next_iteration": self.next_iteration,
            "completed": sorted(self.completed),
            "seed_done": self.seed_done,
            "loop_done": self.loop_done,
            "rng": [version, list(internal), gauss],
            "sampler": self.sampler,
            "round_robin": {str(k): v for k, v in self.round_robin.items()},
            "merges_done": self.merges_done,
            "merges_due": self.merges_due,
            "merged_pairs": sorted([list(p) for p in self.merged_pairs]),
            "archive": self.archive.to_dict(),
            "used_evals": self.used_evals,
            "elapsed_s": self.elapsed_s,
            "consecutive_failures": self.consecutive_failures,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> EngineState:
        rng = random.Random()
        version, internal, gauss = d["rng"]
        rng.setstate((version, tuple(internal), gauss))
        return cls(
            pool={c["id"]: PoolCandidate.from_dict(c) for c in d["pool"]},
            next_candidate_id=d["next_candidate_id"],
            next_iteration=d["next_iteration"],
            completed=set(d["completed"]),
            seed_done=d["seed_done"],
            loop_done=d["loop_done"],
            rng=rng,
            sampler=d["sampler"],
            round_robin={int(k): v for k, v in d["round_robin"].items()},
            merges_done=d["merges_done"],
            merges_due=d["merges_due"],
            merged_pairs={(a, b) for a, b in d["merged_pairs"]},
            archive=TaskArchive.from_dict(d["archive"]),
            used_evals=d["used_evals"],
            elapsed_s=d["elapsed_s"],
            consecutive_failures=d.get("consecutive_failures", 0),
        )
