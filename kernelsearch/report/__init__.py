"""Reports on finished (or running) searches: what a user reads after `kernelsearch run`.

- `build_report(run_dir)` reads a run store into a `RunReport` (`metrics` holds the pure
  functions behind every number: fast_p, geomean, frontier ownership, progress). Each task's
  shown kernel is a `TaskBest` chosen by `final_evaluation` (both from `kernelsearch.bests`,
  shared with the search's summary.json and kernels/).
- `to_markdown`, `to_html` / `write_html` (plots need matplotlib, imported on first use) and
  `terminal.render` render it.
- `export_run(run_dir, to)` writes the best accepted kernels, results JSON and frontier prompts.
- `leaderboard_rows(run_dirs)` compares runs.
"""

from __future__ import annotations

from kernelsearch.bests import TaskBest, final_evaluation, task_best
from kernelsearch.report.collect import build_report, report_from_store
from kernelsearch.report.export import ExportManifest, export_run
from kernelsearch.report.htmlpage import to_html, write_html
from kernelsearch.report.leaderboard import LeaderboardRow, leaderboard_rows
from kernelsearch.report.markdown import to_markdown
from kernelsearch.report.metrics import (
    FAST_P_THRESHOLDS,
    Ownership,
    ProgressPoint,
    ProgressSample,
    accepted_speedups,
    fast_p,
    fast_p_table,
    frontier_ownership,
    geomean_speedup,
    progress_curve,
)
from kernelsearch.report.model import RunReport, Scoreboard

__all__ = [
    "FAST_P_THRESHOLDS",
    "ExportManifest",
    "LeaderboardRow",
    "Ownership",
    "ProgressPoint",
    "ProgressSample",
    "RunReport",
    "Scoreboard",
    "TaskBest",
    "accepted_speedups",
    "build_report",
    "export_run",
    "fast_p",
    "fast_p_table",
    "final_evaluation",
    "frontier_ownership",
    "geomean_speedup",
    "leaderboard_rows",
    "progress_curve",
    "report_from_store",
    "to_html",
    "task_best",
    "to_markdown",
    "write_html",
]
