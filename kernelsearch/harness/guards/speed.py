"""Speed sanity (orchestrator side): impossible times are errors, implausible ones re-verified.

- `roofline_impossible` (error): the kernel's median time is below the hardware profile's
  roofline bound (FLOPs / peak FLOP/s, bytes / peak bandwidth) while eager PyTorch's is not.
  When eager PyTorch also beats the bound, the profile underestimates this machine: that is
  a `warning` about the profile, not the kernel. The byte bound counts only when the timer
  flushes caches or the working set exceeds the last-level cache; otherwise a CPU kernel may
  legitimately stream from cache faster than DRAM.
- `suspicious_speedup`: a speedup over eager above `SUSPICIOUS_SPEEDUP` is re-verified in a
  fresh process with `REVERIFY_TRIAL_FACTOR` times the trials and fresh seeds before it can
  be accepted: a `warning` naming the seed when it holds up, an `error` when it does not.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from kernelsearch.config import EvalConfig
from kernelsearch.result import EvalResult, Flag, Severity

log = logging.getLogger(__name__)

SUSPICIOUS_SPEEDUP = EvalConfig.suspicious_speedup  # over eager: triggers re-verification
REVERIFY_TRIAL_FACTOR = 4  # re-verification runs this many times the correctness trials ...
REVERIFY_MIN_TRIALS = 10  # ... and at least this many
CACHE_FLUSHING_TIMERS = frozenset({"cuda_event_l2_flush"})


@dataclass(frozen=True)
class Bound:
    ms: float
    kind: str  # "compute" or "memory"
    profile: str


@lru_cache(maxsize=4)
def _profile(device_kind: str) -> Any:
    from kernelsearch import hardware

    try:
        return hardware.detect(device_kind)
    except Exception:  # noqa: BLE001 - no profile is not an error: the check is skipped
        log.info("no hardware profile for %s; roofline check skipped", device_kind, exc_info=True)
        return None


def lower_bound(
    profile: Any, flops: float, bytes_moved: float, dtype: str, timer_method: str
) -> Bound | None:
    """The fastest time the profile allows for this work, or None when it cannot say."""
    from kernelsearch import hardware

    if profile is None or flops is None or bytes_moved is None:
        return None
    try:
        compute_ms = hardware.roofline_ms(profile, flops, 0.0, dtype)
        memory_ms = hardware.roofline_ms(profile, 0.0, bytes_moved, dtype)
    except Exception:  # noqa: BLE001 - unknown dtype in the profile, bad figures
        log.info("roofline bound unavailable for dtype %s", dtype, exc_info=True)
        return None
    cache = getattr(profile, "last_level_cache_bytes", None) or 0
    if timer_method not in CACHE_FLUSHING_TIMERS and bytes_moved <= cache:
        memory_ms = 0.0
    if max(compute_ms, memory_ms) <= 0:
        return None
    kind = "compute" if compute_ms >= memory_ms else "memory"
    return Bound(max(compute_ms, memory_ms), kind, profile.name)


def roofline_flags(result: EvalResult, bound: Bound | None) -> list[Flag]:
    if bound is None or result.runtime is None:
        return []
    kernel_ms = result.runtime.median
    if kernel_ms >= bound.ms:
        return []
    eager_ms = result.baseline_eager_ms
    if eager_ms is not None and eager_ms < bound.ms:
        return [
            Flag(
                "roofline_profile",
                Severity.WARNING,
                f"eager PyTorch ({eager_ms:.4g} ms) is also faster than profile "
                f"{bound.profile}'s {bound.kind} bound ({bound.ms:.4g} ms): the profile "
                "underestimates this machine; fix its figures for a meaningful roofline",
            )
        ]
    return [
        Flag(
            "roofline_impossible",
            Severity.ERROR,
            f"{kernel_ms:.4g} ms is below the {bound.kind} roofline bound of {bound.ms:.4g} "
            f"ms on {bound.profile}: physically impossible, so the timed call did not do the "
            "work (cached result, pending work, or a broken timer)",
        )
    ]


def is_suspicious(result: EvalResult, threshold: float = SUSPICIOUS_SPEEDUP) -> bool:
    speedup = result.speedup_eager
    return speedup is not None and speedup > threshold


def reverify_trials(trials: int) -> int:
    return max(REVERIFY_MIN_TRIALS, trials * REVERIFY_TRIAL_FACTOR)


def fresh_seed() -> int:
    return secrets.randbelow(2**31 - 1)


def reverify_flag(first: EvalResult, again: EvalResult, seed: int, trials: int) -> Flag:
    speedup = first.speedup_eager or 0.0
    if again.accepted:
        return Flag(
            "suspicious_speedup",
            Severity.WARNING,
            f"{speedup:.1f}x over eager exceeds {SUSPICIOUS_SPEEDUP:g}x; re-verified in a "
            f"fresh process with {trials} trials, seed {seed}: it held up",
        )
    why = again.error or (again.mismatch.reason if again.mismatch else again.stage.value)
    errors = [f.name for f in again.flags if f.severity is Severity.ERROR]
    return Flag(
        "suspicious_speedup",
        Severity.ERROR,
        f"{speedup:.1f}x over eager exceeds {SUSPICIOUS_SPEEDUP:g}x and failed re-verification "
        f"in a fresh process ({trials} trials, seed {seed}): {again.stage.value}"
        + (f" [{', '.join(errors)}]" if errors else "")
        + f": {why[:300]}",
    )


def review(
    result: EvalResult,
    *,
    device_kind: str,
    dtype: str,
    trials: int,
    rerun: Callable[[int, int], EvalResult],
    threshold: float = SUSPICIOUS_SPEEDUP,
) -> EvalResult:
    """Apply the speed guards to a timed, baseline-attached result.

    `rerun(seed, trials)` evaluates the same candidate again in a fresh process.
    """
    if result.runtime is None or not result.accepted:
        return result
    bound = lower_bound(
        _profile(device_kind),
        result.flops,
        result.bytes_moved,
        dtype,
        result.runtime.method,
    )
    flags = roofline_flags(result, bound)
    result = result.add_flags(*flags)
    if not result.accepted or not is_suspicious(result, threshold):
        return result
    seed, n = fresh_seed(), reverify_trials(trials)
    log.info(
        "%s: %.1fx speedup; re-verifying (seed %d, %d trials)",
        result.task,
        result.speedup_eager or 0.0,
        seed,
        n,
    )
    again = rerun(seed, n)
    resources = {
        **result.resources,
        "reverify": {
            "seed": seed,
            "trials": n,
            "stage": again.stage.value,
            "runtime_ms": again.runtime_ms,
        },
    }
    return result.with_(resources=resources).add_flags(reverify_flag(result, again, seed, n))
