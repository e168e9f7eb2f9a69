"""Content-addressed build cache for `torch.utils.cpp_extension.load_inline` (worker side).

Inside a sandbox worker, `install()` replaces `load_inline` with a wrapper that:
- keys the build directory by a hash of (sources, functions, flags, backend, toolchain),
  so identical sources build once and concurrent builds never share a directory;
- holds the harness's own `flock` on that key while building (released by the kernel when a
  killed build's process dies, unlike torch's lock file, which it removes when stale);
- in compile-only mode hands CUDA sources to the backend's compile-only hook instead of
  building a loadable module (the CPU build of torch cannot link CUDA extensions).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import logging
import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

BUILD_LOG_CHARS = 20000


class BuildError(Exception):
    """The candidate's sources did not compile; `log` holds the compiler output."""

    def __init__(self, log_text: str):
        super().__init__("build failed")
        self.log = log_text


class CompiledOnly(Exception):
    """Sources compiled for the target but cannot be linked or run here."""

    def __init__(self, log_text: str, resources: dict[str, Any]):
        super().__init__("compiled (not linked, not run)")
        self.log = log_text
        self.resources = resources


CompileOnlyHook = Callable[[Path, dict[str, Any]], None]  # raises CompiledOnly or BuildError


def _as_list(x: str | Sequence[str] | None) -> list[str]:
    if x is None:
        return []
    return [x] if isinstance(x, str) else list(x)


def build_key(args: dict[str, Any], toolchain: str) -> str:
    blob = json.dumps({"args": args, "toolchain": toolchain}, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:24]


class BuildCache:
    def __init__(self, root: Path, toolchain: str, compile_only: CompileOnlyHook | None = None):
        self.root = Path(root)
        self.toolchain = toolchain
        self.compile_only = compile_only
        self.builds: list[dict[str, Any]] = []  # what this process built or loaded

    def load_inline(
        self, name: str, cpp_sources: Any, cuda_sources: Any = None, **kwargs: Any
    ) -> Any:
        from torch.utils import cpp_extension

        kwargs.pop("build_directory", None)
        kwargs["verbose"] = False
        args = {
            "cpp_sources": _as_list(cpp_sources),
            "cuda_sources": _as_list(cuda_sources),
            **{k: v for k, v in kwargs.items() if k != "verbose"},
        }
        key = build_key(args, self.toolchain)
        build_dir = self.root / key
        build_dir.mkdir(parents=True, exist_ok=True)
        self.builds.append({"key": key, "cuda": bool(args["cuda_sources"])})
        with _locked(self.root / f"{key}.lock"):
            stale = build_dir / "lock"  # torch's baton: left behind when a build was killed
            if stale.exists():
                stale.unlink()
            if self.compile_only is not None and args["cuda_sources"]:
                self.compile_only(build_dir, {"name": name, **args})
            try:
                return cpp_extension._original_load_inline(  # type: ignore[attr-defined]
                    name=f"ks_{key}",
                    cpp_sources=cpp_sources,
                    cuda_sources=cuda_sources,
                    build_directory=str(build_dir),
                    **kwargs,
                )
            except RuntimeError as e:  # torch reports every failed build as RuntimeError
                raise BuildError(trim_log(str(e))) from None


class _locked:
    def __init__(self, path: Path):
        self.path = path

    def __enter__(self) -> None:
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
        fcntl.flock(self.fd, fcntl.LOCK_EX)

    def __exit__(self, *exc: object) -> None:
        fcntl.flock(self.fd, fcntl.LOCK_UN)
        os.close(self.fd)


_NINJA_NOISE = re.compile(r"^\[\d+/\d+\] .*$|^ninja: build stopped.*$|^FAILED: .*$", re.MULTILINE)


def trim_log(text: str, limit: int = BUILD_LOG_CHARS) -> str:
    """Drop ninja's command echo lines (very long) and keep the compiler's own messages."""
    text = _NINJA_NOISE.sub("", text)
    text = re.sub(r"\n{3,}", "\n\n", text).strip()
    if len(text) > limit:
        head = text[: limit // 2]
        tail = text[-limit // 2 :]
        text = f"{head}\n[... {len(text) - limit} chars trimmed ...]\n{tail}"
    return text


def install(root: Path, toolchain: str, compile_only: CompileOnlyHook | None = None) -> BuildCache:
    """Route every `load_inline` in this process through a BuildCache rooted at `root`."""
    from torch.utils import cpp_extension

    cache = BuildCache(root, toolchain, compile_only)
    if not hasattr(cpp_extension, "_original_load_inline"):
        cpp_extension._original_load_inline = cpp_extension.load_inline  # type: ignore[attr-defined]
    cpp_extension.load_inline = cache.load_inline  # type: ignore[assignment]
    return cache
