"""Run harness jobs in isolated, limited, disposable processes.

`Sandbox.run(fn, payload, ...)` forks a fresh child from the warm fork server (zygote), waits
with a wall-clock limit, kills the whole process group on timeout (compiler children too), and
returns an `Outcome` describing how the process ended. Thread-safe: many jobs may be in flight.
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kernelsearch.harness import isolation
from kernelsearch.harness.zygote import RESULT_FILE, STDERR_FILE, STDOUT_FILE

log = logging.getLogger(__name__)

OUTPUT_TAIL_CHARS = 8000  # captured stdout/stderr kept per job
WATCHDOG_PERIOD_S = 0.25
# Imported once by the fork server so no job pays for them (torch._dynamo alone is ~1.5 s,
# pulled in by torch.set_num_threads and the guards). Importing runs no ops: no thread pools
# or CUDA state exist before fork. Not torch.utils.cpp_extension: on a CUDA machine its
# import leaves the process unable to fork a child that uses CUDA (seen on an H200).
PRELOAD = (
    "torch",
    "torch._dynamo",
    "torch.utils.flop_counter",
    "kernelsearch.harness.worker",
)


@dataclass(frozen=True)
class Limits:
    timeout_s: float
    memory_mb: int = 8192
    # "address_space": RLIMIT_AS on top of the current size (CPU); "rss": a watchdog that kills
    # the process group above memory_mb of resident memory (GPU: CUDA needs huge address space).
    memory_mode: str = "address_space"
    private_network: bool = True
    drop_root: bool = True


@dataclass(frozen=True)
class Outcome:
    """How a sandboxed job ended. `result` is the job function's return value, if any."""

    result: dict[str, Any] | None
    exit_code: int | None = None
    signal: int | None = None
    timed_out: bool = False
    memory_exceeded: bool = False
    server_died: bool = False
    stdout: str = ""
    stderr: str = ""
    wall_s: float = 0.0

    @property
    def ok(self) -> bool:
        return self.result is not None and not self.timed_out

    def describe(self) -> str:
        if self.server_died:
            return "the sandbox fork server died during the job"
        if self.timed_out:
            return f"timed out after {self.wall_s:.1f} s (process group killed)"
        if self.memory_exceeded:
            return "killed: exceeded the memory limit"
        if self.signal is not None:
            name = (
                signal.Signals(self.signal).name
                if self.signal in signal.Signals._value2member_map_
                else str(self.signal)
            )
            return f"process killed by signal {self.signal} ({name})"
        if self.result is None:
            return f"process exited with code {self.exit_code} without a result"
        return "ok"


@dataclass
class _Pending:
    event: threading.Event = field(default_factory=threading.Event)
    pid: int | None = None
    status: int | None = None


class Sandbox:
    """Client of one fork-server process. Create once per orchestrator; `close()` at the end."""

    def __init__(
        self,
        preload: tuple[str, ...] = PRELOAD,
        scratch_root: Path | None = None,
        import_env: dict[str, str] | None = None,
    ):
        """`import_env`: variables the fork server imports `preload` under. Give it the jobs'
        environment: some packages read it at import time (`TRITON_INTERPRET` decides whether
        Triton's own library functions, `tl.zeros`, `tl.sum`, can run in the interpreter)."""
        isolation.make_non_dumpable()
        self._scratch_root = Path(scratch_root or tempfile.mkdtemp(prefix="kernelsearch-"))
        self._scratch_root.mkdir(parents=True, exist_ok=True)
        os.chmod(self._scratch_root, 0o711)
        self._preload = preload
        self._import_env = dict(import_env or {})
        self._lock = threading.Lock()
        self._pending: dict[str, _Pending] = {}
        self._ids = itertools.count()
        self._proc: subprocess.Popen[bytes] | None = None
        self._reader: threading.Thread | None = None
        self.server_starts = 0  # how often the fork server was (re)started

    # ---- fork server lifecycle -------------------------------------------------------
    def _ensure_started(self) -> subprocess.Popen[bytes]:
        with self._lock:
            if self._proc is not None and self._proc.poll() is None:
                return self._proc
            env = {**isolation.scrubbed_env(), **self._import_env}
            env["KERNELSEARCH_PRELOAD"] = ",".join(self._preload)
            env["PYTHONPATH"] = os.pathsep.join(
                filter(None, [_package_root(), env.get("PYTHONPATH")])
            )
            self._proc = subprocess.Popen(
                [sys.executable, "-m", "kernelsearch.harness.zygote"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                env=env,
                cwd=str(self._scratch_root),
            )
            self.server_starts += 1
            ready = self._proc.stdout.readline()  # type: ignore[union-attr]
            if not ready:
                raise RuntimeError("kernelsearch sandbox fork server failed to start")
            self._reader = threading.Thread(target=self._read_loop, args=(self._proc,), daemon=True)
            self._reader.start()
            return self._proc

    def _read_loop(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            msg = json.loads(line)
            with self._lock:
                pending = self._pending.get(msg.get("id"))
            if pending is None:
                continue
            if "pid" in msg:
                pending.pid = msg["pid"]
            if "status" in msg:
                pending.status = msg["status"]
                pending.event.set()
        # Fork server died: wake everyone still waiting.
        with self._lock:
            for pending in self._pending.values():
                pending.event.set()

    def close(self) -> None:
        with self._lock:
            proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            assert proc.stdin is not None
            proc.stdin.close()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(self._scratch_root, ignore_errors=True)

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- jobs ------------------------------------------------------------------------
    def new_scratch(self, prefix: str = "job") -> Path:
        return Path(tempfile.mkdtemp(prefix=f"{prefix}-", dir=self._scratch_root))

    def run(
        self,
        fn: str,
        payload: dict[str, Any],
        limits: Limits,
        *,
        env: dict[str, str] | None = None,
        scratch: Path | None = None,
        keep_scratch: bool = False,
        needed_paths: list[str] | None = None,
    ) -> Outcome:
        """Run `fn(payload)` ("module:function") in a fresh sandboxed process.

        If the fork server itself dies under the job (not the job's own failure), it is
        restarted and the job runs once more.
        """
        for attempt in range(2):
            outcome = self._run_once(fn, payload, limits, env, scratch, keep_scratch, needed_paths)
            if not outcome.server_died or attempt:
                return outcome
            log.warning("sandbox fork server died during a job; restarting it and retrying")
        return outcome

    def _run_once(
        self,
        fn: str,
        payload: dict[str, Any],
        limits: Limits,
        env: dict[str, str] | None,
        scratch: Path | None,
        keep_scratch: bool,
        needed_paths: list[str] | None,
    ) -> Outcome:
        proc = self._ensure_started()
        scratch = scratch or self.new_scratch()
        (scratch / "tmp").mkdir(exist_ok=True)
        job_id = f"j{next(self._ids)}"
        pending = _Pending()
        with self._lock:
            self._pending[job_id] = pending
        child_env = isolation.scrubbed_env()
        child_env.update(
            {"HOME": str(scratch), "TMPDIR": str(scratch / "tmp"), "PYTHONNOUSERSITE": "1"}
        )
        child_env.update(env or {})
        request = {
            "id": job_id,
            "fn": fn,
            "payload": payload,
            "scratch": str(scratch),
            "env": child_env,
            "limits": {
                "address_space_mb": limits.memory_mb
                if limits.memory_mode == "address_space"
                else None,
                "private_network": limits.private_network,
                "drop_root": limits.drop_root,
                # Dropping to `nobody` only when it can still reach these (else: drop caps).
                "needed_paths": [sys.prefix, _package_root(), str(scratch), *(needed_paths or [])],
                "hide": isolation.credential_paths(str(Path.home())),
            },
        }
        start = time.monotonic()
        assert proc.stdin is not None
        with self._lock:
            proc.stdin.write((json.dumps(request) + "\n").encode())
            proc.stdin.flush()
        timed_out = memory_exceeded = False
        deadline = start + limits.timeout_s
        while not pending.event.wait(timeout=WATCHDOG_PERIOD_S):
            if time.monotonic() > deadline:
                timed_out = True
            elif limits.memory_mode == "rss" and pending.pid is not None:
                memory_exceeded = (
                    isolation.rss_bytes_of_group(pending.pid) > limits.memory_mb * 2**20
                )
            if timed_out or memory_exceeded:
                _kill_group(pending.pid)
                pending.event.wait(timeout=30)
                break
        wall = time.monotonic() - start
        with self._lock:
            self._pending.pop(job_id, None)
        outcome = _collect(scratch, pending.status, timed_out, memory_exceeded, wall)
        if not keep_scratch:
            shutil.rmtree(scratch, ignore_errors=True)
        return outcome


def _collect(scratch: Path, status: int | None, timed_out: bool, mem: bool, wall: float) -> Outcome:
    result = None
    result_path = scratch / RESULT_FILE
    if result_path.is_file() and not timed_out:
        try:
            result = json.loads(result_path.read_text())
        except (json.JSONDecodeError, OSError):
            result = None
    exit_code = sig = None
    if status is not None:
        if os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
        elif os.WIFEXITED(status):
            exit_code = os.WEXITSTATUS(status)
    server_died = status is None and not timed_out
    if server_died:
        exit_code = -1
    if sig is not None or (exit_code not in (0, None)):
        result = None  # a job that did not exit cleanly has no trustworthy result
    return Outcome(
        result=result,
        exit_code=exit_code,
        signal=sig,
        timed_out=timed_out,
        memory_exceeded=mem,
        server_died=server_died,
        stdout=_tail(scratch / STDOUT_FILE),
        stderr=_tail(scratch / STDERR_FILE),
        wall_s=wall,
    )


def _tail(path: Path) -> str:
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - OUTPUT_TAIL_CHARS))
            text = f.read().decode(errors="replace")
        return ("[... truncated ...]\n" + text) if size > OUTPUT_TAIL_CHARS else text
    except OSError:
        return ""


def _kill_group(pid: int | None) -> None:
    if pid is None:
        return
    for kill in (lambda: os.killpg(pid, signal.SIGKILL), lambda: os.kill(pid, signal.SIGKILL)):
        try:
            kill()
        except OSError:
            pass


def _package_root() -> str:
    return str(Path(__file__).resolve().parents[2])
