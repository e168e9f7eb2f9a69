"""Correctness checking inside the worker: identical seeding, fresh inputs per trial, the
candidate runs before the reference output exists, inputs must come back unchanged."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kernelsearch.harness.correctness import compare
from kernelsearch.harness.timing import Timer
from kernelsearch.result import EvalResult, Stage, TimingStats

UNIFORM = "uniform[0,1) (task's get_inputs)"
TIMING_SEED_OFFSET = 10_000
TRIAL_SEED_OFFSET = 1_000


@dataclass
class CheckSession:
    task_module: Any
    candidate: Any
    device: str
    seed: int
    atol: float | None
    rtol: float | None
    trials: int
    synchronize: Any
    new_model: Any = None
    ref_model: Any = None
    notes: dict[str, Any] = field(default_factory=dict)

    def init_inputs(self) -> list[Any]:
        return list(self.task_module.get_init_inputs())

    def make_reference(self) -> Any:
        import torch

        torch.manual_seed(self.seed)
        return _to(self.task_module.Model(*self.init_inputs()), self.device)

    def make_candidate(self) -> Any:
        import torch

        torch.manual_seed(self.seed)
        return _to(self.candidate.ModelNew(*self.init_inputs()), self.device)

    def inputs(self, seed: int) -> list[Any]:
        import torch

        torch.manual_seed(seed)
        return [_to(x, self.device) for x in self.task_module.get_inputs()]


def _to(x: Any, device: str) -> Any:
    return x.to(device) if hasattr(x, "to") else x


def clone_all(xs: list[Any]) -> list[Any]:
    return [x.clone() if hasattr(x, "clone") else x for x in xs]


def unchanged(before: list[Any], after: list[Any]) -> bool:
    import torch

    for a, b in zip(before, after):
        if isinstance(a, torch.Tensor):
            if a.shape != b.shape or not torch.equal(a, b):
                if not (
                    a.is_floating_point()
                    and torch.equal(a.isnan(), b.isnan())
                    and torch.equal(a.nan_to_num(), b.nan_to_num())
                ):
                    return False
    return True


def run_trial(
    session: CheckSession, seed: int, trial: int, distribution: str, inputs: list[Any] | None = None
) -> tuple[str, Any]:
    """One correctness trial. Returns ("ok"|"incorrect"|"error", detail)."""
    import torch

    inputs = inputs if inputs is not None else session.inputs(seed)
    cand_in, ref_in = clone_all(inputs), clone_all(inputs)
    try:
        with torch.no_grad():
            out = session.new_model(*cand_in)
        session.synchronize()
    except Exception as e:  # noqa: BLE001 - the kernel failed
        return "error", e
    if not unchanged(inputs, cand_in):
        return "incorrect", "the candidate modified its input tensors in place"
    with torch.no_grad():
        ref = session.ref_model(*ref_in)
    mismatch = compare(
        ref, out, atol=session.atol, rtol=session.rtol, trial=trial, distribution=distribution
    )
    del ref
    return ("ok", None) if mismatch is None else ("incorrect", mismatch)


def check(session: CheckSession, result: EvalResult) -> EvalResult:
    """Construct both models and run the correctness trials; fills stage/correct/mismatch."""
    from kernelsearch.harness.worker import short_traceback
    from kernelsearch.result import Mismatch

    try:
        session.ref_model = session.make_reference()
        session.new_model = session.make_candidate()
    except Exception as e:  # noqa: BLE001
        return result.with_(
            stage=Stage.RUNTIME_ERROR,
            correct=False,
            error="constructing ModelNew: " + short_traceback(e),
        )
    passed = 0
    for trial in range(session.trials):
        status, detail = run_trial(
            session, session.seed + TRIAL_SEED_OFFSET + trial, trial, UNIFORM
        )
        if status == "error":
            return result.with_(
                stage=Stage.RUNTIME_ERROR,
                correct=False,
                trials_run=trial + 1,
                trials_passed=passed,
                error=short_traceback(detail),
            )
        if status == "incorrect":
            mismatch = (
                detail
                if isinstance(detail, Mismatch)
                else Mismatch(trial=trial, distribution=UNIFORM, reason=str(detail))
            )
            return result.with_(
                stage=Stage.INCORRECT,
                correct=False,
                trials_run=trial + 1,
                trials_passed=passed,
                mismatch=mismatch,
                error=mismatch.reason,
            )
        passed += 1
    return result.with_(stage=Stage.CORRECT, correct=True, trials_run=passed, trials_passed=passed)


def time_forward(
    session: CheckSession, model: Any, timer: Timer, warmup: int, trials: int
) -> TimingStats:
    import torch

    inputs = session.inputs(session.seed + TIMING_SEED_OFFSET)
    with torch.no_grad():
        return timer.time(lambda: model(*inputs), warmup, trials)
