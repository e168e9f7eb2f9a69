"""Evaluate a directory of kernels against a batch (kernels matched to tasks by file stem)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from kernelsearch.config import EvalConfig
from kernelsearch.errors import TaskFormatError
from kernelsearch.harness.executor import LocalExecutor
from kernelsearch.result import EvalResult
from kernelsearch.tasks import Task


@dataclass(frozen=True)
class BatchItem:
    task: Task
    kernel_path: Path | None
    result: EvalResult | None  # None: no kernel for this task


def match_kernels(tasks: list[Task], kernels_dir: Path) -> dict[str, Path | None]:
    if not kernels_dir.is_dir():
        raise TaskFormatError(
            f"{kernels_dir}: --kernels must be a directory of <task name>.py files"
        )
    return {
        t.name: (kernels_dir / f"{t.name}.py") if (kernels_dir / f"{t.name}.py").is_file() else None
        for t in tasks
    }


async def _evaluate_all(
    tasks: list[Task], paths: dict[str, Path | None], config: EvalConfig
) -> list[BatchItem]:
    executor = LocalExecutor(config)
    try:

        async def one(task: Task) -> BatchItem:
            path = paths[task.name]
            if path is None:
                return BatchItem(task, None, None)
            return BatchItem(task, path, await executor.evaluate(task, path.read_text()))

        return list(await asyncio.gather(*(one(t) for t in tasks)))
    finally:
        await executor.aclose()


def evaluate_batch(tasks: list[Task], kernels_dir: Path, config: EvalConfig) -> list[BatchItem]:
    """Build all kernels in parallel on CPU cores, then check and time each on its device."""
    return asyncio.run(_evaluate_all(tasks, match_kernels(tasks, kernels_dir), config))
