"""`kernelsearch export`: a run's best accepted kernels as drop-in files, a KernelBench-style
results JSON and the frontier prompts.

Layout of the export directory:
- `<task>.py` — the best accepted kernel of each search task (a module defining `ModelNew`),
  byte for byte the source that was evaluated; tasks without an accepted kernel get no file.
- `test/<task>.py` — the same for held-out test tasks, when the run had a test set.
- `prompts/prompt_<id>.md` — each frontier prompt's text (usable as `--seed-prompt`).
- `results.json` — per task: compiled / correct / runtime / speedups / hardware / timing
  method (`EXPORT_FORMAT`), written last, and the list of files written.

Re-verify on your own machine: `kernelsearch eval BATCH --kernels DIR` (files match tasks by
name).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kernelsearch.bests import TaskBest, kernel_filename
from kernelsearch.errors import ConfigError
from kernelsearch.report.collect import report_from_store
from kernelsearch.report.fmt import prompt_text
from kernelsearch.report.model import RunReport, Scoreboard, fast_p_name
from kernelsearch.result import Stage
from kernelsearch.search.score import BUILT_STAGES
from kernelsearch.store import EvaluationRecord, RunStore

log = logging.getLogger(__name__)

EXPORT_FORMAT = "kernelsearch-export"
EXPORT_VERSION = 1
RESULTS_FILENAME = "results.json"
PROMPTS_DIRNAME = "prompts"
TEST_DIRNAME = "test"


@dataclass(frozen=True)
class ExportManifest:
    """What an export wrote (paths relative to `directory`)."""

    directory: Path
    kernels: dict[str, str]  # search task -> file
    test_kernels: dict[str, str]  # test task -> file
    prompts: dict[int, str]  # frontier candidate -> file
    results: str

    @property
    def files(self) -> list[str]:
        return [*self.kernels.values(), *self.test_kernels.values(), *self.prompts.values()]

    def to_dict(self) -> dict[str, Any]:
        return {
            "directory": str(self.directory),
            "kernels": dict(self.kernels),
            "test_kernels": dict(self.test_kernels),
            "prompts": {str(k): v for k, v in self.prompts.items()},
            "results": self.results,
        }


def export_run(run_dir: Path, to: Path, force: bool = False) -> ExportManifest:
    """Export the run in `run_dir` into `to` (see the module doc)."""
    to = Path(to)
    _prepare(to, force)
    with RunStore.open(Path(run_dir)) as store:
        report = report_from_store(store, run_dir=Path(run_dir))
        by_id = {e.id: e for e in store.evaluations(accepted_only=True)}
    kernels = _write_kernels(to, report.search, by_id, "")
    test_kernels = _write_kernels(to, report.test, by_id, TEST_DIRNAME) if report.test else {}
    prompts: dict[int, str] = {}
    for f in report.frontier:
        rel = f"{PROMPTS_DIRNAME}/prompt_{f.candidate_id}.md"
        _write(to / rel, prompt_text(f.components) + "\n")
        prompts[f.candidate_id] = rel
    manifest = ExportManifest(to, kernels, test_kernels, prompts, RESULTS_FILENAME)
    payload = results_json(report, by_id, manifest)
    _write(to / RESULTS_FILENAME, json.dumps(payload, indent=2) + "\n")
    log.info("exported %d kernels and %d prompts to %s", len(kernels), len(prompts), to)
    return manifest


def _prepare(to: Path, force: bool) -> None:
    if to.exists() and not to.is_dir():
        raise ConfigError(f"--to {to} is a file; give a directory")
    if not to.exists() or not any(to.iterdir()):
        to.mkdir(parents=True, exist_ok=True)
        return
    previous = _previous_export(to)
    if not force or previous is None:
        fix = (
            "pass --force to replace the previous export there"
            if previous is not None
            else "choose an empty or new directory"
        )
        raise ConfigError(f"--to {to} is not empty; {fix}")
    for rel in [*previous, RESULTS_FILENAME]:  # only what the previous export wrote
        (to / rel).unlink(missing_ok=True)


def _previous_export(to: Path) -> list[str] | None:
    """Files written by an earlier export into `to`, or None if `to` holds no export."""
    try:
        data = json.loads((to / RESULTS_FILENAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        return None
    return [str(f) for f in data.get("files", []) if ".." not in Path(str(f)).parts]


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _write_kernels(
    to: Path, board: Scoreboard, by_id: dict[int, EvaluationRecord], subdir: str
) -> dict[str, str]:
    written: dict[str, str] = {}
    for b in board.best:
        record = by_id.get(b.evaluation_id) if b.accepted and b.evaluation_id is not None else None
        if record is None:
            continue
        if not record.result.accepted or not record.source.strip():  # never export otherwise
            log.error(
                "evaluation %d of %s is not an accepted kernel; not exported", record.id, b.task
            )
            continue
        rel = f"{subdir}/{kernel_filename(b.task)}" if subdir else kernel_filename(b.task)
        _write(to / rel, record.source)
        written[b.task] = rel
    return written


def _task_entry(b: TaskBest, record: EvaluationRecord | None, kernel: str | None) -> dict[str, Any]:
    result = record.result if record is not None and kernel is not None else None
    return {
        "kernel": kernel,
        "compiled": _compiled(b),
        "correctness": kernel is not None,
        "stage": b.stage,
        "runtime_ms": b.runtime_ms,
        "runtime_stats": result.runtime.to_dict() if result and result.runtime else None,
        "ref_runtime_eager_ms": b.eager_ms,
        "ref_runtime_compile_ms": b.compile_ms,
        "speedup_eager": b.speedup_eager,
        "speedup_compile": b.speedup_compile,
        "hardware": b.device or None,
        "timing_method": b.timing_method or None,
        "figures": b.figures,
        "flags": [f.to_dict() for f in b.flags],
        "source_hash": b.source_hash or None,
        "prompt": b.candidate_id if kernel is not None else None,
        "error": b.error or None,
    }


def _compiled(b: TaskBest) -> bool:
    if b.accepted:
        return True
    try:
        return Stage(b.stage) in BUILT_STAGES
    except ValueError:  # "not_evaluated"
        return False


def _board_json(
    board: Scoreboard, by_id: dict[int, EvaluationRecord], kernels: dict[str, str]
) -> dict[str, Any]:
    return {
        "fast_p": {
            b: {fast_p_name(p): v for p, v in row.items()} for b, row in board.fast_p.items()
        },
        "geomean_speedup": dict(board.geomean),
        "tasks": {
            b.task: _task_entry(
                b,
                by_id.get(b.evaluation_id) if b.evaluation_id is not None else None,
                kernels.get(b.task),
            )
            for b in board.best
        },
    }


def results_json(
    report: RunReport, by_id: dict[int, EvaluationRecord], manifest: ExportManifest
) -> dict[str, Any]:
    """The export's `results.json` (KernelBench-style per-task fields plus provenance)."""
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "run_id": report.run_id,
        "model": report.model,
        "backend": report.backend,
        "objective": report.objective,
        "baseline": report.baseline,
        "hardware": list(report.hardware),
        "timing_methods": list(report.timing_methods),
        **_board_json(report.search, by_id, manifest.kernels),
        "test": _board_json(report.test, by_id, manifest.test_kernels) if report.test else None,
        "frontier": [
            {
                "prompt": f.candidate_id,
                "file": manifest.prompts[f.candidate_id],
                "origin": f.origin,
                "parents": list(f.parents),
                "wins": list(f.wins),
            }
            for f in report.frontier
        ],
        "files": manifest.files,
        "reverify": "kernelsearch eval BATCH --kernels DIR (BATCH: the run's task batch)",
    }
