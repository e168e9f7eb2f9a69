"""The correctness loop inside the worker, with the runtime guards woven in.

Every trial runs the candidate *before* the reference output exists, on its own clone of the
inputs, under a dispatcher trace (`guards/trace.py`) and a custom-kernel call count. After a
trial the reference output is poisoned before its memory is released, so no later call can
read it back from the allocator. Then, once the task's own trials pass, the extra trials of
`guards/trials.py` run: a repeat call on refilled tensors, signed and scaled inputs, and the
task at perturbed sizes. A guard that fires adds a named `Flag`; an `error` ends the check.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kernelsearch.harness.correctness import compare
from kernelsearch.harness.guards import precision, runtime, trials
from kernelsearch.harness.guards.policy import Policy
from kernelsearch.harness.guards.trace import KernelCounter, OpTrace, TraceReport
from kernelsearch.harness.timing import Timer
from kernelsearch.result import EvalResult, Flag, Mismatch, Severity, Stage, TimingStats

UNIFORM = "uniform[0,1) (task's get_inputs)"
TIMING_SEED_OFFSET = 10_000
TRIAL_SEED_OFFSET = 1_000
AFTER_TIMING_SEED_OFFSET = 20_000


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
    allow_torch_ops: bool = False
    kernels: KernelCounter | None = None  # None: kernel calls are not counted (baselines)
    perturbed: list[dict[str, Any]] = field(default_factory=list)  # see guards/sizes.py
    new_model: Any = None
    ref_model: Any = None
    notes: dict[str, Any] = field(default_factory=dict)

    @property
    def policy(self) -> Policy:
        return Policy(self.allow_torch_ops)

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

    def kernel_calls(self) -> int:
        return self.kernels.calls if self.kernels is not None else 0


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


# ---------------------------------------------------------------------------------------
# One trial


@dataclass
class Verdict:
    """How one trial ended. status: ok | incorrect | error | rejected."""

    status: str
    flags: list[Flag] = field(default_factory=list)
    mismatch: Mismatch | None = None
    exception: BaseException | None = None
    trace: TraceReport | None = None
    reference_flops: float | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def guarded_call(session: CheckSession, model: Any, args: list[Any]) -> tuple[Any, Verdict]:
    """Call the candidate under the trace, call counter and thread watch; check the call."""
    import torch

    threads = runtime.python_threads()
    calls = session.kernel_calls()
    try:
        with torch.no_grad(), OpTrace() as traced:
            out = model(*args)
        session.synchronize()
    except Exception as e:  # noqa: BLE001 - the kernel failed
        return None, Verdict("error", exception=e)
    report = traced.report
    verdict = Verdict("ok", trace=report)
    started = runtime.python_threads() - threads
    if started:
        verdict.flags.append(
            Flag(
                "background_thread",
                Severity.ERROR,
                f"forward left {len(started)} Python thread(s) running: work outside the "
                "timed call is not measured; finish all work before forward returns",
            )
        )
    if session.kernels is not None and session.kernel_calls() == calls and not report.custom_ops:
        verdict.flags.append(
            Flag(
                "no_custom_kernel",
                Severity.ERROR,
                "forward ran no custom kernel (no load_inline function call or kernel launch)"
                + (f"; PyTorch ran {report.describe_compute()}" if report.compute else "")
                + ": every forward must run at least one of your kernels",
            )
        )
    if report.compute:
        verdict.flags.append(policy_flag(session.policy, report))
    if any(f.severity is Severity.ERROR for f in verdict.flags):
        verdict.status = "rejected"
    return out, verdict


def policy_flag(policy: Policy, report: TraceReport) -> Flag:
    ops = report.describe_compute()
    if policy.allow_torch_ops:
        return Flag(
            "torch_op",
            Severity.WARNING,
            f"PyTorch ran compute in forward: {ops} (allowed by --allow-torch-ops)",
        )
    return Flag(
        "torch_op",
        Severity.ERROR,
        f"PyTorch ran compute in forward: {ops}. Under the strict policy forward may only "
        "allocate, take views and copy without changing dtype besides your kernels; move "
        "this work into the kernel (or opt in with --allow-torch-ops)",
    )


def reference_call(session: CheckSession, args: list[Any], count_flops: bool = False) -> Any:
    import torch

    with torch.no_grad():
        if not count_flops:
            return session.ref_model(*args)
        with OpTrace() as traced:
            out = session.ref_model(*args)
    session.notes["reference_flops"] = traced.report.total_flops
    return out


def alias_flag(session: CheckSession, out: Any, cand_in: list[Any], ref: Any, ref_in: list[Any]):
    """An error when the candidate's output shares memory with an input or a parameter."""
    mine = runtime.tensors_in(cand_in) + runtime.module_tensors(session.new_model)
    hits = runtime.aliases(out, mine)
    if not hits:
        return None
    theirs = runtime.tensors_in(ref_in) + runtime.module_tensors(session.ref_model)
    if runtime.aliases(ref, theirs):
        return None  # the reference itself returns a view: the task is a view op
    return Flag(
        "output_aliases_input",
        Severity.ERROR,
        f"output tensor(s) {hits} share memory with an input or a parameter: return a new "
        "tensor (writing results into inputs or parameters corrupts the caller's data)",
    )


def run_trial(
    session: CheckSession,
    seed: int,
    trial: int,
    distribution: str,
    inputs: list[Any] | None = None,
    first: bool = False,
) -> Verdict:
    """One correctness trial, candidate first. `first` adds the one-off guards."""
    inputs = inputs if inputs is not None else session.inputs(seed)
    cand_in, ref_in = clone_all(inputs), clone_all(inputs)
    params = runtime.snapshot_parameters(session.new_model) if first else None
    out, verdict = guarded_call(session, session.new_model, cand_in)
    if verdict.status == "error":
        return verdict
    if not unchanged(inputs, cand_in):
        verdict.flags.append(
            Flag(
                "inputs_mutated",
                Severity.ERROR,
                "forward modified its input tensors in place; the reference would see "
                "different data. Write results to a new tensor",
            )
        )
        verdict.status = "incorrect"
        verdict.mismatch = Mismatch(
            trial=trial, distribution=distribution, reason="input tensors modified in place"
        )
        return verdict
    if params is not None and runtime.parameters_changed(session.new_model, params):
        verdict.flags.append(
            Flag(
                "parameters_mutated",
                Severity.ERROR,
                "forward changed ModelNew's parameters; forward must not update weights",
            )
        )
        verdict.status = "rejected"
    ref = reference_call(session, ref_in, count_flops=first)
    verdict.reference_flops = session.notes.get("reference_flops")
    alias = alias_flag(session, out, cand_in, ref, ref_in)
    if alias is not None:
        verdict.flags.append(alias)
        verdict.status = "rejected"
    mismatch = compare(
        ref, out, atol=session.atol, rtol=session.rtol, trial=trial, distribution=distribution
    )
    if first and mismatch is None:
        verdict.flags.extend(first_trial_flags(session, inputs, ref, out))
    runtime.poison(ref, keep=runtime.module_tensors(session.ref_model))
    del ref
    if mismatch is not None and verdict.status == "ok":
        verdict.status, verdict.mismatch = "incorrect", mismatch
    if any(f.severity is Severity.ERROR for f in verdict.flags) and verdict.status == "ok":
        verdict.status = "rejected"
    return verdict


def first_trial_flags(session: CheckSession, inputs: list[Any], ref: Any, out: Any) -> list[Flag]:
    """Precision against float64, and the task-quality check on near-zero outputs."""
    flags = []
    exact = precision.float64_reference(session.ref_model, clone_all(inputs))
    if exact is not None:
        figures = precision.figures(ref, out, exact)
        if figures is not None:
            session.notes["precision"] = figures.to_dict()
        flag = precision.precision_flag(figures)
        if flag is not None:
            flags.append(flag)
    zeros = precision.zeros_pass_flag(ref, session.atol, session.rtol)
    if zeros is not None:
        flags.append(zeros)
    return flags


# ---------------------------------------------------------------------------------------
# The whole check


def _fail(result: EvalResult, v: Verdict, trial: int, passed: int) -> EvalResult:
    from kernelsearch.harness.worker import short_traceback

    result = result.add_flags(*v.flags)
    counts = {"trials_run": trial + 1, "trials_passed": passed}
    if v.status == "error":
        where = f"[{v.flags[0].name}] " if v.flags else ""
        return result.with_(
            stage=Stage.RUNTIME_ERROR,
            correct=False,
            error=where + short_traceback(v.exception) if v.exception else where,
            **counts,
        )
    if v.status == "incorrect":
        mismatch = v.mismatch or Mismatch(trial=trial, reason="incorrect")
        name = next((f.name for f in v.flags if f.severity is Severity.ERROR), None)
        return result.with_(
            stage=Stage.INCORRECT,
            correct=False,
            mismatch=mismatch,
            error=(f"{name}: " if name else "") + mismatch.reason,
            **counts,
        )
    first_error = next(f for f in v.flags if f.severity is Severity.ERROR)
    return result.with_(
        stage=Stage.REJECTED,
        correct=False,
        error=f"{first_error.name}: {first_error.reason}",
        **counts,
    )


def _resources(session: CheckSession, verdicts: list[Verdict]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    first = verdicts[0] if verdicts else None
    if first is not None and first.trace is not None:
        report = first.trace
        if report.compute or report.custom_ops:
            out["torch_ops"] = report.to_dict(first.reference_flops)
    if session.kernels is not None:
        out["kernel_calls"] = dict(session.kernels.by_name)
    if "precision" in session.notes:
        out["precision"] = session.notes["precision"]
    out["policy"] = session.policy.name
    return out


def check(session: CheckSession, result: EvalResult) -> EvalResult:
    """Construct both models, run the trials and extra trials; fills stage/correct/flags."""
    from kernelsearch.harness.worker import short_traceback

    try:
        session.ref_model = session.make_reference()
        session.new_model = session.make_candidate()
    except Exception as e:  # noqa: BLE001
        return result.with_(
            stage=Stage.RUNTIME_ERROR,
            correct=False,
            error="constructing ModelNew: " + short_traceback(e),
        )
    verdicts: list[Verdict] = []
    passed = 0
    for trial in range(session.trials):
        v = run_trial(
            session,
            session.seed + TRIAL_SEED_OFFSET + trial,
            trial,
            UNIFORM,
            first=trial == 0,
        )
        verdicts.append(v)
        if not v.ok:
            failed = _fail(result, v, trial, passed)
            return failed.with_(resources={**_resources(session, verdicts), **failed.resources})
        passed += 1
    flags = [f for v in verdicts for f in v.flags]
    result = result.add_flags(*_dedupe(flags))
    extras: dict[str, str] = {}
    for index, extra in enumerate(trials.EXTRA_TRIALS):
        v = extra(session, passed + index)
        if v is None:
            extras[extra.__name__] = "not applicable"
            continue
        if not v.ok:
            failed = _fail(result, v, passed + index, passed + index)
            resources = {**_resources(session, verdicts), "extra_trials": extras}
            return failed.with_(resources={**resources, **failed.resources})
        skipped = [f for f in v.flags if f.severity is Severity.INFO]
        extras[extra.__name__] = skipped[0].reason if skipped else "passed"
        result = result.add_flags(*v.flags)
    return result.with_(
        stage=Stage.CORRECT,
        correct=True,
        trials_run=passed,
        trials_passed=passed,
        resources={**_resources(session, verdicts), "extra_trials": extras, **result.resources},
    )


def _dedupe(flags: list[Flag]) -> list[Flag]:
    return list(dict.fromkeys(flags))


# ---------------------------------------------------------------------------------------
# Timing


def time_forward(
    session: CheckSession, model: Any, timer: Timer, warmup: int, trials_n: int
) -> TimingStats:
    """Time `model` on fixed inputs; on GPUs each call ends with a device-wide sync.

    Before each call the inputs' version counters are bumped, so no candidate can tell a
    timing call from a call on freshly written data of the same tensors.
    """
    import torch
    from torch.autograd.graph import increment_version

    inputs = session.inputs(session.seed + TIMING_SEED_OFFSET)
    tensors = [x for x in inputs if isinstance(x, torch.Tensor)]
    sync = session.synchronize if session.device.startswith("cuda") else None

    def call() -> None:
        for t in tensors:  # O(1): a cache keyed on (pointer, version) misses every call
            increment_version(t)
        model(*inputs)
        if sync is not None:
            sync()  # side-stream or deferred work ends inside the timed window

    with torch.no_grad():
        return timer.time(call, warmup, trials_n)


def timed_with_guards(
    session: CheckSession, timer: Timer, warmup: int, trials_n: int
) -> tuple[TimingStats, list[Flag]]:
    """Time the candidate, then check it ran a kernel every call and is still correct."""
    calls = session.kernel_calls()
    threads = runtime.python_threads()
    stats = time_forward(session, session.new_model, timer, warmup, trials_n)
    flags: list[Flag] = []
    if session.kernels is not None and session.kernel_calls() - calls < warmup + trials_n:
        flags.append(
            Flag(
                "no_custom_kernel",
                Severity.ERROR,
                f"while being timed, forward ran {session.kernel_calls() - calls} kernel "
                f"call(s) in {warmup + trials_n} calls: every timed forward must run a kernel",
            )
        )
    if runtime.python_threads() - threads:
        flags.append(
            Flag(
                "background_thread",
                Severity.ERROR,
                "a Python thread started during timing is still running",
            )
        )
    after = run_trial(
        session,
        session.seed + AFTER_TIMING_SEED_OFFSET,
        session.trials,
        "after timing (fresh inputs)",
    )
    if not after.ok:
        reason = after.mismatch.reason if after.mismatch else after.status
        if after.exception is not None:
            reason = f"{type(after.exception).__name__}: {after.exception}"
        flags.append(
            Flag(
                "after_timing",
                Severity.ERROR,
                f"wrong after being timed ({reason}): forward must compute every call, not "
                "only the first ones",
            )
        )
        flags.extend(after.flags)
    return stats, _dedupe(flags)


def with_flags(result: EvalResult, flags: list[Flag]) -> EvalResult:
    """Add guard flags; the first `error` among them rejects the result with its reason."""
    result = result.add_flags(*flags)
    error = next((f for f in flags if f.severity is Severity.ERROR), None)
    if error is None:
        return result
    return result.with_(stage=Stage.REJECTED, correct=False, error=f"{error.name}: {error.reason}")
