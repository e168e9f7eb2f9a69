"""Simulated kernel search: LLM, build and run latencies (scaled from seconds to milliseconds)
and a kernel-quality model, driven once through kernelsearch's engine and once through
`gepa.optimize`, with the same four evaluation workers and the same evaluation budget.

Quality model: a prompt carries `quality=Q`. A kernel written with it is correct with
probability min(0.95, 0.3 + Q) and, when correct, runs at speedup ~ 2Q x task factor x noise.
Reflection moves Q by a Gaussian step (mean +0.05, sd 0.1). Both engines score kernels with
`kernelsearch.search.score.score`, so they optimise the same number. One run's best mean
score varies by about 0.03-0.05 between seeds: compare means over several seeds.

Latency profiles (ms stand for s; a worker is held for build + run), from GEPA.md's ranges
(LLM 10-60 s, compile 30-80 s): `mid` takes the middle of both, `llm_heavy` slow LLM replies
with quick builds, `build_heavy` the reverse. `set_profile()` picks one.

gepa's adapter is by default the best case for gepa: every task of a batch writes its kernel at
once and only build + run wait for one of the four workers (`run_gepa(plain=True)`: four
threads that each write, build and run a task). gepa still runs one stage at a time, so
its workers idle during reflection and generation; no engine can finish evaluations faster
than four always-busy workers, so `1 / gepa busy fraction` bounds the achievable ratio.
"""

from __future__ import annotations

import asyncio
import random
import re
import tempfile
import threading
import time
import zlib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from kernelsearch.llm import LLMReply, LLMSettings
from kernelsearch.result import EvalResult, Stage, TimingStats
from kernelsearch.search import SearchConfig, run_async
from kernelsearch.search.config import DEFAULT_CONCURRENCY
from kernelsearch.search.score import score
from kernelsearch.tasks import Task

PROFILES = {  # generation, reflection, build, run (seconds, scaled down 1000x)
    "mid": (0.035, 0.035, 0.055, 0.005),
    "llm_heavy": (0.060, 0.060, 0.035, 0.005),
    "build_heavy": (0.015, 0.020, 0.080, 0.005),
}
GENERATE_S, REFLECT_S, BUILD_S, RUN_S = PROFILES["mid"]
WORKERS = 4
N_TASKS = 8
MINIBATCH = 3
BUDGET = 300
SEED_QUALITY = 0.3
_Q = re.compile(r"quality=([\d.]+)")
_KERNEL = re.compile(r"# task=(\S+) correct=(\d) speed=([\d.]+)")


def set_profile(name: str) -> None:
    global GENERATE_S, REFLECT_S, BUILD_S, RUN_S
    GENERATE_S, REFLECT_S, BUILD_S, RUN_S = PROFILES[name]


def quality_of(text: str) -> float:
    m = _Q.search(text)
    return float(m.group(1)) if m else SEED_QUALITY


def write_kernel(task: str, q: float, rng: random.Random) -> str:
    correct = rng.random() < min(0.95, 0.3 + q)
    factor = 0.5 + (zlib.crc32(task.encode()) % 7) / 7  # str hash() differs per process
    speed = max(0.05, 2 * q * factor * rng.lognormvariate(0, 0.2))
    return f"# task={task} correct={int(correct)} speed={speed:.4f}\nclass ModelNew: pass\n"


def reflect_quality(q: float, rng: random.Random) -> float:
    return min(1.5, max(0.0, q + rng.gauss(0.05, 0.1)))


def kernel_result(source: str) -> EvalResult:
    task, correct, speed = _KERNEL.search(source).groups()
    t = lambda ms: TimingStats(ms, ms, 0.0, ms, ms, 10, "sim")  # noqa: E731
    if correct == "0":
        return EvalResult(task, "cpu", "sim", Stage.INCORRECT, trials_run=5)
    return EvalResult(
        task,
        "cpu",
        "sim",
        Stage.CORRECT,
        correct=True,
        runtime=t(1.0 / float(speed)),
        baseline_eager=t(1.0),
        baseline_compile=t(1.0),
    )


class WorkerMeter:
    """Counts seconds the evaluation workers are held, and when the last evaluation ended.

    An engine's wall time runs from its start to the end of its last evaluation: what either
    does afterwards (kernelsearch writes its results directory, ~0.2 s) is fixed work that does
    not scale with the simulated latencies, so it would count 1000x too much here.
    """

    def __init__(self) -> None:
        self.busy_s = 0.0
        self.evals = 0
        self.last_end = 0.0
        self._lock = threading.Lock()

    def add(self, start: float, end: float) -> None:
        with self._lock:
            self.busy_s += end - start
            self.evals += 1
            self.last_end = max(self.last_end, end)

    def outcome(self, engine: str, start: float, best: float) -> Outcome:
        wall = self.last_end - start
        return Outcome(engine, self.evals, wall, self.busy_s / (WORKERS * wall), best)


@dataclass(frozen=True)
class Outcome:
    engine: str
    evaluations: int
    wall_s: float
    busy_fraction: float
    best_mean_score: float

    @property
    def evals_per_minute(self) -> float:
        return self.evaluations / self.wall_s * 60


# ---- kernelsearch ----------------------------------------------------------------------


class SimExecutor:
    backend = "cpu"

    def __init__(self, meter: WorkerMeter) -> None:
        self.meter = meter
        self.slots = asyncio.Semaphore(WORKERS)

    def can_time(self) -> bool:
        return True

    async def evaluate(self, task: Task, source: str) -> EvalResult:
        async with self.slots:
            start = time.perf_counter()
            await asyncio.sleep(BUILD_S + RUN_S)
            self.meter.add(start, time.perf_counter())
        return kernel_result(source)

    async def retime(self, task: Task, source: str, trials: int) -> EvalResult:
        return kernel_result(source)

    async def aclose(self) -> None:
        pass


class SimModel:
    settings = LLMSettings(model="sim")

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    async def complete(self, messages, *, purpose):  # type: ignore[no-untyped-def]
        text = messages[-1]["content"]
        if "Improve the instructions" in text:
            await asyncio.sleep(REFLECT_S)
            current = text.split("<instructions>")[1].split("</instructions>")[0]
            q = reflect_quality(quality_of(current), self.rng)
            return LLMReply(f"<instructions>quality={q:.4f}</instructions>", "sim")
        await asyncio.sleep(GENERATE_S)
        task = re.search(r"replace \(`([^`]+)`\)", text).group(1)
        q = quality_of(text.split("## Task")[0])
        return LLMReply(f"```python\n{write_kernel(task, q, self.rng)}```", "sim")


def sim_tasks(root: Path) -> list[Task]:
    src = (
        "import torch\nimport torch.nn as nn\n\nclass Model(nn.Module):\n"
        "    def forward(self, x):\n        return x\n\n"
        "def get_inputs():\n    return [torch.randn(4)]\n\ndef get_init_inputs():\n    return []\n"
    )
    out = []
    for i in range(N_TASKS):
        p = root / f"{i}_sim.py"
        p.write_text(src)
        out.append(Task(name=p.stem, path=p, source=src))
    return out


def run_kernelsearch(
    concurrency: int = DEFAULT_CONCURRENCY, seed: int = 0, max_time_s: float | None = None
) -> Outcome:
    """One search with the evaluation budget, or, given `max_time_s`, as long as that lasts."""
    meter = WorkerMeter()
    model = SimModel(seed)
    with tempfile.TemporaryDirectory() as tmp:
        tasks = sim_tasks(Path(tmp))
        config = SearchConfig(
            budget=BUDGET if max_time_s is None else 100 * BUDGET,
            max_time_s=max_time_s,
            minibatch_size=MINIBATCH,
            concurrency=concurrency,
            use_merge=False,
            seed=seed,
            seed_instructions=f"quality={SEED_QUALITY}",
            retime_top_k=0,
        )
        start = time.perf_counter()
        summary = asyncio.run(
            run_async(
                tasks,
                config,
                out=Path(tmp) / "run",
                executor=SimExecutor(meter),
                writer=model,
                reflector=model,
                feedback=lambda r: f"stage {r.stage.value}",
            )
        )
    best = max(c.aggregate for c in summary.candidates)
    return meter.outcome(f"kernelsearch c={concurrency}", start, best)


# ---- gepa.optimize ---------------------------------------------------------------------


class SimGepaAdapter:
    """A gepa adapter whose evaluate() runs the batch on four parallel workers.

    Pipelined (gepa's best case): every task of the batch writes its kernel at once and only
    build + run wait for a worker. Plain: four threads, each writes, builds and runs one task,
    the adapter a user writes first.
    """

    def __init__(self, meter: WorkerMeter, seed: int, plain: bool = False) -> None:
        self.meter = meter
        self.rng = random.Random(seed)
        self.rng_lock = threading.Lock()
        self.workers = threading.Semaphore(WORKERS)
        self.pool = ThreadPoolExecutor(max_workers=WORKERS if plain else 4 * WORKERS)
        self.propose_new_texts = None

    def _one(self, task: str, q: float) -> tuple[str, float]:
        time.sleep(GENERATE_S)
        with self.rng_lock:
            source = write_kernel(task, q, self.rng)
        with self.workers:
            start = time.perf_counter()
            time.sleep(BUILD_S + RUN_S)
            self.meter.add(start, time.perf_counter())
        return source, score(kernel_result(source))

    def evaluate(self, batch, candidate, capture_traces=False):  # type: ignore[no-untyped-def]
        from gepa.core.adapter import EvaluationBatch

        q = quality_of(candidate["instructions"])
        results = list(self.pool.map(lambda t: self._one(t, q), batch))
        outputs = [r[0] for r in results]
        scores = [r[1] for r in results]
        traces = [{"task": t, "kernel": o} for t, o in zip(batch, outputs)]
        return EvaluationBatch(outputs, scores, traces if capture_traces else None)

    def make_reflective_dataset(self, candidate, eval_batch, components_to_update):  # type: ignore[no-untyped-def]
        rows = [
            {"Inputs": tr["task"], "Generated Outputs": tr["kernel"], "Feedback": f"score {s}"}
            for tr, s in zip(eval_batch.trajectories or [], eval_batch.scores)
        ]
        return {name: rows for name in components_to_update}


def run_gepa(seed: int = 0, plain: bool = False) -> Outcome:
    import gepa

    meter = WorkerMeter()
    adapter = SimGepaAdapter(meter, seed, plain)
    rng = random.Random(seed + 1)

    def reflection_lm(prompt: str) -> str:
        time.sleep(REFLECT_S)
        q = reflect_quality(quality_of(prompt), rng)
        return f"```\nquality={q:.4f}\n```"

    tasks = [f"{i}_sim" for i in range(N_TASKS)]
    start = time.perf_counter()
    result = gepa.optimize(
        seed_candidate={"instructions": f"quality={SEED_QUALITY}"},
        trainset=tasks,
        valset=tasks,
        adapter=adapter,
        reflection_lm=reflection_lm,
        reflection_minibatch_size=MINIBATCH,
        max_metric_calls=BUDGET,
        perfect_score=2.0,
        skip_perfect_score=False,
        use_merge=False,
        seed=seed,
    )
    best = max(result.val_aggregate_scores)
    return meter.outcome("gepa.optimize" + (", plain adapter" if plain else ""), start, best)


def compare(seed: int = 0, concurrency: int = DEFAULT_CONCURRENCY) -> tuple[Outcome, Outcome]:
    return run_kernelsearch(concurrency, seed), run_gepa(seed=seed)
