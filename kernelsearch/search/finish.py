"""After the search: re-time the top kernels, score the best prompt on a held-out test set,
and write the run directory's files (drop-in kernels, frontier prompts, summary.json).

The best of many noisy timings is biased upward, so the figures reported for a task come from
re-timing its top few accepted kernels in fresh processes, interleaved with both baselines
(the executor's `retime`). Which kernel is a task's result, and the record of it, is
`kernelsearch.bests` (the same rule and record every report uses).
"""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Mapping, Sequence
from pathlib import Path

from kernelsearch.bests import (
    FIGURES_RETIME,
    RETIME_PURPOSE,
    TEST_PURPOSE,
    TaskBest,
    kernel_filename,
    task_bests,
    top_accepted,
)
from kernelsearch.search.recorder import CostCapReached
from kernelsearch.search.state import RETIME_ITERATION, TEST_ITERATION
from kernelsearch.search.summary import RunSummary
from kernelsearch.search.trials import TrialRunner
from kernelsearch.store import RunStore
from kernelsearch.tasks import Task

log = logging.getLogger(__name__)

KERNELS_DIR = "kernels"
PROMPTS_DIR = "prompts"
SUMMARY_FILE = "summary.json"


async def retime_task(
    runner: TrialRunner, store: RunStore, task: Task, k: int, trials: int
) -> None:
    """Re-time the task's top `k` accepted kernels (the store then holds the re-times that
    `kernelsearch.bests` picks the task's result from)."""
    for ev in top_accepted(store.evaluations(task=task.name, accepted_only=True), k):
        await runner.evaluate_source(
            candidate_id=ev.candidate_id,
            task=task,
            source=ev.source,
            purpose=RETIME_PURPOSE,
            iteration=RETIME_ITERATION,
            llm_call_id=ev.llm_call_id,
            retime_trials=trials,
        )


async def evaluate_testset(
    runner: TrialRunner, components: Mapping[str, str], candidate_id: int, tasks: Sequence[Task]
) -> None:
    """Score the best prompt once on held-out tasks (no per-task memory: they are unseen)."""
    for task in tasks:
        try:
            await runner.run(
                candidate_id=candidate_id,
                components=components,
                task=task,
                memory=None,
                purpose=TEST_PURPOSE,
                iteration=TEST_ITERATION,
            )
        except CostCapReached:
            log.warning("cost cap reached: test task %s not evaluated", task.name)
            break


def stored_bests(store: RunStore, tasks: Sequence[str], *, test: bool = False) -> list[TaskBest]:
    """Each task's result as the store holds it now (search tasks, or `test` tasks)."""
    return [best for best, _ in task_bests(tasks, store.evaluations(), test=test)]


def write_kernels(run_dir: Path, store: RunStore, bests: Sequence[TaskBest]) -> list[TaskBest]:
    """`kernels/<task>.py` for every task with an accepted kernel (a drop-in ModelNew module);
    `bests` come back with their `kernel_file` set."""
    out: list[TaskBest] = []
    folder = run_dir / KERNELS_DIR
    for b in bests:
        if not b.accepted or b.evaluation_id is None:
            out.append(b)
            continue
        (ev,) = [e for e in store.evaluations(task=b.task) if e.id == b.evaluation_id]
        folder.mkdir(parents=True, exist_ok=True)
        rel = f"{KERNELS_DIR}/{kernel_filename(b.task)}"
        header = f"# kernelsearch: best kernel for {b.task} (candidate {b.candidate_id}"
        if b.speedup_eager is not None:
            header += f", {b.speedup_eager:.2f}x vs eager"
        if b.speedup_compile is not None:
            header += f", {b.speedup_compile:.2f}x vs torch.compile"
        header += ", re-timed)\n" if b.figures == FIGURES_RETIME else ", search timing)\n"
        (run_dir / rel).write_text(header + ev.source)
        out.append(dataclasses.replace(b, kernel_file=rel))
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
