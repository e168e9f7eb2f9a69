"""Runtime guards in-process, with Python test doubles standing in for compiled kernels.

The doubles compute with NumPy, which the dispatcher never sees, and reach the harness through
`trace.CountingExtension`, exactly as a load_inline module does inside the worker.
"""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace

import numpy as np
import pytest
import torch

from kernelsearch.harness import checks
from kernelsearch.harness.guards import policy, precision, runtime, sizes, trace
from kernelsearch.result import EvalResult, Severity, Stage
from kernelsearch.tasks import Task


class AddReluTask:
    """The smoke add_relu task as a module-like object."""

    ROWS, COLS = 16, 24

    class Model(torch.nn.Module):
        def forward(self, a, b):
            return torch.relu(a + b)

    def get_inputs(self):
        return [torch.randn(self.ROWS, self.COLS), torch.randn(self.ROWS, self.COLS)]

    def get_init_inputs(self):
        return []


def np_add_relu(a, b):
    return torch.from_numpy(np.maximum(a.numpy() + b.numpy(), 0).astype(np.float32))


@pytest.fixture
def counter():
    return trace.install_kernel_counter("cpu")


def candidate(forward, init=None):
    ext = trace.CountingExtension(SimpleNamespace(add_relu=np_add_relu))

    class ModelNew(torch.nn.Module):
        def __init__(self):
            super().__init__()
            if init:
                init(self)

        def forward(self, a, b):
            return forward(self, ext, a, b)

    return SimpleNamespace(ModelNew=ModelNew)


def run(cand, counter, task=None, perturbed=(), allow=False, atol=None):
    session = checks.CheckSession(
        task_module=task or AddReluTask(),
        candidate=cand,
        device="cpu",
        seed=3,
        atol=atol,
        rtol=atol,
        trials=2,
        synchronize=lambda: None,
        allow_torch_ops=allow,
        kernels=counter,
        perturbed=list(perturbed),
    )
    result = checks.check(
        session, EvalResult(task="t", backend="cpu", device="cpu", stage=Stage.CORRECT)
    )
    return session, result


def errors(result):
    return [f.name for f in result.flags if f.severity is Severity.ERROR]


def test_honest_double_passes_with_every_extra_trial(counter):
    _, r = run(candidate(lambda m, ext, a, b: ext.add_relu(a, b)), counter)
    assert r.accepted and errors(r) == []
    assert r.resources["extra_trials"]["repeat_call"] == "passed"
    assert r.resources["extra_trials"]["input_distribution"] == "passed"
    assert r.resources["kernel_calls"]["add_relu"] >= 2


def test_pytorch_compute_is_an_error_naming_the_op_under_the_strict_policy(counter):
    _, r = run(candidate(lambda m, ext, a, b: torch.relu(ext.add_relu(a, b) * 1.0)), counter)
    assert r.stage is Stage.REJECTED and errors(r) == ["torch_op"]
    assert "aten.relu" in r.error and "aten.mul" in r.error


def test_allowed_pytorch_compute_is_a_warning_with_its_flop_share(counter):
    def forward(m, ext, a, b):
        return ext.add_relu(a, b) + (a @ b.t()).sum() * 0

    _, r = run(candidate(forward), counter, allow=True)
    assert r.accepted
    assert [f.severity for f in r.flags if f.name == "torch_op"] == [Severity.WARNING]
    ops = r.resources["torch_ops"]
    assert "aten.mm" in ops["ops"] and ops["ops"]["aten.mm"]["flops"] > 0
    assert ops["torch_flops"] > 0


def test_forward_without_a_kernel_call_is_rejected(counter):
    _, r = run(candidate(lambda m, ext, a, b: np_add_relu(a, b)), counter)
    assert r.stage is Stage.REJECTED and errors(r) == ["no_custom_kernel"]


def test_a_thread_left_running_is_rejected(counter):
    stop = threading.Event()

    def forward(m, ext, a, b):
        threading.Thread(target=stop.wait, daemon=True).start()
        return ext.add_relu(a, b)

    try:
        _, r = run(candidate(forward), counter)
    finally:
        stop.set()
    assert "background_thread" in errors(r)


def test_output_aliasing_a_buffer_is_rejected(counter):
    def init(m):
        m.register_buffer("buf", torch.empty(AddReluTask.ROWS, AddReluTask.COLS))

    def forward(m, ext, a, b):
        m.buf.copy_(ext.add_relu(a, b))
        return m.buf

    _, r = run(candidate(forward, init), counter)
    assert "output_aliases_input" in errors(r)


def test_mutated_inputs_are_incorrect_with_the_guard_named(counter):
    def forward(m, ext, a, b):
        out = ext.add_relu(a, b)
        a.copy_(out)
        return out

    _, r = run(candidate(forward), counter)
    assert r.stage is Stage.INCORRECT and errors(r) == ["inputs_mutated"]


def test_pointer_keyed_cache_is_caught_by_the_repeat_trial(counter):
    cache = {}

    def forward(m, ext, a, b):
        key = (a.data_ptr(), float(a.reshape(-1)[0]))
        if key not in cache:
            cache[key] = ext.add_relu(a, b)
        return ext.add_relu(cache[key], torch.zeros_like(a))

    _, r = run(candidate(forward), counter)
    assert r.stage is Stage.INCORRECT and errors(r) == ["repeat_call"]


def test_identity_on_uniform_inputs_fails_the_signed_trial(counter):
    class Uniform(AddReluTask):
        def get_inputs(self):
            return [torch.rand(self.ROWS, self.COLS), torch.zeros(self.ROWS, self.COLS)]

    # a + 0 >= 0 on [0, 1): "return a" passes the task's own trials
    _, r = run(
        candidate(lambda m, ext, a, b: ext.add_relu(a, -a) + a.clone()),
        counter,
        task=Uniform(),
        allow=True,
    )
    assert r.stage is Stage.INCORRECT and "input_distribution" in errors(r)


class MatmulTask:
    class Model(torch.nn.Module):
        def forward(self, a, b):
            return a @ b

    def get_inputs(self):
        return [torch.randn(32, 256), torch.randn(256, 32)]

    def get_init_inputs(self):
        return []


def np_mm_with_rounding_error(a, b):
    """A matmul whose error grows with its outputs (as a different summation order's does)."""
    exact = a.numpy().astype(np.float64) @ b.numpy().astype(np.float64)
    return torch.from_numpy((exact + 5e-6 * np.abs(exact).mean()).astype(np.float32))


def test_signed_trial_tolerance_grows_with_the_outputs_magnitude(counter):
    # On the task's inputs the error (~6e-5) is inside atol 1e-4; on randn*3 inputs outputs
    # and error are 9x larger: the same kernel must still pass.
    ext = trace.CountingExtension(SimpleNamespace(mm=np_mm_with_rounding_error))

    class ModelNew(torch.nn.Module):
        def forward(self, a, b):
            return ext.mm(a, b)

    _, r = run(SimpleNamespace(ModelNew=ModelNew), counter, task=MatmulTask())
    assert r.accepted, (r.error, r.flags)
    assert r.resources["extra_trials"]["input_distribution"] == "passed"


def test_hard_coded_shapes_fail_at_perturbed_sizes(counter, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    source = (
        "import torch\nROWS = 16\nCOLS = 24\n"
        "class Model(torch.nn.Module):\n    def forward(self, a, b):\n"
        "        return torch.relu(a + b)\n"
        "def get_inputs():\n    return [torch.randn(ROWS, COLS), torch.randn(ROWS, COLS)]\n"
        "def get_init_inputs():\n    return []\n"
    )
    task = Task(name="t", path=tmp_path / "t.py", source=source)
    plans = sizes.perturbations(task)
    assert plans[0]["sizes"] == {"ROWS": 15, "COLS": 23}

    def forward(m, ext, a, b):
        return ext.add_relu(a.reshape(16, 24), b.reshape(16, 24))

    _, r = run(candidate(forward), counter, perturbed=plans)
    assert r.stage is Stage.RUNTIME_ERROR and errors(r) == ["perturbed_sizes"]
    assert "15" in r.flags[-1].reason


def test_bf16_compute_is_a_precision_downgrade(counter):
    def forward(m, ext, a, b):
        return ext.add_relu(a.bfloat16().float(), b.bfloat16().float())

    _, r = run(candidate(forward), counter, allow=True, atol=5e-2)
    assert "precision_downgrade" in errors(r)
    assert r.resources["precision"]["ratio"] > precision.PRECISION_FACTOR


def test_stopping_kernel_calls_after_the_checks_is_caught_while_timing(counter):
    from kernelsearch.harness.timing import CpuTimer

    def forward(m, ext, a, b):
        m.calls = getattr(m, "calls", 0) + 1
        if m.calls > 6:  # 2 trials + 3 repeat calls + 1 signed call
            return m.last
        m.last = ext.add_relu(a, b)
        return m.last

    session, r = run(candidate(forward), counter)
    assert r.accepted
    _, flags = checks.timed_with_guards(session, CpuTimer(), warmup=1, trials_n=3)
    assert {"no_custom_kernel", "after_timing"} <= {f.name for f in flags}


def test_timing_bumps_input_versions_every_call(counter):
    seen = []

    def forward(m, ext, a, b):
        seen.append(a._version)
        return ext.add_relu(a, b)

    session, _ = run(candidate(forward), counter)
    seen.clear()
    checks.time_forward(
        session,
        session.new_model,
        __import__("kernelsearch.harness.timing", fromlist=["CpuTimer"]).CpuTimer(),
        1,
        4,
    )
    assert len(set(seen)) == len(seen) == 5


def test_poison_overwrites_released_outputs_but_not_parameters():
    out, param = torch.ones(4), torch.ones(3)
    ints = torch.ones(2, dtype=torch.int64)
    runtime.poison([out, param, ints], keep=[param])
    assert torch.isnan(out).all() and torch.equal(param, torch.ones(3))
    assert (ints == runtime.POISON_INT).all()


def test_policy_classifies_allocation_views_copies_and_custom_ops():
    x = torch.ones(2)
    assert policy.classify("aten", "empty_like", (x,), {}, x) == "allowed"
    assert policy.classify("aten", "view", (x,), {}, x) == "allowed"
    assert policy.classify("aten", "_to_copy", (x,), {}, x) == "allowed"
    assert policy.classify("aten", "_to_copy", (x,), {}, x.half()) == "compute"
    assert policy.classify("aten", "mm", (x,), {}, x) == "compute"
    assert policy.classify("myext", "fused", (x,), {}, x) == "custom"


def test_trace_sees_ops_and_flops():
    a = torch.randn(8, 4)
    with trace.OpTrace() as t:
        torch.empty(3)
        (a @ a.t()).contiguous()
    assert set(t.report.compute) == {"mm"}
    assert t.report.compute["mm"].flops == 2 * 8 * 8 * 4


def test_zeros_pass_flag_is_a_task_quality_warning():
    flag = precision.zeros_pass_flag(torch.full((4,), 1e-7), None, None)
    assert flag is not None and flag.severity is Severity.WARNING
    assert precision.zeros_pass_flag(torch.ones(4), None, None) is None


def test_perturbations_leave_small_constants_alone(tmp_path):
    source = "import torch\nDIM = 1\nK = 3\nN = 64\nEPS = 1e-5\nclass Model: pass\n"
    plans = sizes.perturbations(Task(name="t", path=tmp_path / "t.py", source=source))
    assert [p["sizes"] for p in plans] == [{"N": 63}, {"N": 56}]
    assert "N = 63" in plans[0]["source"] and "K = 3" in plans[0]["source"]


def test_counting_extension_counts_every_call():
    c = trace.install_kernel_counter("cpu")
    ext = trace.CountingExtension(SimpleNamespace(f=lambda: 1, value=3))
    assert ext.f() == 1 and ext.f() == 1 and ext.value == 3
    assert c.calls == 2 and c.by_name["f"] == 2
    time.sleep(0)
