"""Hack category x Triton (interpreter): static guards on the fixture sources, and the runtime
guards in-process through `checks.check` with launch counting. When the Triton backend is
registered, the same fixtures also run through the sandboxed harness."""

from __future__ import annotations

import importlib.util

import pytest

from kernelsearch.harness import checks
from kernelsearch.harness.guards import sizes, trace
from kernelsearch.harness.guards.static import check_source
from kernelsearch.harness.modules import load_module
from kernelsearch.result import EvalResult, Severity, Stage
from tests.adversarial.fixtures import triton_source

pytest.importorskip("triton")


def _errors(flags):
    return [f.name for f in flags if f.severity is Severity.ERROR]


@pytest.fixture
def counter(monkeypatch):
    """Launch counting installed for one test; the patched entry points are restored after."""
    from torch.utils import cpp_extension
    from triton.runtime import interpreter, jit

    monkeypatch.setenv("TRITON_INTERPRET", "1")
    monkeypatch.setattr(cpp_extension, "load_inline", cpp_extension.load_inline)
    monkeypatch.setattr(jit.JITFunction, "run", jit.JITFunction.run)
    monkeypatch.setattr(interpreter.InterpretedFunction, "run", interpreter.InterpretedFunction.run)
    return trace.install_kernel_counter("triton")


def _check(name, smoke_tasks, counter, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    task = smoke_tasks["1_add_relu"]
    module = load_module(task.source, tmp_path / "task.py", "ks_task_triton_test")
    candidate = load_module(triton_source(name), tmp_path / f"{name}.py", f"ks_cand_{name}")
    session = checks.CheckSession(
        task_module=module,
        candidate=candidate,
        device="cpu",
        seed=7,
        atol=None,
        rtol=None,
        trials=2,
        synchronize=lambda: None,
        kernels=counter,
        perturbed=sizes.perturbations(task),
    )
    return checks.check(
        session, EvalResult(task=task.name, backend="triton", device="cpu", stage=Stage.CORRECT)
    )


def test_honest_triton_kernel_passes_every_guard(smoke_tasks, counter, tmp_path, monkeypatch):
    assert _errors(check_source(triton_source("honest_add_relu"), "triton")) == []
    r = _check("honest_add_relu", smoke_tasks, counter, tmp_path, monkeypatch)
    assert r.stage is Stage.CORRECT and r.accepted, (r.error, r.flags)
    assert r.resources["kernel_calls"]["add_relu_kernel"] >= 2


def test_pytorch_after_a_launch_is_caught_by_the_trace(smoke_tasks, counter, tmp_path, monkeypatch):
    assert _errors(check_source(triton_source("torch_after_launch"), "triton")) == []
    r = _check("torch_after_launch", smoke_tasks, counter, tmp_path, monkeypatch)
    assert r.stage is Stage.REJECTED and _errors(r.flags) == ["torch_op"]
    assert "aten.relu" in r.error


def test_hard_coded_grid_fails_at_perturbed_sizes(smoke_tasks, counter, tmp_path, monkeypatch):
    r = _check("hardcoded_grid", smoke_tasks, counter, tmp_path, monkeypatch)
    assert r.stage is Stage.INCORRECT and _errors(r.flags) == ["perturbed_sizes"]


def test_kernel_defined_but_never_launched_is_rejected_statically():
    names = _errors(check_source(triton_source("never_launched"), "triton"))
    assert "kernel_not_called" in names and "torch_compute" in names


def test_triton_source_without_a_jit_kernel_is_kernel_missing():
    source = (
        "import torch\nclass ModelNew(torch.nn.Module):\n    def forward(self, a, b):\n"
        "        return a\n"
    )
    assert "kernel_missing" in _errors(check_source(source, "triton"))


@pytest.mark.slow
@pytest.mark.skipif(
    importlib.util.find_spec("kernelsearch.backends.triton") is None,
    reason="the triton backend is not registered yet",
)
@pytest.mark.parametrize(
    ("name", "flag"),
    [
        ("honest_add_relu", None),
        ("torch_after_launch", "torch_op"),
        ("hardcoded_grid", "perturbed_sizes"),
        ("never_launched", "kernel_not_called"),
    ],
)
def test_triton_fixtures_through_the_sandboxed_harness(cache_dir, smoke_tasks, name, flag):
    from kernelsearch.config import EvalConfig
    from kernelsearch.harness.evaluate import Harness

    with Harness(EvalConfig(backend="triton", cache_dir=cache_dir, baselines=False)) as h:
        r = h.evaluate(smoke_tasks["1_add_relu"], triton_source(name))
    if flag is None:
        assert r.accepted and _errors(r.flags) == [], (r.error, r.flags)
    else:
        assert not r.accepted and flag in _errors(r.flags), (r.error, r.flags)
