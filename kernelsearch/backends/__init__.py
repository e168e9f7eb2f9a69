"""Backends by name. A new kernel language is a new module and one line here."""

from __future__ import annotations

import importlib

from kernelsearch.backends.base import Backend, RunMode, WorkerContext
from kernelsearch.errors import ConfigError

# name -> "module:Class"
REGISTRY: dict[str, str] = {
    "cpu": "kernelsearch.backends.cpu:CpuBackend",
    "cuda": "kernelsearch.backends.cuda:CudaBackend",
    "triton": "kernelsearch.backends.triton:TritonBackend",
}


def get_backend(name: str) -> Backend:
    try:
        target = REGISTRY[name]
    except KeyError:
        raise ConfigError(
            f"unknown backend {name!r}; choose one of: {', '.join(sorted(REGISTRY))}"
        ) from None
    module, cls = target.split(":")
    return getattr(importlib.import_module(module), cls)()


__all__ = ["Backend", "RunMode", "WorkerContext", "REGISTRY", "get_backend"]
