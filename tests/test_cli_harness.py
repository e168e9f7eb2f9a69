"""`kernelsearch eval | baseline | tasks | doctor` as a user runs them: exit codes and output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kernelsearch.cli import app
from kernelsearch.cli.harness_cmds import exit_code_for
from kernelsearch.result import EvalResult, Stage

REPO = Path(__file__).resolve().parents[1]
SMOKE = REPO / "benchmarks" / "smoke"
runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, list(args))


def test_missing_kernel_file_is_one_error_line_and_exit_2() -> None:
    res = invoke("eval", str(SMOKE / "1_add_relu.py"), "/nonexistent/kernel.py")
    assert res.exit_code == 2
    assert "kernel.py: kernel file does not exist" in res.output


def test_unknown_backend_names_the_choices_and_exits_2() -> None:
    res = invoke(
        "eval",
        str(SMOKE / "1_add_relu.py"),
        str(SMOKE / "kernels" / "1_add_relu.py"),
        "--backend",
        "fortran",
    )
    assert res.exit_code == 2
    assert "unknown backend 'fortran'" in res.output and "cpu" in res.output


def test_malformed_task_names_the_file_and_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "1_bad.py"
    bad.write_text("import torch\nclass Model: pass\n")
    res = invoke("eval", str(bad), str(SMOKE / "kernels" / "1_add_relu.py"))
    assert res.exit_code == 2
    assert "1_bad.py" in res.output and "get_inputs" in res.output


def test_tasks_lists_shapes_flops_and_bytes_from_the_meta_device() -> None:
    res = invoke("tasks", str(SMOKE), "--json")
    assert res.exit_code == 0, res.output
    rows = {r["name"]: r for r in json.loads(res.output)}
    assert rows["4_matmul"]["flops"] == 2 * 128 * 256 * 128
    assert rows["1_add_relu"]["inputs"][0] == {"shape": [256, 512], "dtype": "float32"}
    assert rows["6_linear_gelu"]["parameters"] > 0


def test_tasks_on_a_huge_task_does_not_materialise_inputs(tmp_path: Path) -> None:
    task = tmp_path / "1_huge.py"
    task.write_text(
        "import torch\nimport torch.nn as nn\nN = 1 << 40\n"
        "class Model(nn.Module):\n    def forward(self, x):\n        return x * 2\n"
        "def get_inputs():\n    return [torch.rand(N)]\n"
        "def get_init_inputs():\n    return []\n"
    )
    res = invoke("tasks", str(task), "--json")  # 4 TB of input if it were real
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)[0]["bytes"] == 2 * 4 * (1 << 40)


@pytest.mark.parametrize(
    ("stage", "correct", "interpreted", "code"),
    [
        (Stage.CORRECT, True, False, 0),
        (Stage.CORRECT, True, True, 3),
        (Stage.COMPILED, False, False, 3),
        (Stage.INCORRECT, False, False, 1),
        (Stage.COMPILE_FAILED, False, False, 1),
    ],
)
def test_exit_codes(stage, correct, interpreted, code) -> None:
    r = EvalResult("t", "cpu", "x", stage, correct=correct, interpreted=interpreted)
    assert exit_code_for(r) == code


@pytest.mark.slow
def test_eval_of_the_shipped_kernel_prints_json_and_exits_0() -> None:
    res = invoke(
        "eval",
        str(SMOKE / "1_add_relu.py"),
        str(SMOKE / "kernels" / "1_add_relu.py"),
        "--json",
        "--backend",
        "cpu",
        "--timing-trials",
        "3",
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["accepted"] is True and data["stage"] == "correct"
    assert data["speedup_eager"] and data["runtime_ms"]["trials"] == 3


def test_doctor_reports_names_of_credentials_never_values(monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-do-not-print-me")
    res = invoke("doctor", "--json")
    assert res.exit_code == 0, res.output
    report = json.loads(res.output)
    assert "OPENAI_API_KEY" in report["llm credentials"]
    assert "sk-do-not-print-me" not in res.output
    assert report["cpu backend"].startswith("build")
