"""pytest-benchmark entry for the harness-overhead figures (ratios, measured in one run).

Run: pytest benchmarks/perf/test_harness_overhead.py --benchmark-only
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from benchmarks.perf.harness_overhead import measure


@pytest.mark.slow
def test_harness_overhead(benchmark) -> None:
    cache = Path(os.environ.get("KERNELSEARCH_CACHE", Path.home() / ".cache" / "kernelsearch"))
    figures = benchmark.pedantic(measure, args=(cache,), rounds=1, iterations=1)
    benchmark.extra_info.update(figures)
    print(figures)
