"""Static guards: each registered check fires on the smallest source that earns it, and the
known-good smoke kernels earn none (false positives are bugs too)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernelsearch.harness.guards import static
from kernelsearch.result import Severity

SMOKE = Path(__file__).resolve().parent.parent / "benchmarks" / "smoke"
TASK = (SMOKE / "1_add_relu.py").read_text()
HEAD = """import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline
_ext = load_inline(name="x", cpp_sources="int f();", functions=["f"])
"""


def model(body: str, init: str = "", prelude: str = "") -> str:
    return (
        HEAD
        + prelude
        + "\nclass ModelNew(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        + "".join(f"        {line}\n" for line in init.splitlines())
        + "    def forward(self, a, b):\n"
        + "".join(f"        {line}\n" for line in body.splitlines())
    )


def errors(source: str, backend: str = "cpu", allow: bool = False) -> list[str]:
    flags = static.check_source(source, backend, allow, task_source=TASK)
    return [f.name for f in flags if f.severity is Severity.ERROR]


@pytest.mark.parametrize("kernel", sorted(p.name for p in (SMOKE / "kernels").glob("*.py")))
def test_known_good_smoke_kernels_raise_no_flags(kernel):
    source = (SMOKE / "kernels" / kernel).read_text()
    assert static.check_source(source, "cpu", False, (SMOKE / kernel).read_text()) == []


@pytest.mark.parametrize(
    ("source", "guard"),
    [
        ("import torch\nclass Other: pass\n", "model_new"),
        (
            HEAD + "class ModelNew(nn.Module):\n    def forward(self, a):\n        return a\n",
            "signature",
        ),
        (
            "import torch.nn as nn\nclass ModelNew(nn.Module):\n    def forward(self, a, b):\n"
            "        return a\n",
            "kernel_missing",
        ),
        (model("return torch.clamp(a + b, min=0)"), "kernel_not_called"),
        (model("return Model()(a, b)"), "reference_model"),
        (model("import sys\nreturn sys.modules['ks_task'].Model()(a, b)"), "reference_model"),
        (model("try:\n    return _ext.f(a, b)\nexcept Exception:\n    return a"), "fallback_try"),
        (model("return torch.relu(_ext.f(a, b))"), "torch_compute"),
        (model("return nn.functional.gelu(_ext.f(a, b))"), "torch_compute"),
        (
            model("return self.lin(_ext.f(a, b))", init="self.lin = nn.Linear(2, 2)"),
            "torch_compute",
        ),
        (model("return _ext.f(a, b).sum()"), "torch_compute"),
        (model("return torch.compile(_ext.f)(a, b)"), "torch_compute"),
        (model("return _ext.f(a, b)", prelude="import threading\n"), "concurrency"),
        (model("return _ext.f(a, b)", prelude="import asyncio\n"), "concurrency"),
        (model("s = torch.cuda.Stream()\nreturn _ext.f(a, b)"), "concurrency"),
        (
            model("return _ext.f(a, b)").replace("int f();", "#include <thread> int f();"),
            "concurrency",
        ),
        (
            model("return _ext.f(a, b)", prelude="import time\ntime.perf_counter = lambda: 0\n"),
            "monkey_patch",
        ),
        (
            model("return _ext.f(a, b)", prelude="torch.cuda.synchronize = lambda: None\n"),
            "monkey_patch",
        ),
        (
            model("return _ext.f(a, b)", prelude="torch.set_float32_matmul_precision('medium')\n"),
            "monkey_patch",
        ),
        (
            model("return _ext.f(a, b)", prelude="setattr(torch.cuda, 'Event', object)\n"),
            "monkey_patch",
        ),
        (model("return _ext.f(a, b)", prelude="import gc\n"), "introspection"),
        (model("return _ext.f(a, b)", prelude="exec('x = 1')\n"), "introspection"),
        (model("open('/tmp/x').read()\nreturn _ext.f(a, b)"), "file_network"),
        (model("return _ext.f(a, b)", prelude="import socket\n"), "file_network"),
        (model("torch.save(a, 'x.pt')\nreturn _ext.f(a, b)"), "file_network"),
    ],
)
def test_each_static_guard_fires_on_its_hack(source, guard):
    assert guard in errors(source)


def test_syntax_error_short_circuits():
    flags = static.check_source("def broken(:\n", "cpu")
    assert [f.name for f in flags] == ["syntax"] and "syntax" in static.STRUCTURAL


def test_allow_torch_ops_turns_torch_compute_into_a_warning():
    source = model("return torch.relu(_ext.f(a, b))")
    flags = static.check_source(source, "cpu", True, TASK)
    assert [(f.name, f.severity) for f in flags] == [("torch_compute", Severity.WARNING)]


def test_allowed_torch_calls_and_helpers_pass():
    body = (
        "out = torch.empty_like(a)\nx = a.contiguous().view(-1)\n"
        "y = self._launch(x, b.reshape(-1))\nos.environ['X'] = '1'\nreturn y.view_as(out)"
    )
    source = model(body, prelude="import os\n").replace(
        "    def forward",
        "    def _launch(self, x, y):\n        return _ext.f(x, y)\n    def forward",
    )
    assert errors(source) == []


def test_kernel_reached_through_a_lazy_factory_counts_as_called():
    source = HEAD.replace("_ext = load_inline", "def _get():\n    return load_inline") + (
        "\nclass ModelNew(nn.Module):\n    def forward(self, a, b):\n"
        "        return _get().f(a, b)\n"
    )
    assert errors(source) == []


def test_cuda_backend_needs_a_launched_global_kernel():
    assert "kernel_missing" in errors(model("return _ext.f(a, b)"), backend="cuda")
    launched = model("return _ext.f(a, b)").replace(
        'cpp_sources="int f();"',
        'cpp_sources="", cuda_sources="__global__ void k(){} void f(){ k<<<1, 1>>>(); }"',
    )
    assert errors(launched, backend="cuda") == []


def test_registry_describes_every_guard_with_a_severity():
    described = {name: sev for name, sev, _ in static.describe()}
    assert {
        "model_new",
        "signature",
        "kernel_missing",
        "kernel_not_called",
        "reference_model",
        "fallback_try",
        "torch_compute",
        "concurrency",
        "monkey_patch",
        "introspection",
        "file_network",
    } <= set(described)
    assert all(sev in {"error", "warning", "info"} for sev in described.values())
