"""Job functions the sandbox tests run in worker processes (imported there by name)."""

from __future__ import annotations

import ctypes
import os
import time


def hello(p: dict) -> dict:
    return {
        "pid": os.getpid(),
        "cwd": os.getcwd(),
        "home": os.environ.get("HOME"),
        "env": dict(os.environ),
        "sandbox": p["_sandbox"],
    }


def hang(p: dict) -> dict:
    os.system("sleep 600 &")  # a child process too: the whole group must die
    time.sleep(600)
    return {}


def segfault(p: dict) -> dict:
    ctypes.string_at(0)
    return {}


def hard_exit(p: dict) -> dict:
    os._exit(3)


def oom(p: dict) -> dict:
    blocks = [bytearray(256 * 2**20) for _ in range(400)]  # 100 GB
    return {"allocated": len(blocks)}


def hunt_credentials(p: dict) -> dict:
    """Look for the planted secret everywhere a kernel might."""
    secret = p["secret"]
    found = []
    if any(secret in v for v in os.environ.values()):
        found.append("own environment")
    for pid in {os.getppid(), p["orchestrator_pid"]}:
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                if secret.encode() in f.read():
                    found.append(f"/proc/{pid}/environ")
        except OSError:
            pass
    for root in (os.environ.get("HOME", ""), p["real_home"]):
        for dirpath, _, files in os.walk(root):
            for name in files:
                try:
                    with open(os.path.join(dirpath, name), errors="ignore") as f:
                        if secret in f.read():
                            found.append(os.path.join(dirpath, name))
                except OSError:
                    pass
    return {"found": found}


def kill_fork_server(p: dict) -> dict:
    import signal

    os.kill(os.getppid(), signal.SIGKILL)
    time.sleep(5)
    return {}
