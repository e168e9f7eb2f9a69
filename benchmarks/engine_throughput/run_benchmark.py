"""Print kernelsearch vs gepa.optimize throughput on the simulated workload (one run each).

    python benchmarks/engine_throughput/run_benchmark.py

Needs the benchmark-only dependency `pip install gepa`.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import contextlib  # noqa: E402
import io  # noqa: E402
import logging  # noqa: E402

import sim  # noqa: E402


def main() -> None:
    logging.disable(logging.WARNING)
    print(f"simulated workload: budget {sim.BUDGET} evaluations, {sim.WORKERS} workers")
    for profile, latencies in sim.PROFILES.items():
        sim.set_profile(profile)
        with contextlib.redirect_stdout(io.StringIO()):  # gepa prints every iteration
            ours, theirs = sim.compare()
        print(f"profile {profile} (generate, reflect, build, run s/1000 = {latencies}):")
        report(ours, theirs)


def report(ours: sim.Outcome, theirs: sim.Outcome) -> None:
    for o in (ours, theirs):
        print(
            f"  {o.engine:14s} {o.evaluations:4d} evals in {o.wall_s:6.2f}s = "
            f"{o.evals_per_minute:8.0f} evals/min, workers busy {o.busy_fraction:6.1%}, "
            f"best mean score {o.best_mean_score:.3f}"
        )
    print(
        f"throughput ratio (kernelsearch / gepa): {ours.evals_per_minute / theirs.evals_per_minute:.2f}x"
    )


if __name__ == "__main__":
    main()
