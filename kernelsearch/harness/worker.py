"""Job functions that run *inside* a sandboxed worker process (see sandbox.py / zygote.py).

Each takes a JSON payload and returns a JSON-serialisable dict. Kernel failures are data
(a stage); only harness bugs raise.
"""

from __future__ import annotations

import platform
import time
import traceback
from pathlib import Path
from typing import Any

from kernelsearch.backends import RunMode, WorkerContext, get_backend
from kernelsearch.config import EvalConfig
from kernelsearch.harness import buildcache, checks
from kernelsearch.harness.guards import trace
from kernelsearch.harness.modules import load_module
from kernelsearch.result import EvalResult, Stage

TASK_MODULE = "ks_task"
CANDIDATE_MODULE = "ks_candidate"
TRACEBACK_CHARS = 4000


def _context(p: dict[str, Any]) -> tuple[Any, WorkerContext]:
    config = EvalConfig.from_dict(p["config"])
    backend = get_backend(config.backend)
    ctx = WorkerContext(
        config=config,
        mode=RunMode(p["mode"]),
        arch=p["arch"],
        scratch=Path.cwd(),
        cache_dir=Path(config.cache_dir),
    )
    _set_threads(config)
    return backend, ctx


def _set_threads(config: EvalConfig) -> None:
    import torch

    if config.threads:
        torch.set_num_threads(config.threads)


def _device_name(device: str) -> str:
    import torch

    if device.startswith("cuda"):
        return torch.cuda.get_device_name(torch.device(device))
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def short_traceback(exc: BaseException, limit: int = TRACEBACK_CHARS) -> str:
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return text if len(text) <= limit else "[...]\n" + text[-limit:]


# ---------------------------------------------------------------------------------------
# Jobs


def device_job(p: dict[str, Any]) -> dict[str, Any]:
    """What the worker sees: device name, torch version, thread count."""
    import torch

    backend, ctx = _context(p)
    device = backend.device(ctx)
    return {
        "device": device,
        "device_name": _device_name(device),
        "torch": torch.__version__,
        "threads": torch.get_num_threads(),
        "sandbox": p.get("_sandbox", {}),
        "gpus": torch.cuda.device_count() if backend.device_kind == "cuda" else 0,
    }


def inspect_job(p: dict[str, Any]) -> dict[str, Any]:
    """Shapes, parameter count, FLOPs and bytes of a task on the meta device (nothing materialised)."""
    from kernelsearch.harness.inspect import inspect_task_module

    module = load_module(p["task"]["source"], Path("task.py"), TASK_MODULE)
    return inspect_task_module(module)


def build_job(p: dict[str, Any]) -> dict[str, Any]:
    """Import the candidate so its extensions compile into the shared build cache."""
    backend, ctx = _context(p)
    prepared = backend.prepare(ctx)
    start = time.perf_counter()
    try:
        load_module(p["kernel"], Path("candidate.py"), CANDIDATE_MODULE)
    except buildcache.BuildError as e:
        return {"stage": Stage.COMPILE_FAILED.value, "log": e.log}
    except buildcache.CompiledOnly as e:
        return {"stage": Stage.COMPILED.value, "log": e.log, "resources": e.resources}
    except Exception as e:  # noqa: BLE001 - candidate code raised at import
        return {"stage": Stage.RUNTIME_ERROR.value, "error": short_traceback(e)}
    return {
        "stage": "built",
        "build_s": time.perf_counter() - start,
        "resources": backend.resources(prepared),
    }


def eval_job(p: dict[str, Any]) -> dict[str, Any]:
    """Import (cached build), construct, check correctness, run guards, and time the candidate."""
    backend, ctx = _context(p)
    task = p["task"]
    device = backend.device(ctx)
    base = {"task": task["name"], "backend": backend.name, "device": _device_name(device)}
    prepared = backend.prepare(ctx)
    kernels = trace.install_kernel_counter(backend.name)  # guards: count kernel calls
    try:
        task_module = load_module(task["source"], Path("task.py"), TASK_MODULE)
        candidate = load_module(p["kernel"], Path("candidate.py"), CANDIDATE_MODULE)
    except buildcache.BuildError as e:
        return EvalResult(stage=Stage.COMPILE_FAILED, compile_log=e.log, **base).to_dict()
    except buildcache.CompiledOnly as e:
        return EvalResult(
            stage=Stage.COMPILED, compile_log=e.log, resources=e.resources, **base
        ).to_dict()
    except Exception as e:  # noqa: BLE001
        return EvalResult(stage=Stage.RUNTIME_ERROR, error=short_traceback(e), **base).to_dict()
    session = checks.CheckSession(
        task_module=task_module,
        candidate=candidate,
        device=device,
        seed=ctx.config.seed,
        atol=task.get("atol") if task.get("atol") is not None else ctx.config.atol,
        rtol=task.get("rtol") if task.get("rtol") is not None else ctx.config.rtol,
        trials=task.get("trials") or ctx.config.correctness_trials,
        synchronize=backend.synchronize,
        allow_torch_ops=_allow_torch_ops(task, ctx.config),
        kernels=kernels,
        perturbed=task.get("perturbed") or [],
    )
    result = checks.check(session, EvalResult(stage=Stage.CORRECT, **base))
    try:
        resources = backend.resources(prepared)
    except buildcache.BuildError as e:  # a kernel failed to compile at launch (Triton)
        return EvalResult(stage=Stage.COMPILE_FAILED, compile_log=e.log, **base).to_dict()
    result = result.with_(resources={**resources, **result.resources})
    if not result.correct:
        return result.to_dict()
    if ctx.mode is RunMode.INTERPRET:
        return result.with_(interpreted=True).to_dict()
    trials = ctx.config.gpu_timing_trials if device.startswith("cuda") else ctx.config.timing_trials
    try:
        stats, flags = checks.timed_with_guards(
            session, backend.timer(ctx), ctx.config.warmup, trials
        )
    except Exception as e:  # noqa: BLE001
        return result.with_(
            stage=Stage.RUNTIME_ERROR, correct=False, error="during timing: " + short_traceback(e)
        ).to_dict()
    return checks.with_flags(result.with_(runtime=stats), flags).to_dict()


def _allow_torch_ops(task: dict[str, Any], config: EvalConfig) -> bool:
    """The task's policy when its manifest sets one, else the run's."""
    allow = task.get("allow_torch_ops")
    return bool(config.allow_torch_ops if allow is None else allow)


def baseline_job(p: dict[str, Any]) -> dict[str, Any]:
    """Time the reference Model in eager mode and under torch.compile, the same way as kernels."""
    import torch

    backend, ctx = _context(p)
    task = p["task"]
    device = backend.device(ctx)
    task_module = load_module(task["source"], Path("task.py"), TASK_MODULE)
    session = checks.CheckSession(
        task_module=task_module,
        candidate=None,
        device=device,
        seed=ctx.config.seed,
        atol=None,
        rtol=None,
        trials=1,
        synchronize=backend.synchronize,
    )
    timer = backend.timer(ctx)
    trials = ctx.config.gpu_timing_trials if device.startswith("cuda") else ctx.config.timing_trials
    out: dict[str, Any] = {
        "device_name": _device_name(device),
        "torch": torch.__version__,
        "threads": torch.get_num_threads(),
    }
    model = session.make_reference()
    out["eager"] = checks.time_forward(session, model, timer, ctx.config.warmup, trials).to_dict()
    try:
        compiled = torch.compile(model)
        out["compile"] = checks.time_forward(
            session, compiled, timer, ctx.config.warmup, trials
        ).to_dict()
    except Exception as e:  # noqa: BLE001 - torch.compile unsupported for this task/machine
        out["compile"] = None
        out["compile_error"] = short_traceback(e, 1500)
    return out
