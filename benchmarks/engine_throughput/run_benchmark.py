"""kernelsearch vs gepa.optimize on the simulated workload, every profile, several seeds.

    python benchmarks/engine_throughput/run_benchmark.py [--seeds 5] [--profile P] [--concurrency C]

Per profile and seed, in one process: gepa.optimize (with its best-case adapter, and with a
plain one); kernelsearch at the default concurrency (4 iterations in flight) and at 8 (or at
each `--concurrency`); and kernelsearch at the default concurrency stopped after gepa's wall
time (`--max-time`), which shows what the extra throughput buys. Prints means over the seeds. Needs the benchmark-only dependency `pip install gepa`.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import argparse  # noqa: E402
import contextlib  # noqa: E402
import io  # noqa: E402
import logging  # noqa: E402
import statistics  # noqa: E402

import sim  # noqa: E402

CONCURRENCIES = (sim.DEFAULT_CONCURRENCY, 2 * sim.WORKERS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--profile", choices=sorted(sim.PROFILES), action="append")
    parser.add_argument(
        "--concurrency", type=int, action="append", help=f"default: {CONCURRENCIES}"
    )
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    print(
        f"simulated workload: budget {sim.BUDGET} evaluations, {sim.WORKERS} workers, "
        f"{sim.N_TASKS} tasks, minibatch {sim.MINIBATCH}, {args.seeds} seeds"
    )
    for profile in args.profile or list(sim.PROFILES):
        sim.set_profile(profile)
        print(
            f"\nprofile {profile} (generate, reflect, build, run in s/1000 = "
            f"{sim.PROFILES[profile]}):"
        )
        runs: dict[str, list[sim.Outcome]] = {}
        for seed in range(args.seeds):
            with contextlib.redirect_stdout(io.StringIO()):  # gepa prints every iteration
                gepa = sim.run_gepa(seed=seed)
                runs.setdefault("gepa.optimize", []).append(gepa)
                plain = sim.run_gepa(seed=seed, plain=True)
                runs.setdefault("gepa.optimize, plain adapter", []).append(plain)
                for c in args.concurrency or CONCURRENCIES:
                    runs.setdefault(f"kernelsearch c={c}", []).append(sim.run_kernelsearch(c, seed))
                same_wall = sim.run_kernelsearch(seed=seed, max_time_s=gepa.wall_s)
                runs.setdefault(
                    f"kernelsearch c={sim.DEFAULT_CONCURRENCY}, gepa's wall time", []
                ).append(same_wall)
        report(runs)


def report(runs: dict[str, list[sim.Outcome]]) -> None:
    gepa_rate = mean(runs["gepa.optimize"], "evals_per_minute")
    gepa_busy = mean(runs["gepa.optimize"], "busy_fraction")
    for name, outs in runs.items():
        rate = mean(outs, "evals_per_minute")
        scores = [o.best_mean_score for o in outs]
        spread = statistics.pstdev(scores) if len(scores) > 1 else 0.0
        print(
            f"  {name:36s} {mean(outs, 'evaluations'):5.0f} evals, {rate:6.0f} evals/min "
            f"({rate / gepa_rate:4.2f}x gepa), workers busy {mean(outs, 'busy_fraction'):6.1%}, "
            f"best mean score {statistics.mean(scores):.3f} ± {spread:.3f}"
        )
    print(f"  ceiling for any engine with these workers: {1 / gepa_busy:.2f}x gepa (best case)")
    plain_rate = mean(runs["gepa.optimize, plain adapter"], "evals_per_minute")
    vs_plain = ", ".join(
        f"{name} {mean(outs, 'evals_per_minute') / plain_rate:.2f}x"
        for name, outs in runs.items()
        if name.startswith("kernelsearch")
    )
    print(f"  against the plain adapter: {vs_plain}")


def mean(outs: list[sim.Outcome], attr: str) -> float:
    return statistics.mean(getattr(o, attr) for o in outs)


if __name__ == "__main__":
    main()
