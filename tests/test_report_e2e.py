"""Report and export on a run the real engine made (real CLI, litellm, fake LLM server, CPU
harness on the smoke add_relu task): the report agrees with the engine's summary.json."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from fakellm import FakeLLM, fenced
from typer.testing import CliRunner

from kernelsearch.cli.report_cmds import register
from kernelsearch.report import TaskBest, build_report, export_run
from kernelsearch.store import RunStore

ROOT = Path(__file__).resolve().parents[1]
SMOKE = ROOT / "benchmarks" / "smoke"
GOOD_KERNEL = (SMOKE / "kernels" / "1_add_relu.py").read_text()
RUN_TIMEOUT_S = 600

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def engine_run(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("e2e")
    batch = root / "batch"
    batch.mkdir()
    shutil.copy(SMOKE / "1_add_relu.py", batch)
    fake = FakeLLM().start()
    try:
        fake.default("generate", fenced(GOOD_KERNEL))
        fake.default("reflect", "<instructions>Fuse loops with OpenMP.</instructions>")
        env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
        out = root / "run"
        args = [str(batch), "--backend", "cpu", "--model", "openai/gpt-4o-mini"]
        args += ["--api-base", fake.api_base, "--minibatch-size", "1", "--concurrency", "1"]
        args += ["--out", str(out), "--no-live", "--budget", "3"]
        cmd = [sys.executable, "-c", "from kernelsearch.cli import main; main()", "run", *args]
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
        assert proc.returncode == 0, proc.stdout + proc.stderr
    finally:
        fake.stop()
    return out


def test_report_of_an_engine_run_agrees_with_its_summary(engine_run):
    summary = json.loads((engine_run / "summary.json").read_text())
    report = build_report(engine_run)
    (mine,) = report.search.best
    (theirs,) = summary["tasks"]
    assert mine.task == theirs["task"] == "1_add_relu"
    assert mine.accepted and mine.figures == "retime"
    # the same record, field for field; only the summary knows where kernels/ put the file
    assert theirs["kernel_file"] == "kernels/1_add_relu.py"
    assert TaskBest.from_dict(theirs) == dataclasses.replace(
        mine, kernel_file=theirs["kernel_file"]
    )
    assert report.spend.evaluations == summary["evaluations"]
    assert report.spend.budget == summary["eval_budget"]
    assert report.spend.cost_usd == pytest.approx(summary["cost_usd"])
    assert sorted(f.candidate_id for f in report.frontier) == sorted(summary["frontier"])
    assert report.timing_methods and report.hardware
    assert report.progress[-1].evaluations == summary["evaluations"]


def test_export_of_an_engine_run_writes_the_evaluated_source(engine_run, tmp_path):
    manifest = export_run(engine_run, tmp_path / "out")
    assert manifest.kernels == {"1_add_relu": "1_add_relu.py"}
    report = build_report(engine_run)
    with RunStore.open(engine_run) as store:
        (shown,) = [e for e in store.evaluations() if e.id == report.search.best[0].evaluation_id]
    assert (tmp_path / "out" / "1_add_relu.py").read_text() == shown.source
    assert shown.result.accepted


def test_html_report_of_an_engine_run_renders(engine_run, tmp_path):
    pytest.importorskip("matplotlib")
    app = typer.Typer()
    register(app)
    page = tmp_path / "r.html"
    out = CliRunner().invoke(app, ["report", str(engine_run), "--html", str(page)])
    assert out.exit_code == 0, out.output
    assert page.read_text().count("<svg id=") == 4
