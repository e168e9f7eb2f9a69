"""What this machine can run: GPUs, compilers, Triton mode, sandbox features, LLM credentials."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

from kernelsearch.harness.isolation import is_secret

# Variables litellm reads for common providers (names only are ever shown).
PROVIDER_VARIABLES = (
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "GEMINI_API_KEY",
    "GOOGLE_API_KEY",
    "MISTRAL_API_KEY",
    "GROQ_API_KEY",
    "TOGETHERAI_API_KEY",
    "DEEPSEEK_API_KEY",
    "OPENROUTER_API_KEY",
    "FIREWORKS_AI_API_KEY",
    "XAI_API_KEY",
    "AZURE_API_KEY",
    "AWS_ACCESS_KEY_ID",
    "VERTEXAI_PROJECT",
    "OLLAMA_API_BASE",
    "OPENAI_API_BASE",
)


def _run(cmd: list[str], timeout: float = 20) -> str:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return (out.stdout or out.stderr).strip()


@lru_cache(maxsize=1)
def gpu_names() -> tuple[str, ...]:
    """GPU names without initialising CUDA in this process (nvidia-smi, else a child python)."""
    if shutil.which("nvidia-smi"):
        text = _run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"])
        names = tuple(line.strip() for line in text.splitlines() if line.strip())
        if names and "failed" not in text.lower():
            return names
    code = (
        "import torch;n=torch.cuda.device_count() if torch.cuda.is_available() else 0;"
        "print('\\n'.join(torch.cuda.get_device_name(i) for i in range(n)))"
    )
    text = _run([sys.executable, "-c", code], timeout=60)
    return tuple(line.strip() for line in text.splitlines() if line.strip())


def credentials_present() -> list[str]:
    """Names (never values) of LLM credential variables set in this environment."""
    names = {k for k in os.environ if k in PROVIDER_VARIABLES or (is_secret(k) and "API" in k)}
    return sorted(n for n in names if os.environ.get(n))


def diagnose(cache_dir: Path) -> dict[str, Any]:
    import torch

    nvcc = shutil.which("nvcc")
    cxx = shutil.which("c++") or shutil.which("g++")
    gpus = gpu_names()
    try:
        import triton

        triton_version = triton.__version__
    except ImportError:
        triton_version = None
    report: dict[str, Any] = {
        "python": sys.version.split()[0],
        "torch": torch.__version__,
        "gpus": list(gpus),
        "nvcc": (_run([nvcc, "--version"]).splitlines() or ["?"])[-1] if nvcc else "not found",
        "c++ compiler": (_run([cxx, "--version"]).splitlines() or ["?"])[0] if cxx else "not found",
        "triton": triton_version or "not installed",
        "triton mode": ("real (GPU)" if gpus else "interpreter (correctness only) + AOT compile")
        if triton_version
        else "unavailable",
        "cuda backend": "build, run and time"
        if gpus and nvcc
        else ("compile-only (nvcc -c, ptxas figures)" if nvcc else "unavailable (no nvcc)"),
        "cpu backend": "build, run and time" if cxx else "unavailable (no C++ compiler)",
        "default backend": "cuda" if gpus else "cpu",
        "llm credentials": credentials_present(),
        "cache dir": str(cache_dir),
    }
    report["sandbox"] = _sandbox_features(cache_dir)
    return report


def _sandbox_features(cache_dir: Path) -> str:
    from kernelsearch.config import EvalConfig
    from kernelsearch.harness.evaluate import Harness

    try:
        with Harness(EvalConfig(backend="cpu", cache_dir=cache_dir)) as harness:
            sb = harness.device_info().sandbox
    except Exception as e:  # noqa: BLE001 - doctor reports, never fails
        return f"failed to start: {e}"
    return f"network {sb.get('network', '?')}, privileges dropped: {sb.get('privileges', '?')}"
