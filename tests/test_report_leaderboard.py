"""`kernelsearch leaderboard`: runs side by side, ranked by fast_1 then geomean."""

from __future__ import annotations

import json

import pytest
import test_report_data as data
import typer
from typer.testing import CliRunner

from kernelsearch.cli.report_cmds import register
from kernelsearch.report.leaderboard import LeaderboardRow, caveats, leaderboard_rows, rank
from kernelsearch.search.config import SearchConfig
from kernelsearch.store import RunStore


def _small_run(run_dir, run_id, model, tasks=data.TASKS, device=data.DEVICE):
    """One seed evaluation: 1_relu accepted at 3x eager / 1.5x compile, the rest missing."""
    config = SearchConfig(budget=8, model=model).to_dict()
    names = [{"name": t} for t in tasks]
    store = RunStore.create(run_dir, run_id, config, {"train": names, "val": [], "test": []})
    store.put_candidate(0, {"instructions": "seed"}, (), "seed", 0, 0, "pool")
    r = data.result("1_relu", times=(1.0, 3.0, 1.5)).with_(device=device)
    data.add(store, 0, "seed_full", 0, data.RELU_SEED, r)
    store.close()
    return run_dir


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("leaderboard")
    b = _small_run(root / "b", "run-b", "anthropic/other-model")
    a = data.build_run(root / "a")
    return a, b


def test_runs_are_ranked_by_fast_1_with_their_settings(runs):
    a, b = runs
    rows = leaderboard_rows([b, a])
    assert [r.run_id for r in rows] == ["run-a", "run-b"]  # fast_1 eager 0.4 vs 0.2
    top, second = rows
    assert top.model == "openai/test-model" and second.model == "anthropic/other-model"
    assert (top.backend, top.hardware, top.budget, top.evaluations) == (
        "cpu",
        (data.DEVICE,),
        20,
        13,
    )
    assert second.budget == 8 and second.evaluations == 1
    assert second.fast_p["eager"][1.0] == pytest.approx(0.2)
    assert second.geomean["eager"] == pytest.approx(3.0)
    assert top.geomean["compile"] == pytest.approx(data.EXPECTED["geomean_compile"])


def test_ranking_against_compile_can_differ_from_eager(runs):
    a, b = runs
    rows = leaderboard_rows([a, b], baseline="compile")
    # fast_1 compile is 0.2 for both; geomean compile 1.5 (b) beats 0.67 (a).
    assert [r.run_id for r in rows] == ["run-b", "run-a"]


def test_rank_breaks_full_ties_by_input_order_and_puts_missing_geomean_last():
    def row(run_id, f1, g):
        return LeaderboardRow(
            run_id, "", "finished", "m", "cpu", ("x",), "speed", 1, 1, 0.0, ("t",),
            {"eager": {1.0: f1}}, {"eager": g},
        )  # fmt: skip

    rows = [row("none", 0.0, None), row("first", 0.5, 1.2), row("second", 0.5, 1.2)]
    assert [r.run_id for r in rank(rows)] == ["first", "second", "none"]


def test_caveats_name_runs_that_are_not_comparable(tmp_path):
    a = _small_run(tmp_path / "a", "a", "m")
    b = _small_run(tmp_path / "b", "b", "m", tasks=("1_relu",), device="other-gpu")
    notes = caveats(leaderboard_rows([a, b]))
    assert any("different task sets" in n for n in notes)
    assert any("different hardware" in n for n in notes)
    assert caveats(leaderboard_rows([a, a])) == []


def test_leaderboard_row_round_trips_through_its_dict(runs):
    row = leaderboard_rows([runs[0]])[0]
    assert LeaderboardRow.from_dict(json.loads(json.dumps(row.to_dict()))) == row


def test_leaderboard_on_the_command_line(runs):
    a, b = runs
    app = typer.Typer()
    register(app)
    runner = CliRunner()
    out = runner.invoke(app, ["leaderboard", str(b), str(a), "--json"])
    assert out.exit_code == 0, out.output
    assert [r["run_id"] for r in json.loads(out.output)] == ["run-a", "run-b"]
    md = runner.invoke(app, ["leaderboard", str(a), str(b), "--markdown"]).output
    assert md.splitlines()[0].startswith("| run | model | backend | hardware |")
    assert "| run-a | openai/test-model | cpu | test-cpu | speed | 13 / 20 |" in md
    table = runner.invoke(app, ["leaderboard", str(a), str(b)])
    assert table.exit_code == 0 and "run-b" in table.output
    bad = runner.invoke(app, ["leaderboard", str(a), "--baseline", "inductor"])
    assert bad.exit_code == 2
