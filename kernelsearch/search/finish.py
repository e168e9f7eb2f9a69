"""After the search: re-time the top kernels, score the best prompt on a held-out test set,
and write the run directory's files (drop-in kernels, frontier prompts, summary.json).

The best of many noisy timings is biased upward, so the figures reported for a task come from
re-timing its top few accepted kernels in fresh processes, interleaved with both baselines
(the executor's `retime`).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from kernelsearch.result import EvalResult
from kernelsearch.search.recorder import CostCapReached
from kernelsearch.search.state import RETIME_ITERATION, TEST_ITERATION
from kernelsearch.search.summary import RunSummary, TaskBest
from kernelsearch.search.trials import TrialRunner
from kernelsearch.store import EvaluationRecord, RunStore
from kernelsearch.tasks import Task

log = logging.getLogger(__name__)

KERNELS_DIR = "kernels"
PROMPTS_DIR = "prompts"
SUMMARY_FILE = "summary.json"
_SAFE_NAME = re.compile(r"[^A-Za-z0-9_.-]+")


def top_accepted(store: RunStore, task: str, k: int) -> list[EvaluationRecord]:
    """The `k` best accepted search evaluations of `task` with distinct kernel sources."""
    seen: set[str] = set()
    out: list[EvaluationRecord] = []
    for ev in sorted(
        store.evaluations(task=task, accepted_only=True), key=lambda e: (-e.score, e.id)
    ):
        if ev.purpose in ("retime", "test") or ev.source_hash in seen:
            continue
        seen.add(ev.source_hash)
        out.append(ev)
        if len(out) == k:
            break
    return out


def final_evaluation(
    search: Sequence[EvaluationRecord], retimes: Sequence[EvaluationRecord]
) -> EvaluationRecord | None:
    """The one rule for a task's final kernel, used by summary.json, kernels/ and reports.

    The best accepted re-time if any; else the best accepted search evaluation whose kernel
    was not re-timed and found wanting; ties go to the earliest evaluation. None when no
    kernel of the task was ever accepted.
    """
    confirmed = [e for e in retimes if e.result.accepted]
    if confirmed:
        return max(confirmed, key=_rank)
    failed_retime = {e.source_hash for e in retimes}
    accepted = [e for e in search if e.result.accepted and e.source_hash not in failed_retime]
    return max(accepted, key=_rank) if accepted else None


def _rank(e: EvaluationRecord) -> tuple[float, int]:
    return (e.score, -e.id)


async def retime_task(
    runner: TrialRunner, store: RunStore, task: Task, k: int, trials: int
) -> TaskBest:
    """Re-time the task's top `k` accepted kernels; the best re-timed one is the task's result."""
    for ev in top_accepted(store, task.name, k):
        await runner.evaluate_source(
            candidate_id=ev.candidate_id,
            task=task,
            source=ev.source,
            purpose="retime",
            iteration=RETIME_ITERATION,
            llm_call_id=ev.llm_call_id,
            retime_trials=trials,
        )
    # The re-times are in the store now: the one selection rule picks the task's result.
    return task_best_searched(store, task.name)


def task_best(
    name: str,
    result: EvalResult,
    score: float,
    candidate_id: int | None,
    evaluation_id: int | None,
    *,
    retimed: bool,
) -> TaskBest:
    return TaskBest(
        task=name,
        accepted=result.accepted,
        stage=result.stage.value,
        score=score,
        candidate_id=candidate_id,
        evaluation_id=evaluation_id,
        speedup_eager=result.speedup_eager,
        speedup_compile=result.speedup_compile,
        runtime_ms=result.runtime_ms,
        retimed=retimed,
        kernel_file=None,
    )


async def evaluate_testset(
    runner: TrialRunner, components: Mapping[str, str], candidate_id: int, tasks: Sequence[Task]
) -> list[TaskBest]:
    """Score the best prompt once on held-out tasks (no per-task memory: they are unseen)."""
    out: list[TaskBest] = []
    for task in tasks:
        try:
            trial = await runner.run(
                candidate_id=candidate_id,
                components=components,
                task=task,
                memory=None,
                purpose="test",
                iteration=TEST_ITERATION,
            )
        except CostCapReached:
            log.warning("cost cap reached: test task %s not evaluated", task.name)
            break
        out.append(
            task_best(
                task.name,
                trial.result,
                trial.scored.score,
                candidate_id,
                trial.evaluation_id,
                retimed=False,
            )
        )
    return out


def safe_name(name: str) -> str:
    return _SAFE_NAME.sub("_", name).strip("._") or "task"


def write_kernels(run_dir: Path, store: RunStore, bests: Sequence[TaskBest]) -> list[TaskBest]:
    """`kernels/<task>.py` for every task with an accepted kernel (a drop-in ModelNew module)."""
    out: list[TaskBest] = []
    folder = run_dir / KERNELS_DIR
    for b in bests:
        if not b.accepted or b.evaluation_id is None:
            out.append(b)
            continue
        (ev,) = [e for e in store.evaluations(task=b.task) if e.id == b.evaluation_id]
        folder.mkdir(parents=True, exist_ok=True)
        rel = f"{KERNELS_DIR}/{safe_name(b.task)}.py"
        header = f"# kernelsearch: best kernel for {b.task} (candidate {b.candidate_id}"
        if b.speedup_eager is not None:
            header += f", {b.speedup_eager:.2f}x vs eager"
        if b.speedup_compile is not None:
            header += f", {b.speedup_compile:.2f}x vs torch.compile"
        header += ", re-timed)\n" if b.retimed else ", search timing)\n"
        (run_dir / rel).write_text(header + ev.source)
        out.append(TaskBest(**{**b.to_dict(), "kernel_file": rel}))
    return out


def write_prompts(
    run_dir: Path, candidates: Mapping[int, Mapping[str, str]], frontier: Sequence[int], best: int
) -> dict[str, str]:
    folder = run_dir / PROMPTS_DIR
    folder.mkdir(parents=True, exist_ok=True)
    files: dict[str, str] = {}
    for cid in sorted(set(frontier) | {best}):
        text = "\n\n".join(
            f"<!-- component: {name} -->\n{body.strip()}\n"
            for name, body in candidates[cid].items()
        )
        rel = f"{PROMPTS_DIR}/candidate_{cid}.md"
        (run_dir / rel).write_text(text)
        files[f"prompt_{cid}"] = rel
    (folder / "best.md").write_text((run_dir / files[f"prompt_{best}"]).read_text())
    files["best_prompt"] = f"{PROMPTS_DIR}/best.md"
    return files


def write_summary(run_dir: Path, summary: RunSummary) -> None:
    tmp = run_dir / (SUMMARY_FILE + ".tmp")
    tmp.write_text(json.dumps(summary.to_dict(), indent=2))
    tmp.replace(run_dir / SUMMARY_FILE)


def task_best_searched(store: RunStore, name: str) -> TaskBest:
    """The task's final kernel by `final_evaluation` from what the store holds (used when
    a run stops before re-timing, and when no re-time was accepted)."""
    evs = store.evaluations(task=name)
    search = [e for e in evs if e.purpose not in ("retime", "test")]
    retimes = [e for e in evs if e.purpose == "retime"]
    chosen = final_evaluation(search, retimes)
    if chosen is None and search:
        chosen = max(search, key=_rank)  # shown with its stage; never exported (not accepted)
    if chosen is None:
        return TaskBest(
            name, False, "not_evaluated", 0.0, None, None, None, None, None, False, None
        )
    return task_best(
        name,
        chosen.result,
        chosen.score,
        chosen.candidate_id,
        chosen.id,
        retimed=chosen.purpose == "retime",
    )
