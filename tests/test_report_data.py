"""A hand-made run store that the report, export, leaderboard and HTML tests share.

`build_run()` writes a real `run.sqlite` through the store's own write API. The numbers each
test asserts are worked out by hand in `EXPECTED` from the table below.

Tasks (train = val): 1_relu, 2_matmul, 3_softmax, 4_conv, 5_layernorm (its evaluations were
lost, as after a kill -9). Candidates: #0 seed (pool), #1 mutation of #0 (pool), #2 mutation of
#1 (rejected at the gate). As in the engine, a pool child's minibatch runs are part of its
full scores. The run re-timed the top kernel (`retime_top_k=1`) of relu and matmul only.

| evaluation                | task      | verdict                | kernel/eager/compile ms |
|---------------------------|-----------|------------------------|-------------------------|
| #0 seed_full              | relu      | accepted               | 1.0 / 2.0 / 1.5         |
| #0 seed_full              | matmul    | incorrect              |                         |
| #0 seed_full              | softmax   | accepted               | 2.0 / 1.0 / 0.5         |
| #0 seed_full              | conv      | compile_failed         |                         |
| #0 parent_minibatch it. 1 | matmul    | incorrect              |                         |
| #1 child_minibatch it. 1  | matmul    | accepted (MM_FAST)     | 1.0 / 3.0 / 1.2         |
| #1 full it. 1             | relu      | accepted (RELU_FAST)   | 0.5 / 2.0 / 1.5         |
| #1 full it. 1             | softmax   | correct, guard error   | 0.1 / 1.0 / 0.5         |
| #1 full it. 1             | conv      | runtime_error          |                         |
| #1 parent_minibatch it. 2 | matmul    | accepted (MM_FULL)     | 1.5 / 3.0 / 1.2         |
| #1 parent_minibatch it. 2 | conv      | runtime_error          |                         |
| #2 child_minibatch it. 2  | matmul    | compile_failed         |                         |
| #2 child_minibatch it. 2  | conv      | accepted, warning flag | 4.0 / 4.0 / 2.0         |
| retime                    | relu      | RELU_FAST accepted     | 0.8 / 2.0 / 1.6         |
| retime                    | matmul    | MM_FAST incorrect      |                         |
| test (#1)                 | 9_gelu    | accepted, no compile   | 1.0 / 1.2 / -           |

Shown per task: relu = the retime (2.5x / 2.0x, prompt #1); matmul = MM_FULL (2.0x / 0.8x;
MM_FAST failed its re-time); softmax = the seed's (0.5x / 0.25x); conv = #2's (1.0x / 0.5x);
layernorm = nothing.
"""

from __future__ import annotations

import math
from pathlib import Path

from kernelsearch.result import EvalResult, Flag, Severity, Stage, TimingStats
from kernelsearch.search.config import SearchConfig
from kernelsearch.search.score import scored
from kernelsearch.store import RunStore

TASKS = ("1_relu", "2_matmul", "3_softmax", "4_conv", "5_layernorm")
TEST_TASKS = ("9_gelu",)
DEVICE = "test-cpu"
METHOD = "cpu_perf_counter"

RELU_SEED = "class ModelNew:  # relu seed\n    pass\n"
RELU_FAST = "class ModelNew:  # relu fast\n    pass\n"
MM_FAST = "class ModelNew:  # matmul fast but flaky\n    pass\n"
MM_FULL = "class ModelNew:  # matmul full\n    pass\n"
SOFTMAX_SEED = "class ModelNew:  # softmax seed\n    pass\n"
SOFTMAX_HACK = "class ModelNew:  # softmax calls torch.softmax\n    pass\n"
CONV_WARN = "class ModelNew:  # conv with a warning\n    pass\n"
GELU_TEST = "class ModelNew:  # gelu test\n    pass\n"

SEED_PROMPT = "Write fast kernels."
CHILD_PROMPT = "Write fast kernels. Tile matmuls; fuse elementwise ops."

EXPECTED = {
    "speedups_eager": {"1_relu": 2.5, "2_matmul": 2.0, "3_softmax": 0.5, "4_conv": 1.0},
    "speedups_compile": {"1_relu": 2.0, "2_matmul": 0.8, "3_softmax": 0.25, "4_conv": 0.5},
    "fast_p_eager": {
        "fast_0": 0.8,
        "fast_0.5": 0.6,
        "fast_0.8": 0.6,
        "fast_1": 0.4,
        "fast_1.5": 0.4,
        "fast_2": 0.2,
    },
    "fast_p_compile": {
        "fast_0": 0.8,
        "fast_0.5": 0.4,
        "fast_0.8": 0.2,
        "fast_1": 0.2,
        "fast_1.5": 0.2,
        "fast_2": 0.0,
    },
    "geomean_eager": 2.5**0.25,
    "geomean_compile": 0.2**0.25,
    "writer": {"1_relu": 1, "2_matmul": 1, "3_softmax": 0, "4_conv": 2},
    "figures": {
        "1_relu": "retime",
        "2_matmul": "search",
        "3_softmax": "search",
        "4_conv": "search",
        "5_layernorm": "none",
    },
    "frontier_wins": {0: ["3_softmax"], 1: ["1_relu", "2_matmul", "4_conv"]},
    "search_evaluations": 13,
    "cost_usd": 0.03,
}


def timing(ms: float) -> TimingStats:
    return TimingStats(ms, ms, 0.0, ms, ms, 10, METHOD)


def result(
    task: str,
    stage: Stage = Stage.CORRECT,
    times: tuple[float, float, float | None] | None = None,
    flags: tuple[Flag, ...] = (),
    error: str = "",
) -> EvalResult:
    kernel, eager, compile_ = times or (None, None, None)
    return EvalResult(
        task=task,
        backend="cpu",
        device=DEVICE,
        stage=stage,
        correct=stage is Stage.CORRECT,
        error=error,
        trials_run=5,
        trials_passed=5 if stage is Stage.CORRECT else 2,
        runtime=timing(kernel) if kernel is not None else None,
        baseline_eager=timing(eager) if eager is not None else None,
        baseline_compile=timing(compile_) if compile_ is not None else None,
        flags=flags,
    )


def add(
    store: RunStore,
    candidate: int | None,
    purpose: str,
    iteration: int,
    source: str,
    r: EvalResult,
) -> int:
    s = scored(r, "speed", "eager")
    return store.add_evaluation(
        candidate_id=candidate,
        task=r.task,
        purpose=purpose,
        iteration=iteration,
        source=source,
        result=r,
        score=s.score,
        score_margin=s.margin,
        llm_call_id=None,
    )


def _tasks(names: tuple[str, ...]) -> list[dict]:
    return [{"name": n, "path": f"/batch/{n}.py"} for n in names]


def build_run(
    run_dir: Path, run_id: str = "run-a", model: str = "openai/test-model", finished: bool = True
) -> Path:
    config = SearchConfig(budget=20, model=model, retime_top_k=1).to_dict()
    tasks = {"train": _tasks(TASKS), "val": [], "test": _tasks(TEST_TASKS)}
    store = RunStore.create(run_dir, run_id, config, tasks)
    try:
        _populate(store)
        if finished:
            store.set_status("finished")
    finally:
        store.close()
    return run_dir


def _populate(store: RunStore) -> None:
    store.put_candidate(0, {"instructions": SEED_PROMPT}, (), "seed", 0, 0, "pool")
    add(store, 0, "seed_full", 0, RELU_SEED, result("1_relu", times=(1.0, 2.0, 1.5)))
    add(store, 0, "seed_full", 0, "class ModelNew: wrong", result("2_matmul", Stage.INCORRECT))
    add(store, 0, "seed_full", 0, SOFTMAX_SEED, result("3_softmax", times=(2.0, 1.0, 0.5)))
    add(
        store,
        0,
        "seed_full",
        0,
        "class ModelNew: broken",
        result("4_conv", Stage.COMPILE_FAILED, error="error: expected ';'"),
    )

    store.put_candidate(1, {"instructions": CHILD_PROMPT}, (0,), "mutation", 1, 4, "pool")
    add(
        store,
        0,
        "parent_minibatch",
        1,
        "class ModelNew: wrong2",
        result("2_matmul", Stage.INCORRECT),
    )
    add(store, 1, "child_minibatch", 1, MM_FAST, result("2_matmul", times=(1.0, 3.0, 1.2)))
    add(store, 1, "full", 1, RELU_FAST, result("1_relu", times=(0.5, 2.0, 1.5)))
    hack = Flag("torch_op_call", Severity.ERROR, "calls torch.softmax")
    softmax_hack = result("3_softmax", times=(0.1, 1.0, 0.5), flags=(hack,), error="guard")
    add(store, 1, "full", 1, SOFTMAX_HACK, softmax_hack)
    add(store, 1, "full", 1, "class ModelNew: crash", result("4_conv", Stage.RUNTIME_ERROR))

    child = CHILD_PROMPT + " Use im2col."
    store.put_candidate(2, {"instructions": child}, (1,), "mutation", 2, 9, "rejected")
    add(store, 1, "parent_minibatch", 2, MM_FULL, result("2_matmul", times=(1.5, 3.0, 1.2)))
    add(
        store,
        1,
        "parent_minibatch",
        2,
        "class ModelNew: crash",
        result("4_conv", Stage.RUNTIME_ERROR),
    )
    add(
        store,
        2,
        "child_minibatch",
        2,
        "class ModelNew: typo",
        result("2_matmul", Stage.COMPILE_FAILED),
    )
    warn = Flag("small_output", Severity.WARNING, "outputs are near zero")
    conv = result("4_conv", times=(4.0, 4.0, 2.0), flags=(warn,))
    add(store, 2, "child_minibatch", 2, CONV_WARN, conv)

    add(store, None, "retime", -2, RELU_FAST, result("1_relu", times=(0.8, 2.0, 1.6)))
    add(store, None, "retime", -2, MM_FAST, result("2_matmul", Stage.INCORRECT))
    add(store, 1, "test", -1, GELU_TEST, result("9_gelu", times=(1.0, 1.2, None)))

    for cost, known, error in [
        (0.01, True, ""),
        (0.02, True, ""),
        (0.0, False, ""),
        (0.0, True, "429"),
    ]:
        store.add_llm_call(
            request_hash=f"h{cost}{error}",
            model="openai/test-model",
            purpose="generate",
            iteration=1,
            request={"messages": []},
            response_text="...",
            tokens_in=100,
            tokens_out=50,
            cost_usd=cost,
            cost_known=known,
            latency_s=0.1,
            attempts=1,
            error=error,
        )


def test_built_run_store_holds_the_table_of_the_module_doc(tmp_path):
    run = build_run(tmp_path / "run")
    with RunStore.open(run) as store:
        assert store.totals().evaluations == EXPECTED["search_evaluations"]
        assert math.isclose(store.totals().cost_usd, EXPECTED["cost_usd"])
        assert [c.status for c in store.candidates()] == ["pool", "pool", "rejected"]
        assert len(store.evaluations(purpose="retime")) == 2
