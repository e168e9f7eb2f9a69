"""A whole search on a real GPU: the engine, the harness's GPU executor, real Triton and CUDA
kernels timed with CUDA events, feedback with the GPU's roofline, the end-of-run re-time.

The LLM is a scripted in-process model (litellm is not needed on GPU machines): it writes the
committed fixture kernels, a slower variant until a reflection has taught it LESSON.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from kernelsearch.bests import FIGURES_RETIME
from kernelsearch.config import EvalConfig
from kernelsearch.hardware import gpu_device_name, match_profile
from kernelsearch.llm import LLMReply, LLMSettings
from kernelsearch.search import SearchConfig, run_async
from kernelsearch.store import RunStore
from kernelsearch.tasks import load_task
from tests.fakellm import kind_of

pytestmark = pytest.mark.gpu

ROOT = Path(__file__).resolve().parents[2]
SMOKE = ROOT / "benchmarks" / "smoke"
FIXTURES = ROOT / "tests" / "fixtures" / "kernels"
TASK_MARKERS = {"torch.relu(a + b)": "1_add_relu", "softmax": "2_row_softmax"}


class FixtureWriter:
    """Writes the fixture kernel of the task in the prompt; before LESSON, a variant with a
    smaller block (add_relu only) so the search has two different kernels to choose from."""

    def __init__(self, backend: str) -> None:
        self.settings = LLMSettings(model="scripted")
        self.backend = backend
        self.reflect_prompts: list[str] = []

    def kernel(self, prompt: str) -> str:
        instructions, _, task_part = prompt.partition("## Task")
        name = next(n for marker, n in TASK_MARKERS.items() if marker in task_part)
        source = (FIXTURES / self.backend / f"{name}.py").read_text()
        if self.backend == "triton" and "LESSON" not in instructions:
            source = source.replace("block = 1024", "block = 256")
        return source

    async def complete(self, messages, *, purpose):  # type: ignore[no-untyped-def]
        kind = kind_of({"messages": messages})
        if kind == "generate":
            text = f"```python\n{self.kernel(messages[-1]['content'])}\n```"
        else:
            self.reflect_prompts.append("\n".join(m["content"] for m in messages))
            text = "<instructions>LESSON: one block of 1024 elements per program.</instructions>"
        return LLMReply(text=text, model="scripted", tokens_in=10, tokens_out=5)


def search(tmp_path: Path, backend: str, task_files: list[str], budget: int):
    cache = os.environ.get("KERNELSEARCH_CACHE")
    evalcfg = EvalConfig(backend=backend)
    if cache:
        evalcfg = evalcfg.replace(cache_dir=Path(cache))
    config = SearchConfig(
        backend=backend,
        budget=budget,
        minibatch_size=1,
        concurrency=2,
        use_merge=False,
        retime_top_k=1,
        retime_trials=2,
        seed=1,
        eval=evalcfg,
    )
    writer = FixtureWriter(backend)
    tasks = [load_task(SMOKE / f) for f in task_files]
    summary = asyncio.run(
        run_async(tasks, config, out=tmp_path / "run", writer=writer, reflector=writer)
    )
    return summary, writer


def check_gpu_run(summary, tmp_path: Path) -> None:
    assert summary.objective == "speed" and summary.status == "finished", summary.stop_reason
    with RunStore.open(tmp_path / "run") as store:
        evaluations = store.evaluations()
    assert evaluations
    for e in evaluations:
        assert e.accepted, (e.task, e.stage, e.result.error)
        assert e.result.interpreted is False
        assert e.result.runtime.method.startswith("cuda_event_l2_flush")
        assert e.result.baseline_eager is not None
    for best in summary.tasks:
        assert best.accepted and best.figures == FIGURES_RETIME, best
        assert best.timing_method.startswith("cuda_event") and best.speedup_eager > 0
        assert "ModelNew" in (tmp_path / "run" / best.kernel_file).read_text()


def test_triton_search_on_the_gpu_times_retimes_and_feeds_back_the_roofline(tmp_path):
    summary, writer = search(tmp_path, "triton", ["1_add_relu.py", "2_row_softmax.py"], budget=8)
    check_gpu_run(summary, tmp_path)
    assert writer.reflect_prompts, "no reflection ran"
    feedback = "\n".join(writer.reflect_prompts)
    assert "vs eager PyTorch" in feedback
    if match_profile(gpu_device_name() or "", kind="gpu") is not None:
        assert "Roofline (" in feedback and "of peak bandwidth" in feedback


def test_cuda_search_on_the_gpu_times_and_retimes(tmp_path):
    summary, _ = search(tmp_path, "cuda", ["1_add_relu.py"], budget=4)
    check_gpu_run(summary, tmp_path)
