"""GPU tests: everything here needs a CUDA GPU and is skipped cleanly without one.

One harness per backend for the whole session, sharing the session build cache
(KERNELSEARCH_CACHE), so each CUDA fixture is built once; the CUDA builds are started
together (in parallel on the CPU cores) before the first test needs them.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from kernelsearch.backends.arch import cuda_gpu_available

ROOT = Path(__file__).resolve().parents[2]
SMOKE = ROOT / "benchmarks" / "smoke"
FIXTURES = ROOT / "tests" / "fixtures" / "kernels"
CUDA_PREBUILT = ("1_add_relu.py", "1_add_relu_illegal_address.py")


def pytest_collection_modifyitems(config, items):
    if cuda_gpu_available():
        return
    skip = pytest.mark.skip(reason="needs a CUDA GPU (none visible to torch)")
    for item in items:
        if "tests/gpu/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(skip)


def _config(backend: str):
    from kernelsearch.config import EvalConfig

    cache = os.environ.get("KERNELSEARCH_CACHE")
    base = EvalConfig(backend=backend, baselines=False)
    return base.replace(cache_dir=Path(cache)) if cache else base


@pytest.fixture(scope="session")
def add_relu_task():
    from kernelsearch.tasks import load_task

    return load_task(SMOKE / "1_add_relu.py")


@pytest.fixture(scope="session")
def cuda_harness(add_relu_task):
    from kernelsearch.harness.evaluate import Harness

    with Harness(_config("cuda")) as harness:
        sources = [(FIXTURES / "cuda" / name).read_text() for name in CUDA_PREBUILT]
        with ThreadPoolExecutor(len(sources)) as pool:
            list(pool.map(lambda s: harness.build(add_relu_task, s), sources))
        yield harness


@pytest.fixture(scope="session")
def triton_harness():
    from kernelsearch.harness.evaluate import Harness

    with Harness(_config("triton")) as harness:
        yield harness


@pytest.fixture(scope="session")
def fixture_source():
    """fixture_source(backend, file name) -> the fixture kernel's source."""
    return lambda backend, name: (FIXTURES / backend / name).read_text()
