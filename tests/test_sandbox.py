"""The sandbox: every failure mode costs one job, never the orchestrator or the next job."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from kernelsearch.harness import isolation
from kernelsearch.harness.sandbox import Limits, Sandbox

TESTS = Path(__file__).resolve().parent
ENV = {"PYTHONPATH": os.pathsep.join([str(TESTS), str(TESTS.parent)])}
SECRET = "sk-kernelsearch-test-7f3a9c"


@pytest.fixture(scope="module")
def sandbox():
    with Sandbox() as sb:
        yield sb


def run(sb: Sandbox, fn: str, timeout: float = 60, **payload):
    return sb.run(f"sandbox_jobs:{fn}", payload, Limits(timeout_s=timeout, memory_mb=1024), env=ENV)


def test_job_runs_in_its_own_scratch_home_and_process(sandbox: Sandbox) -> None:
    a, b = run(sandbox, "hello"), run(sandbox, "hello")
    assert a.ok and b.ok
    assert a.result["pid"] != b.result["pid"] != os.getpid()
    assert a.result["home"] == a.result["cwd"] != b.result["cwd"]


def test_hang_ends_as_timeout_and_next_job_runs(sandbox: Sandbox) -> None:
    out = run(sandbox, "hang", timeout=2)
    assert out.timed_out and out.result is None
    assert "timed out" in out.describe()
    assert run(sandbox, "hello").ok


def test_segfault_is_reported_with_the_signal(sandbox: Sandbox) -> None:
    out = run(sandbox, "segfault")
    assert out.signal == signal.SIGSEGV and out.result is None
    assert "SIGSEGV" in out.describe()
    assert run(sandbox, "hello").ok


def test_os_exit_is_reported_with_the_exit_code(sandbox: Sandbox) -> None:
    out = run(sandbox, "hard_exit")
    assert out.exit_code == 3 and out.result is None
    assert run(sandbox, "hello").ok


def test_oom_is_stopped_by_the_memory_limit(sandbox: Sandbox) -> None:
    out = run(sandbox, "oom")
    assert out.result is None
    assert "MemoryError" in out.stderr
    assert run(sandbox, "hello").ok


def test_credentials_are_scrubbed_from_the_environment() -> None:
    env = isolation.scrubbed_env(
        {
            "OPENAI_API_KEY": "x",
            "HF_TOKEN": "y",
            "AWS_SECRET_ACCESS_KEY": "z",
            "LITELLM_MASTER_KEY": "w",
            "PATH": "/bin",
            "MY_SECRET": "s",
        }
    )
    assert env == {"PATH": "/bin"}


def test_kernel_cannot_find_credentials_in_env_parent_environ_or_home(tmp_path: Path) -> None:
    """A worker hunts for a planted secret: its env, the orchestrator's environ, HOME files."""
    home = tmp_path / "home"
    (home / ".aws").mkdir(parents=True)
    (home / ".aws" / "credentials").write_text(f"aws_secret_access_key={SECRET}\n")
    (home / ".netrc").write_text(f"machine api password {SECRET}\n")
    script = f"""
import json, os, sys
sys.path[:0] = {[str(TESTS), str(TESTS.parent)]!r}
from kernelsearch.harness.sandbox import Limits, Sandbox
with Sandbox() as sb:
    out = sb.run("sandbox_jobs:hunt_credentials",
                 {{"secret": {SECRET!r}, "orchestrator_pid": os.getpid(), "real_home": {str(home)!r}}},
                 Limits(timeout_s=60), env={ENV!r})
    print(json.dumps({{"result": out.result, "stderr": out.stderr[-500:]}}))
"""
    env = {**os.environ, "HOME": str(home), "OPENAI_API_KEY": SECRET, "ANTHROPIC_API_KEY": SECRET}
    proc = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    import json

    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["result"] is not None, report["stderr"]
    assert report["result"]["found"] == []


def test_fork_server_started_from_a_short_lived_thread_survives_it() -> None:
    """The server must outlive the thread that started it (pool threads come and go)."""
    import threading

    with Sandbox() as sb:
        first: list = []
        t = threading.Thread(target=lambda: first.append(run(sb, "hello")))
        t.start()
        t.join()
        assert first[0].ok
        import time

        time.sleep(0.5)  # a death signal tied to the thread would have landed by now
        assert run(sb, "hello").ok
        assert sb.server_starts == 1


def test_a_job_that_kills_the_fork_server_costs_only_itself(sandbox: Sandbox) -> None:
    out = run(sandbox, "kill_fork_server", timeout=30)
    assert out.result is None and not out.timed_out and out.server_died
    assert run(sandbox, "hello").ok


def test_fork_server_preload_leaves_cuda_forkable() -> None:
    """On a CUDA machine, importing torch.utils.cpp_extension before fork leaves children
    unable to use CUDA ("Cannot re-initialize CUDA in forked subprocess", seen on an H200):
    the preload must never pull it in, directly or through our own modules."""
    from kernelsearch.harness.sandbox import PRELOAD

    code = (
        "import importlib, sys\n"
        f"for m in {list(PRELOAD)!r}: importlib.import_module(m)\n"
        "print('torch.utils.cpp_extension' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=str(TESTS.parent),
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False"]
