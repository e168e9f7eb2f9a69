"""`SearchConfig`: every search default in one place. The CLI fills it; `run()` takes it."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kernelsearch.config import EvalConfig
from kernelsearch.errors import ConfigError

OBJECTIVES = ("speed", "correctness", "compile")
BASELINES = ("eager", "compile")
SELECTIONS = ("pareto", "current_best")
COMPONENT_SELECTORS = ("round_robin", "all")
AUTO_LEVELS = ("light", "medium", "heavy")

# --auto presets: (reflection iterations, full evaluations of accepted candidates).
# budget = iterations * 2 * minibatch_size + full_evals * len(valset) + len(valset) (the seed).
AUTO_PRESETS = {"light": (6, 2), "medium": (15, 5), "heavy": (40, 12)}

DEFAULT_MINIBATCH_SIZE = 3
DEFAULT_CONCURRENCY = 4
DEFAULT_MAX_MERGES = 5
DEFAULT_RETIME_TOP_K = 3  # accepted kernels per task re-timed at the end
DEFAULT_RETIME_TRIALS = 5  # fresh-process rounds, each timing kernel and baselines
DEFAULT_MAX_CONSECUTIVE_FAILURES = 5  # iterations lost to LLM errors in a row before giving up
STOP_FILENAME = "STOP"  # touch RUN_DIR/STOP to stop gracefully


@dataclass(frozen=True)
class SearchConfig:
    """Everything that shapes a search. `budget` counts evaluations (kernels evaluated)."""

    backend: str = "cpu"
    model: str = "openai/gpt-4o-mini"
    reflection_model: str | None = None  # None: same as `model`
    api_base: str | None = None
    budget: int | None = None  # evaluations; None and auto None: AUTO_PRESETS["light"]
    auto: str | None = None
    max_cost_usd: float | None = None
    max_time_s: float | None = None
    concurrency: int = DEFAULT_CONCURRENCY  # iterations in flight
    llm_concurrency: int = 8  # requests in flight per model
    llm_timeout_s: float = 600.0
    llm_max_retries: int = 5
    llm_backoff_base_s: float = 2.0
    temperature: float = 0.7
    max_tokens: int = 8192
    minibatch_size: int = DEFAULT_MINIBATCH_SIZE
    selection: str = "pareto"
    component_selector: str = "round_robin"
    use_merge: bool = True
    max_merges: int = DEFAULT_MAX_MERGES
    skip_perfect_score: bool = True
    seed: int = 0
    seed_instructions: str | None = None  # None: prompts/seed_instructions.md
    objective: str = "speed"
    baseline: str = "eager"
    retime_top_k: int = DEFAULT_RETIME_TOP_K
    retime_trials: int = DEFAULT_RETIME_TRIALS
    max_consecutive_failures: int = DEFAULT_MAX_CONSECUTIVE_FAILURES
    eval: EvalConfig = field(default_factory=EvalConfig)

    def __post_init__(self) -> None:
        checks = [
            (self.objective in OBJECTIVES, f"--objective must be one of {', '.join(OBJECTIVES)}"),
            (self.baseline in BASELINES, f"--baseline must be one of {', '.join(BASELINES)}"),
            (self.selection in SELECTIONS, f"--selection must be one of {', '.join(SELECTIONS)}"),
            (
                self.component_selector in COMPONENT_SELECTORS,
                f"component selector must be one of {', '.join(COMPONENT_SELECTORS)}",
            ),
            (self.auto is None or self.auto in AUTO_LEVELS, "--auto must be light|medium|heavy"),
            (self.budget is None or self.budget >= 1, "--budget must be at least 1 evaluation"),
            (
                not (self.budget is not None and self.auto is not None),
                "give --budget or --auto, not both",
            ),
            (self.concurrency >= 1, "--concurrency must be at least 1"),
            (self.minibatch_size >= 1, "--minibatch-size must be at least 1"),
            (self.max_merges >= 0, "--max-merges must be >= 0"),
            (self.max_cost_usd is None or self.max_cost_usd >= 0, "--max-cost must be >= 0"),
            (self.max_time_s is None or self.max_time_s > 0, "--max-time must be positive"),
            (self.eval.backend == self.backend, "eval.backend must match backend"),
        ]
        for ok, message in checks:
            if not ok:
                raise ConfigError(message)

    @property
    def reflection_model_name(self) -> str:
        return self.reflection_model or self.model

    def evaluation_budget(self, n_val: int) -> int:
        """The evaluation cap: --budget, or the --auto preset sized for `n_val` tasks."""
        if self.budget is not None:
            return self.budget
        iterations, full_evals = AUTO_PRESETS[self.auto or "light"]
        return iterations * 2 * self.minibatch_size + (full_evals + 1) * n_val

    def replace(self, **changes: Any) -> SearchConfig:
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        d = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "eval"}
        d["eval"] = self.eval.to_dict()
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SearchConfig:
        known = {f.name for f in dataclasses.fields(cls)}
        values = {k: v for k, v in d.items() if k in known and k != "eval"}
        evald = d.get("eval")
        values["eval"] = EvalConfig.from_dict(evald) if evald else EvalConfig()
        return cls(**values)


def read_seed_prompt(path: Path) -> str:
    """The text of `--seed-prompt FILE`, checked to be non-empty."""
    try:
        text = Path(path).read_text(encoding="utf-8").strip()
    except OSError as e:
        raise ConfigError(f"--seed-prompt {path}: cannot read it ({e})") from None
    if not text:
        raise ConfigError(f"--seed-prompt {path}: the file is empty")
    return text
