"""Session-wide settings: one build cache (and Inductor cache) shared by every test.

CPU C++ builds take ~30 s and nvcc ~80 s here, so tests that build the same source must hit
the same cache. The cache lives in `.ks-cache/` at the repo root (gitignored) unless
KERNELSEARCH_CACHE is already set.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SMOKE = REPO / "benchmarks" / "smoke"

os.environ.setdefault("KERNELSEARCH_CACHE", str(REPO / ".ks-cache"))
# litellm must never reach for the network in tests.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


def _has_gpu() -> bool:
    if not shutil.which("nvidia-smi"):
        return False
    try:
        import torch

        return torch.cuda.is_available()
    except Exception:  # noqa: BLE001
        return False


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if _has_gpu():
        return
    skip = pytest.mark.skip(reason="needs a CUDA GPU")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def cache_dir() -> Path:
    path = Path(os.environ["KERNELSEARCH_CACHE"])
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="session")
def cpu_harness(cache_dir: Path):
    """One CPU harness (one fork server) for the whole session."""
    from kernelsearch.config import EvalConfig
    from kernelsearch.harness.evaluate import Harness

    harness = Harness(EvalConfig(backend="cpu", cache_dir=cache_dir, timing_trials=5, warmup=1))
    yield harness
    harness.close()


@pytest.fixture(scope="session")
def smoke_tasks():
    from kernelsearch.tasks import load_batch

    return {t.name: t for t in load_batch(SMOKE)}


@pytest.fixture(scope="session")
def add_relu_kernel() -> str:
    """The one C++ source most harness tests reuse (build once per session)."""
    return (SMOKE / "kernels" / "1_add_relu.py").read_text()
