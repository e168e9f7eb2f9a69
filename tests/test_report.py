"""`kernelsearch report`: the numbers a run report shows, read from a real run store."""

from __future__ import annotations

import json

import pytest
import test_report_data as data
import typer
from rich.console import Console
from typer.testing import CliRunner

from kernelsearch.cli.report_cmds import register
from kernelsearch.report import RunReport, build_report, to_markdown
from kernelsearch.report.terminal import render
from kernelsearch.store import RunStore


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    return data.build_run(tmp_path_factory.mktemp("report") / "run")


@pytest.fixture(scope="module")
def report(run_dir) -> RunReport:
    return build_report(run_dir)


@pytest.fixture
def cli():
    app = typer.Typer()
    register(app)
    runner = CliRunner()
    return lambda *args: runner.invoke(app, [str(a) for a in args])


def _best(report: RunReport) -> dict:
    return {b.task: b for b in report.search.best}


def test_report_fast_p_and_geomean_match_the_hand_computed_values(report):
    d = report.to_dict()["search"]
    assert d["fast_p"]["eager"] == pytest.approx(data.EXPECTED["fast_p_eager"])
    assert d["fast_p"]["compile"] == pytest.approx(data.EXPECTED["fast_p_compile"])
    assert d["geomean"]["eager"] == pytest.approx(data.EXPECTED["geomean_eager"])
    assert d["geomean"]["compile"] == pytest.approx(data.EXPECTED["geomean_compile"])


def test_each_task_shows_its_best_accepted_kernel_with_final_figures(report):
    best = _best(report)
    for task, s in data.EXPECTED["speedups_eager"].items():
        assert best[task].accepted
        assert best[task].speedup_eager == pytest.approx(s)
        assert best[task].speedup_compile == pytest.approx(data.EXPECTED["speedups_compile"][task])
        assert best[task].candidate_id == data.EXPECTED["writer"][task]
    assert {t: b.figures for t, b in best.items()} == data.EXPECTED["figures"]
    assert best["1_relu"].runtime_ms == 0.8  # the re-time, not the search's 0.5 ms
    assert best["4_conv"].flags[0].name == "small_output"


def test_a_guard_rejected_faster_kernel_is_never_shown_as_best(report):
    softmax = _best(report)["3_softmax"]
    assert softmax.speedup_eager == pytest.approx(0.5)  # not the 10x kernel with an error flag
    assert softmax.candidate_id == 0


def test_a_never_evaluated_task_is_listed_as_a_failure(report):
    layernorm = _best(report)["5_layernorm"]
    assert not layernorm.accepted
    assert layernorm.speedup_eager is None and layernorm.runtime_ms is None
    assert layernorm.stage == "not_evaluated"
    assert "5_layernorm" in report.search.tasks


def test_report_names_objective_hardware_timing_method_and_spend(report):
    assert report.objective == "speed" and report.baseline == "eager"
    assert report.hardware == (data.DEVICE,)
    assert report.timing_methods == (data.METHOD,)
    s = report.spend
    assert (s.evaluations, s.budget, s.retimes, s.test_evaluations) == (13, 20, 2, 1)
    assert s.cost_usd == pytest.approx(data.EXPECTED["cost_usd"])
    assert (s.llm_calls, s.llm_errors, s.cost_unknown_calls) == (4, 1, 1)


def test_frontier_prompts_list_the_tasks_each_wins(report):
    wins = {f.candidate_id: list(f.wins) for f in report.frontier}
    assert wins == data.EXPECTED["frontier_wins"]
    assert report.ownership.owners["5_layernorm"] == ()
    assert report.frontier[1].components["instructions"] == data.CHILD_PROMPT
    lineage = {n.id: n for n in report.lineage}
    assert lineage[2].status == "rejected" and not lineage[2].on_frontier
    assert lineage[2].best_kernels == ("4_conv",)


def test_progress_ends_at_the_evaluations_spent_with_the_final_search_state(report):
    last = report.progress[-1]
    assert len(report.progress) == 13 and last.evaluations == 13
    assert last.accepted_tasks == 4
    assert last.fast_1_eager == pytest.approx(0.4)
    # Best search scores at the end: relu 4x, matmul 3x, softmax 0.5x, conv 1x, layernorm none.
    expected = (1 + 4 / 5) + (1 + 3 / 4) + (1 + 0.5 / 1.5) + (1 + 1 / 2)
    assert last.mean_best_score == pytest.approx(expected / 5, rel=1e-6)


def test_held_out_test_tasks_are_reported_apart(report):
    assert report.test is not None
    assert report.test.tasks == ("9_gelu",)
    assert report.test.fast_p["eager"][1.0] == 1.0
    assert report.test.fast_p["compile"][0.0] == 1.0  # accepted, no compile baseline
    assert report.test.fast_p["compile"][0.5] == 0.0
    assert report.test.geomean["compile"] is None


def test_report_round_trips_through_its_json(report):
    d = json.loads(json.dumps(report.to_dict()))
    assert RunReport.from_dict(d) == report


def test_markdown_has_the_tables_a_pull_request_needs(report):
    md = to_markdown(report)
    assert "| eager | 80.0% | 60.0% | 60.0% | 40.0% | 40.0% | 20.0% | 1.26x |" in md
    assert "| `1_relu` | accepted | 2.50x | 2.00x | 0.8 | correct | – | #1 | re-timed |" in md
    assert "### Prompt #1 (mutation, parents: #0)" in md
    assert "## Held-out test (1 tasks)" in md
    assert "cpu_perf_counter" in md and "test-cpu" in md


def test_terminal_tables_show_every_task(report):
    console = Console(record=True, width=200)
    console.print(render(report))
    text = console.export_text()
    for task in data.TASKS:
        assert task in text
    assert "2.50x" in text and "$0.0300" in text


def test_report_of_a_run_without_evaluations_is_all_failures(tmp_path):
    store = RunStore.create(tmp_path / "empty", "e", {"budget": 5}, {"train": [{"name": "a"}]})
    store.close()
    r = build_report(tmp_path / "empty")
    assert r.search.fast_p["eager"][0.0] == 0.0
    assert r.search.geomean == {"eager": None, "compile": None}
    assert r.frontier == () and r.progress == () and r.test is None
    assert "1 tasks" in to_markdown(r)


# ---- which evaluation a task shows ------------------------------------------------------------


# ---- CLI ---------------------------------------------------------------------------------------


def test_report_json_on_the_command_line_is_the_report_dict(cli, run_dir, report):
    out = cli("report", run_dir, "--json")
    assert out.exit_code == 0, out.output
    assert json.loads(out.output) == json.loads(json.dumps(report.to_dict()))


def test_report_markdown_on_the_command_line(cli, run_dir):
    out = cli("report", run_dir, "--markdown")
    assert out.exit_code == 0
    assert out.output.startswith("# kernelsearch run `run-a`")


def test_report_refuses_json_and_markdown_together(cli, run_dir):
    out = cli("report", run_dir, "--json", "--markdown")
    assert out.exit_code == 2
    assert "not both" in out.output


def test_report_of_a_directory_without_a_run_names_the_problem(cli, tmp_path):
    out = cli("report", tmp_path)
    assert out.exit_code == 2
    assert "run.sqlite" in out.output


def test_report_in_the_terminal_prints_tables(cli, run_dir):
    out = cli("report", run_dir)
    assert out.exit_code == 0
    assert "fast_p over 5 tasks" in out.output and "frontier prompts" in out.output
