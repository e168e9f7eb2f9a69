"""Harness overhead: a built kernel evaluated through the sandbox vs the same work in-process.

Two figures, measured in one run on the same machine:
1. overhead ratio = sandboxed eval wall time / in-process eval wall time, for a kernel whose
   timing loop takes >= 1 s (goal <= 1.10);
2. cached re-evaluation of a smoke task end to end (static checks, cached build, fresh
   process, correctness, timing, cached baselines): goal < 1 s.

Run: python benchmarks/perf/harness_overhead.py [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

from kernelsearch.config import EvalConfig, default_cache_dir
from kernelsearch.harness import worker
from kernelsearch.harness.evaluate import Harness
from kernelsearch.tasks import load_task

REPO = Path(__file__).resolve().parents[2]
TASK = REPO / "benchmarks" / "smoke" / "1_add_relu.py"
KERNEL = REPO / "benchmarks" / "smoke" / "kernels" / "1_add_relu.py"
BIG = {"ROWS": 4096, "COLS": 4096}  # ~200 MB moved per forward: a loop of >= 1 s
REPEATS = 3


def in_process(harness: Harness, task, source: str) -> float:
    payload = harness._payload(task, source)
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory() as scratch:
        os.chdir(scratch)
        try:
            start = time.perf_counter()
            result = worker.eval_job(payload)
            wall = time.perf_counter() - start
        finally:
            os.chdir(cwd)
    assert result["stage"] == "correct", result.get("error")
    return wall


def measure(cache_dir: Path) -> dict:
    source = KERNEL.read_text()
    small = load_task(TASK)
    big = small.with_sizes(BIG)
    config = EvalConfig(backend="cpu", cache_dir=cache_dir, timing_trials=60, warmup=3)
    with Harness(config) as harness:
        assert harness.evaluate(small, source).accepted  # builds once, caches baselines
        sandboxed, inproc, loops = [], [], []
        for _ in range(REPEATS):
            start = time.perf_counter()
            r = harness.run(big, source)
            sandboxed.append(time.perf_counter() - start)
            loops.append(r.runtime.mean * r.runtime.trials / 1e3)
            inproc.append(in_process(harness, big, source))
        cached = []
        for _ in range(REPEATS):
            start = time.perf_counter()
            assert harness.evaluate(small, source).accepted
            cached.append(time.perf_counter() - start)
    return {
        "timing_loop_s": statistics.median(loops),
        "sandboxed_eval_s": statistics.median(sandboxed),
        "in_process_eval_s": statistics.median(inproc),
        "overhead_ratio": statistics.median(sandboxed) / statistics.median(inproc),
        "cached_reeval_s": statistics.median(cached),
        "goal_overhead_ratio": 1.10,
        "goal_cached_reeval_s": 1.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args()
    figures = measure(default_cache_dir())
    text = json.dumps(figures, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text)


if __name__ == "__main__":
    main()
