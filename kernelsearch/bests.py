"""The best kernel of each task, read from a run's evaluation records: one rule and one record
(`TaskBest`), shared by the search's run directory (`summary.json`, `kernels/`) and every report
and export, so that they always name the same kernel with the same figures.

Which kernel a task shows (`final_evaluation`):
- The run re-times the top accepted kernels of each task at the end (purpose `retime`): when a
  task has an accepted re-time, its best one is shown, with the re-timed figures.
- Otherwise the task's best accepted search evaluation is shown with the search's figures,
  unless a re-time of that same kernel came back not accepted (a kernel that failed its
  re-check is not shown as best).
- "Best" is the search's score (objective and baseline of the run), the earliest on a tie.
- A task with no accepted kernel shows the stage and error of its best-scored attempt (the one
  that got furthest), with no timing figures.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from kernelsearch.errors import ConfigError
from kernelsearch.result import EvalResult, Flag, Severity
from kernelsearch.store import EvaluationRecord
from kernelsearch.tasks import TASK_NAME

RETIME_PURPOSE = "retime"  # the end-of-run re-timing of a task's top accepted kernels
TEST_PURPOSE = "test"  # a held-out test evaluation of the best prompt
NOT_SEARCH = (RETIME_PURPOSE, TEST_PURPOSE)  # purposes that do not spend the search budget

FIGURES_RETIME = "retime"  # re-timed at the end of the run, interleaved with both baselines
FIGURES_SEARCH = "search"  # the search's own measurement (no re-time for this task)
FIGURES_TEST = "test"  # a held-out test evaluation (test tasks are not re-timed)
FIGURES_NONE = "none"  # no accepted kernel

MAX_ERROR_CHARS = 300  # error text kept per task
NOT_EVALUATED = "not_evaluated"  # the stage of a task without any evaluation


@dataclass(frozen=True)
class TaskBest:
    """The kernel shown for one task: its best accepted kernel, or (when there is none) the
    stage and error of the attempt that got furthest, with no timing figures."""

    task: str
    accepted: bool
    figures: str  # FIGURES_RETIME, FIGURES_SEARCH, FIGURES_TEST or FIGURES_NONE
    stage: str
    evaluation_id: int | None = None
    candidate_id: int | None = None  # the prompt that wrote the kernel
    source_hash: str = ""
    score: float | None = None
    runtime_ms: float | None = None
    eager_ms: float | None = None
    compile_ms: float | None = None
    speedup_eager: float | None = None
    speedup_compile: float | None = None
    timing_method: str = ""
    device: str = ""
    flags: tuple[Flag, ...] = ()
    error: str = ""
    attempts: int = 0  # evaluations of this task (search, or test for a test task)
    kernel_file: str | None = None  # the run directory's drop-in copy, once written

    def speedup(self, baseline: str) -> float | None:
        return self.speedup_eager if baseline == "eager" else self.speedup_compile

    def to_dict(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["flags"] = [f.to_dict() for f in self.flags]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TaskBest:
        d = dict(d)
        d["flags"] = tuple(Flag.from_dict(f) for f in d.get("flags") or ())
        return cls(**d)


def rank(e: EvaluationRecord) -> tuple[float, int]:
    """Sort key of "best": the higher score, then the earlier evaluation."""
    return (e.score, -e.id)


def final_evaluation(
    search: Sequence[EvaluationRecord], retimes: Sequence[EvaluationRecord]
) -> EvaluationRecord | None:
    """The one rule for a task's final kernel (module doc); None when no kernel of the task
    was ever accepted."""
    confirmed = [e for e in retimes if e.result.accepted]
    if confirmed:
        return max(confirmed, key=rank)
    failed_retime = {e.source_hash for e in retimes}
    accepted = [e for e in search if e.result.accepted and e.source_hash not in failed_retime]
    return max(accepted, key=rank) if accepted else None


def top_accepted(search: Iterable[EvaluationRecord], k: int) -> list[EvaluationRecord]:
    """The `k` best accepted search evaluations with distinct kernel sources (re-time these)."""
    seen: set[str] = set()
    out: list[EvaluationRecord] = []
    for e in sorted(search, key=rank, reverse=True):
        if not e.result.accepted or e.purpose in NOT_SEARCH or e.source_hash in seen:
            continue
        seen.add(e.source_hash)
        out.append(e)
        if len(out) == k:
            break
    return out


def task_best(
    task: str,
    search: Sequence[EvaluationRecord],
    retimes: Sequence[EvaluationRecord],
    figures: str = FIGURES_SEARCH,
) -> tuple[TaskBest, EvalResult | None]:
    """`task`'s shown kernel from its search (or test) evaluations and re-times, and the
    accepted result it shows (None without one). `figures` names where un-retimed figures come
    from: FIGURES_SEARCH, or FIGURES_TEST for held-out test evaluations."""
    chosen = final_evaluation(search, retimes)
    if chosen is None:
        return _not_accepted(task, search), None
    r = chosen.result
    writer = chosen.candidate_id
    if writer is None:  # re-times may not name the prompt; the first evaluation of it does
        writer = next((e.candidate_id for e in search if e.source_hash == chosen.source_hash), None)
    best = TaskBest(
        task=task,
        accepted=True,
        figures=FIGURES_RETIME if chosen.purpose == RETIME_PURPOSE else figures,
        stage=chosen.stage,
        evaluation_id=chosen.id,
        candidate_id=writer,
        source_hash=chosen.source_hash,
        score=chosen.score,
        runtime_ms=r.runtime_ms,
        eager_ms=r.baseline_eager_ms,
        compile_ms=r.baseline_compile_ms,
        speedup_eager=r.speedup_eager,
        speedup_compile=r.speedup_compile,
        timing_method=r.runtime.method if r.runtime else "",
        device=r.device,
        flags=tuple(r.flags),
        attempts=len(search),
    )
    return best, r


def task_bests(
    tasks: Sequence[str], evaluations: Iterable[EvaluationRecord], *, test: bool = False
) -> list[tuple[TaskBest, EvalResult | None]]:
    """`task_best` of each of `tasks` (in order) from a run's evaluation records: search
    evaluations and re-times, or (`test`) the held-out test evaluations."""
    mine: dict[str, list[EvaluationRecord]] = defaultdict(list)
    retimes: dict[str, list[EvaluationRecord]] = defaultdict(list)
    for e in evaluations:
        if test:
            if e.purpose == TEST_PURPOSE:
                mine[e.task].append(e)
        elif e.purpose == RETIME_PURPOSE:
            retimes[e.task].append(e)
        elif e.purpose not in NOT_SEARCH:
            mine[e.task].append(e)
    figures = FIGURES_TEST if test else FIGURES_SEARCH
    return [task_best(t, mine.get(t, []), retimes.get(t, []), figures) for t in tasks]


def _not_accepted(task: str, attempts: Sequence[EvaluationRecord]) -> TaskBest:
    if not attempts:
        return TaskBest(
            task, False, FIGURES_NONE, NOT_EVALUATED, error="no evaluation of this task"
        )
    furthest = max(attempts, key=rank)
    return TaskBest(
        task=task,
        accepted=False,
        figures=FIGURES_NONE,
        stage=furthest.stage,
        evaluation_id=furthest.id,
        candidate_id=furthest.candidate_id,
        error=_why_not(furthest.result),
        attempts=len(attempts),
    )


def _why_not(result: EvalResult) -> str:
    errors = [f"{f.name}: {f.reason}" for f in result.flags if f.severity is Severity.ERROR]
    text = result.error or "; ".join(errors)
    if not text and result.mismatch is not None:
        text = result.mismatch.reason
    text = " ".join(text.split())
    return text[:MAX_ERROR_CHARS] + ("..." if len(text) > MAX_ERROR_CHARS else "")


def kernel_filename(task: str) -> str:
    """`<task>.py`: the file of a task's kernel in a run's `kernels/` and in an export."""
    if not TASK_NAME.fullmatch(task):  # tasks.load_task refuses such names; old stores may not
        raise ConfigError(
            f"task name {task!r} cannot be a file name; give the task a name of letters, digits, "
            "'_', '-' and '.' (its file stem, or `name` in the manifest)"
        )
    return f"{task}.py"
