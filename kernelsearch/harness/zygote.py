"""Fork server: one warm interpreter (torch imported) that forks a fresh process per job.

Each job gets a brand-new process — its own session/process group, scratch directory as HOME
and cwd, scrubbed environment, limits, private network, and no root — without paying a fresh
interpreter start and `import torch` every time. The server never initialises CUDA, so a
child's CUDA context is always clean, and a fault in one child never reaches another.

Protocol (JSON lines): stdin receives `{"id", "fn": "module:function", "payload", "scratch",
"env", "limits"}`; stdout answers `{"id", "pid"}` when forked and `{"id", "status"}` (the raw
wait status) when the child ends. The child writes its return value to `<scratch>/result.json`.
"""

from __future__ import annotations

import importlib
import json
import os
import select
import signal
import sys
import traceback

from kernelsearch.harness import isolation

RESULT_FILE = "result.json"
STDOUT_FILE = "stdout.txt"
STDERR_FILE = "stderr.txt"
_POLL_S = 0.02


def _child(req: dict) -> None:
    """Runs in the forked child; never returns."""
    code = 0
    try:
        os.setsid()
        isolation.die_with_parent(signal.SIGKILL)
        scratch = req["scratch"]
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        out = os.open(
            os.path.join(scratch, STDOUT_FILE), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644
        )
        err = os.open(
            os.path.join(scratch, STDERR_FILE), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644
        )
        os.dup2(out, 1)
        os.dup2(err, 2)
        for fd in (devnull, out, err):
            os.close(fd)
        os.environ.clear()
        os.environ.update(req["env"])
        extra = [d for d in os.environ.get("PYTHONPATH", "").split(os.pathsep) if d]
        sys.path[:0] = [d for d in extra if d not in sys.path]
        os.chdir(scratch)
        limits = req.get("limits", {})
        isolation.disable_core_dumps()
        if limits.get("address_space_mb"):
            isolation.limit_address_space(int(limits["address_space_mb"]))
        net = (
            "private"
            if limits.get("private_network", True) and isolation.private_network()
            else "shared"
        )
        empty = os.path.join(scratch, ".empty")
        os.makedirs(empty, exist_ok=True)
        hidden = isolation.hide_paths(limits.get("hide", []), empty)
        dropped = "kept"
        if limits.get("drop_root", True):
            dropped = isolation.drop_root([scratch], limits.get("needed_paths", []))
        isolation.no_new_privs()
        module_name, fn_name = req["fn"].split(":")
        fn = getattr(importlib.import_module(module_name), fn_name)
        payload = dict(req["payload"])
        payload["_sandbox"] = {"network": net, "privileges": dropped, "credentials_hidden": hidden}
        result = fn(payload)
        tmp = os.path.join(scratch, RESULT_FILE + ".tmp")
        with open(tmp, "w") as f:
            json.dump(result, f)
        os.replace(tmp, os.path.join(scratch, RESULT_FILE))
    except BaseException:  # noqa: BLE001 - the child reports everything and exits
        traceback.print_exc()
        code = 70
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def _send(msg: dict) -> None:
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def serve() -> None:
    # No PR_SET_PDEATHSIG here: it fires when the *thread* that spawned us exits (e.g. a pool
    # thread), not the orchestrator process. EOF on stdin is the orchestrator's death.
    children: dict[int, str] = {}
    buf = b""
    stdin = sys.stdin.buffer.raw if hasattr(sys.stdin.buffer, "raw") else sys.stdin.buffer
    eof = False
    while not eof or children:
        if not eof:
            ready, _, _ = select.select([stdin], [], [], _POLL_S)
            if ready:
                chunk = os.read(stdin.fileno(), 1 << 16)
                if not chunk:
                    eof = True
                    for pid in children:  # orchestrator is gone: take the jobs down too
                        _kill_group(pid)
                buf += chunk
                while b"\n" in buf:
                    line, buf = buf.split(b"\n", 1)
                    if line.strip():
                        req = json.loads(line)
                        pid = os.fork()
                        if pid == 0:
                            _child(req)
                        children[pid] = req["id"]
                        _send({"id": req["id"], "pid": pid})
        else:
            select.select([], [], [], _POLL_S)
        while children:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            job = children.pop(pid, None)
            if job is not None:
                _send({"id": job, "status": status})


def _kill_group(pid: int) -> None:
    for target in (lambda: os.killpg(pid, signal.SIGKILL), lambda: os.kill(pid, signal.SIGKILL)):
        try:
            target()
        except OSError:
            pass


def main() -> None:
    for name in os.environ.get("KERNELSEARCH_PRELOAD", "torch").split(","):
        if name:
            importlib.import_module(name)
    _send({"ready": True, "pid": os.getpid()})
    serve()


if __name__ == "__main__":
    main()
