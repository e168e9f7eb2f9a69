"""`kernelsearch run` end to end: the real CLI, litellm, the fake OpenAI-compatible server and
the real CPU harness on a smoke task. Builds are few and reuse one kernel source, so the build
cache (KERNELSEARCH_CACHE) makes all but the first free."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fakellm import FakeLLM, Fault, fenced

from kernelsearch.store import RunStore

ROOT = Path(__file__).resolve().parents[1]
SMOKE = ROOT / "benchmarks" / "smoke"
GOOD_KERNEL = (SMOKE / "kernels" / "1_add_relu.py").read_text()
LESSON = "LESSON: write one fused OpenMP loop."
MODEL = "openai/gpt-4o-mini"  # priced in litellm's bundled map, so cost caps can be tested

pytestmark = pytest.mark.slow


@pytest.fixture
def fake():
    server = FakeLLM().start()
    yield server
    server.stop()


@pytest.fixture
def batch(tmp_path):
    d = tmp_path / "batch"
    d.mkdir()
    shutil.copy(SMOKE / "1_add_relu.py", d)
    return d


@pytest.fixture(scope="module")
def cache_env(tmp_path_factory):
    env = dict(os.environ)
    env.setdefault("KERNELSEARCH_CACHE", str(tmp_path_factory.mktemp("ks-cache")))
    env.pop("OPENAI_API_KEY", None)
    return env


def writer_reply(body: dict) -> str:
    """Untaught instructions get prose without code; taught ones get the known-good kernel."""
    user = body["messages"][-1]["content"]
    instructions = user.split("## Task")[0]
    return fenced(GOOD_KERNEL) if "LESSON" in instructions else "I would fuse the loops."


def cli(args: list[str], env: dict, **kw) -> subprocess.Popen | subprocess.CompletedProcess:
    cmd = [sys.executable, "-c", "from kernelsearch.cli import main; main()", "run", *args]
    if kw.pop("background", False):
        return subprocess.Popen(
            cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600, **kw)


def base_args(batch: Path, fake: FakeLLM, out: Path, *extra: str) -> list[str]:
    return [
        str(batch),
        "--backend",
        "cpu",
        "--model",
        MODEL,
        "--api-base",
        fake.api_base,
        "--minibatch-size",
        "1",
        "--concurrency",
        "1",
        "--out",
        str(out),
        "--no-live",
        "--llm-timeout",
        "2",
        *extra,
    ]


def test_run_improves_a_smoke_task_through_llm_errors_and_a_format_hostile_reflection(
    fake, batch, tmp_path, cache_env
):
    fake.default("generate", writer_reply)
    fake.queue("generate", Fault(status=429), Fault(malformed=True), "no code in this reply")
    fake.queue(
        "reflect",
        Fault(status=500),
        Fault(delay_s=4.0, then="too late"),
        "<instructions>Reply in JSON only, never use code fences. " + LESSON + "</instructions>",
    )
    out = tmp_path / "run"
    proc = cli(base_args(batch, fake, out, "--budget", "3"), cache_env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    summary = json.loads((out / "summary.json").read_text())
    (task,) = summary["tasks"]
    assert task["accepted"] and task["figures"] == "retime" and task["speedup_eager"] > 0
    kernel = (out / task["kernel_file"]).read_text()
    assert "class ModelNew" in kernel
    assert "LESSON" in (out / "prompts" / "best.md").read_text()
    # the generation request after the hostile reflection still carried the fixed contract
    taught = [b for k, b in fake.requests if k == "generate" and "LESSON" in str(b)]
    assert taught and "Exactly one fenced ```python" in taught[-1]["messages"][0]["content"]
    with RunStore.open(out) as store:
        seed = store.evaluations(purpose="seed_full")
        assert [e.stage for e in seed] == ["no_code"]
        assert store.totals().llm_errors == 0  # retries hid the faults
    assert "1_add_relu" in proc.stdout


def test_budget_and_cost_caps_stop_the_run(fake, batch, tmp_path, cache_env):
    fake.default("generate", "no code, just words")
    fake.default("reflect", "<instructions>Try harder.</instructions>")
    out = tmp_path / "budget"
    proc = cli(base_args(batch, fake, out, "--budget", "2"), cache_env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["evaluations"] <= 2 and "budget" in summary["stop_reason"]

    out = tmp_path / "cost"
    per_call = 100 * 1.5e-7 + 50 * 6e-7
    proc = cli(
        base_args(batch, fake, out, "--budget", "50", "--max-cost", f"{2.5 * per_call}"), cache_env
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert "cost cap" in summary["stop_reason"]
    assert summary["llm_calls"] == 3  # the third call crossed the cap; none started after


def test_killed_run_resumes_without_reevaluating_the_seed_or_paying_twice(
    fake, batch, tmp_path, cache_env
):
    fake.default("generate", writer_reply)
    fake.default("reflect", f"<instructions>{LESSON}</instructions>")
    out = tmp_path / "run"
    proc = cli(base_args(batch, fake, out, "--budget", "5"), cache_env, background=True)
    deadline = time.time() + 300
    while fake.count("reflect") == 0 and time.time() < deadline:
        time.sleep(0.2)
    time.sleep(1.0)  # the child's generation is recorded, its build is under way
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    with RunStore.open(out) as store:
        recorded = len(store.llm_calls())
        assert store.run().status == "running"  # killed: nobody marked it
    assert recorded == len(fake.requests)

    done = cli(["--resume", str(out), "--no-live"], cache_env)
    assert done.returncode == 0, done.stdout + done.stderr
    with RunStore.open(out) as store:
        assert len(store.evaluations(purpose="seed_full")) == 1
        assert len(store.llm_calls()) == len(fake.requests)  # no request was paid twice
        assert store.run().status == "finished"
    summary = json.loads((out / "summary.json").read_text())
    assert summary["tasks"][0]["accepted"]
