"""The search: an asynchronous GEPA engine over kernel-writing prompts.

`run(batch, config)` / `resume(run_dir)` are the Python API (see `api`); `SearchConfig` holds
every knob; `RunSummary` is what comes back. Stage by stage: `score` (the number maximised),
`pareto` (frontier and parent choice), `minibatch` (epoch sampler), `budget` (when to stop),
`memory` (per-task best kernel), `trials` (generate + evaluate one kernel), `proposer`
(reflection and merge), `engine` (the loop), `finish` (re-time, test set, files). A task's
result is `kernelsearch.bests.TaskBest`, the record reports show too.
"""

from kernelsearch.bests import TaskBest
from kernelsearch.search.api import resume, resume_async, run, run_async
from kernelsearch.search.config import SearchConfig
from kernelsearch.search.engine import Progress, TaskProgress
from kernelsearch.search.summary import CandidateSummary, RunSummary

__all__ = [
    "CandidateSummary",
    "Progress",
    "RunSummary",
    "SearchConfig",
    "TaskBest",
    "TaskProgress",
    "resume",
    "resume_async",
    "run",
    "run_async",
]
