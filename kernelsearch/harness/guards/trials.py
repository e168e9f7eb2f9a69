"""Extra correctness trials run after the task's own trials pass (inside the worker).

- `repeat_call`: forward three times on the *same* tensor objects refilled in place (new
  values, then one element nudged): caching by shape, pointer or sampled values returns a
  stale answer.
- `input_distribution`: floating inputs redrawn as randn * 3 (signed, scaled), whenever the
  reference output stays finite: "identity on [0,1)" and similar distribution tricks fail.
  The absolute tolerance grows with the reference output's magnitude (never shrinks): inputs
  three times larger make a matmul's outputs, and its rounding errors, nine times larger.
- `perturbed_sizes`: the task re-executed with its size constants changed
  (`guards/sizes.py`): hard-coded shapes fail. A kernel that supports only some sizes fails
  too, with that reason (an error: the task's sizes are an example, not the contract).

Each returns a `checks.Verdict` (flags named after the trial), or None when it does not
apply. The candidate always runs before the reference output of the same trial exists.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kernelsearch.harness.correctness import compare, output_magnitude
from kernelsearch.harness.guards import runtime
from kernelsearch.result import Flag, Mismatch, Severity

if TYPE_CHECKING:
    from kernelsearch.harness.checks import CheckSession, Verdict

log = logging.getLogger(__name__)

REPEAT_SEED_OFFSET = 3_000
SIGNED_SEED_OFFSET = 4_000
PERTURBED_SEED_OFFSET = 5_000
PERTURBED_MODULE = "ks_task_perturbed"


def _verdict(status: str, **kw: Any) -> Verdict:
    from kernelsearch.harness.checks import Verdict

    return Verdict(status, **kw)


def _failed(name: str, reason: str, mismatch: Mismatch) -> Verdict:
    return _verdict("incorrect", flags=[Flag(name, Severity.ERROR, reason)], mismatch=mismatch)


def _raised(name: str, reason: str, exc: BaseException) -> Verdict:
    return _verdict("error", flags=[Flag(name, Severity.ERROR, reason)], exception=exc)


def _snapshot(out: Any) -> Any:
    """A detached copy of the outputs, immune to the candidate reusing its output buffers."""
    import torch

    if isinstance(out, torch.Tensor):
        return out.detach().clone()
    if isinstance(out, (list, tuple)):
        return type(out)(_snapshot(x) for x in out)
    return out


def repeat_call(session: CheckSession, trial: int) -> Verdict | None:
    from kernelsearch.harness.checks import clone_all, guarded_call, reference_call

    base = session.seed + REPEAT_SEED_OFFSET
    live = session.inputs(base)  # the same tensor objects are passed to all three calls
    values = [clone_all(live), clone_all(session.inputs(base + 1))]
    nudged = clone_all(values[1])
    if runtime.nudge_one_element(nudged, base + 2):
        values.append(nudged)
    dist = runtime.REPEAT_DISTRIBUTION
    for i, vals in enumerate(values):
        runtime.refill_in_place(live, vals)
        out, v = guarded_call(session, session.new_model, live)
        if v.status == "error":
            return _raised("repeat_call", f"call {i + 1} of the repeat trial raised", v.exception)
        if not v.ok:
            return v
        got = _snapshot(out)
        ref = reference_call(session, clone_all(vals))
        mismatch = compare(
            ref,
            got,
            atol=session.atol,
            rtol=session.rtol,
            trial=trial,
            distribution=f"{dist} (call {i + 1})",
        )
        runtime.poison(ref, keep=runtime.module_tensors(session.ref_model))
        if mismatch is not None:
            what = [
                "first",
                "second (new values, same tensors)",
                "third (one element changed in place)",
            ][i]
            return _failed(
                "repeat_call",
                f"the {what} call on the same input tensors gave a wrong answer: results "
                "must not be cached by shape, pointer or sampled values",
                mismatch,
            )
    return _verdict("ok")


def input_distribution(session: CheckSession, trial: int) -> Verdict | None:
    from kernelsearch.harness.checks import clone_all, guarded_call, reference_call

    seed = session.seed + SIGNED_SEED_OFFSET
    plain = session.inputs(seed)
    if not runtime.has_floating_inputs(plain):
        return None
    inputs = runtime.signed_inputs(plain, seed)
    out, v = guarded_call(session, session.new_model, clone_all(inputs))
    got = _snapshot(out) if v.status != "error" else None
    try:
        ref = reference_call(session, clone_all(inputs))
    except Exception:  # noqa: BLE001 - the reference rejects these inputs: not applicable
        log.info("input_distribution: reference rejects signed inputs; trial skipped")
        return _skipped("input_distribution", "the reference rejects signed inputs")
    if not runtime.all_finite(ref):
        return _skipped("input_distribution", "the reference is not finite on signed inputs")
    if v.status == "error":
        return _raised(
            "input_distribution",
            f"forward raised on signed inputs ({runtime.SIGNED_DISTRIBUTION}) although the "
            "reference handles them",
            v.exception,
        )
    if not v.ok:
        return v
    mismatch = compare(
        ref,
        got,
        atol=session.atol,
        rtol=session.rtol,
        trial=trial,
        distribution=runtime.SIGNED_DISTRIBUTION,
        atol_scale=_magnitude_ratio(session, plain, ref),
    )
    runtime.poison(ref, keep=runtime.module_tensors(session.ref_model))
    if mismatch is not None:
        return _failed(
            "input_distribution",
            f"right on the task's inputs but wrong on {runtime.SIGNED_DISTRIBUTION} inputs: "
            "the kernel relies on the input distribution (e.g. ReLU as identity on [0,1))",
            mismatch,
        )
    return _verdict("ok")


def _magnitude_ratio(session: CheckSession, plain: list[Any], signed_ref: Any) -> float:
    """How much larger the reference output is on the signed inputs than on the task's own
    (at least 1): the factor the absolute tolerance grows by."""
    from kernelsearch.harness.checks import clone_all, reference_call

    plain_ref = reference_call(session, clone_all(plain))
    base = output_magnitude(plain_ref)
    runtime.poison(plain_ref, keep=runtime.module_tensors(session.ref_model))
    return max(1.0, output_magnitude(signed_ref) / base) if base > 0 else 1.0


def _skipped(name: str, why: str) -> Verdict:
    return _verdict("ok", flags=[Flag(name, Severity.INFO, f"skipped: {why}")])


def _load_perturbed(source: str, index: int) -> Any:
    from kernelsearch.harness.modules import load_module

    name = f"{PERTURBED_MODULE}_{index}"
    return load_module(source, Path(f"{name}.py"), name)


def perturbed_sizes(session: CheckSession, trial: int) -> Verdict | None:
    import dataclasses

    import torch

    for index, plan in enumerate(session.perturbed):
        sizes = plan["sizes"]
        try:
            module = _load_perturbed(plan["source"], index)
            sub = dataclasses.replace(session, task_module=module, perturbed=[])
            ref_model = sub.make_reference()
            inputs = sub.inputs(session.seed + PERTURBED_SEED_OFFSET + index)
        except Exception:  # noqa: BLE001 - the task does not allow these sizes
            log.info("perturbed sizes %s: the task rejects them", sizes, exc_info=True)
            continue
        try:
            new_model = sub.make_candidate()
        except Exception as e:  # noqa: BLE001
            return _raised("perturbed_sizes", f"ModelNew could not be built at sizes {sizes}", e)
        from kernelsearch.harness.checks import clone_all, guarded_call

        out, v = guarded_call(sub, new_model, clone_all(inputs))
        got = _snapshot(out) if v.status != "error" else None
        try:
            with torch.no_grad():
                ref = ref_model(*clone_all(inputs))
        except Exception:  # noqa: BLE001 - the reference fails at these sizes: next plan
            log.info("perturbed sizes %s: the reference fails", sizes, exc_info=True)
            continue
        if v.status == "error":
            return _raised(
                "perturbed_sizes",
                f"forward failed at sizes {sizes} where the reference works: kernels must "
                "handle any size of the task's family (a kernel for some sizes only fails "
                "with this reason)",
                v.exception,
            )
        if not v.ok:
            return v
        mismatch = compare(
            ref,
            got,
            atol=session.atol,
            rtol=session.rtol,
            trial=trial,
            distribution=f"{runtime.PERTURBED_DISTRIBUTION} {sizes}",
        )
        if mismatch is not None:
            return _failed(
                "perturbed_sizes",
                f"right at the task's sizes but wrong at {sizes}: shapes are hard-coded",
                mismatch,
            )
        return _verdict("ok")
    if session.perturbed:
        return _skipped("perturbed_sizes", "the reference rejects every perturbed size plan")
    return None


EXTRA_TRIALS = (repeat_call, input_distribution, perturbed_sizes)
