"""pytest-benchmark: `pytest benchmarks/engine_throughput` (needs `pip install gepa`).
Records both engines' times and prints the ratio; asserts no timing."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

pytest.importorskip("gepa")

import sim  # noqa: E402


def test_kernelsearch_engine(benchmark):
    out = benchmark.pedantic(sim.run_kernelsearch, rounds=1, iterations=1)
    benchmark.extra_info.update(evals_per_minute=out.evals_per_minute, busy=out.busy_fraction)
    assert out.evaluations > 0


def test_gepa_optimize(benchmark):
    out = benchmark.pedantic(sim.run_gepa, rounds=1, iterations=1)
    benchmark.extra_info.update(evals_per_minute=out.evals_per_minute, busy=out.busy_fraction)
    assert out.evaluations > 0


def test_ratio_in_one_run(benchmark):
    ours, theirs = benchmark.pedantic(sim.compare, rounds=1, iterations=1)
    ratio = ours.evals_per_minute / theirs.evals_per_minute
    benchmark.extra_info.update(
        ratio=ratio, busy_kernelsearch=ours.busy_fraction, busy_gepa=theirs.busy_fraction
    )
    print(
        f"\nthroughput ratio {ratio:.2f}x; busy {ours.busy_fraction:.0%} vs "
        f"{theirs.busy_fraction:.0%}"
    )
