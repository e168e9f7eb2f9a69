"""`kernelsearch export`: only accepted kernels, named after their tasks, plus results and prompts."""

from __future__ import annotations

import json

import pytest
import test_report_data as data
import typer
from typer.testing import CliRunner

from kernelsearch.bests import kernel_filename
from kernelsearch.cli.report_cmds import register
from kernelsearch.config import EvalConfig
from kernelsearch.errors import ConfigError
from kernelsearch.harness.batch import evaluate_batch, match_kernels
from kernelsearch.report import export_run
from kernelsearch.result import Stage
from kernelsearch.store import RunStore


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    return data.build_run(tmp_path_factory.mktemp("export") / "run")


@pytest.fixture
def exported(run_dir, tmp_path):
    out = tmp_path / "kernels"
    return out, export_run(run_dir, out)


def test_export_writes_one_file_per_task_with_an_accepted_kernel(exported):
    out, manifest = exported
    assert sorted(p.name for p in out.glob("*.py")) == [
        "1_relu.py",
        "2_matmul.py",
        "3_softmax.py",
        "4_conv.py",
    ]
    assert not (out / "5_layernorm.py").exists()
    assert manifest.kernels["1_relu"] == "1_relu.py"


def test_exported_files_are_the_accepted_sources_byte_for_byte(exported):
    out, _ = exported
    assert (out / "1_relu.py").read_text() == data.RELU_FAST
    assert (out / "2_matmul.py").read_text() == data.MM_FULL  # MM_FAST failed its re-time
    assert (out / "3_softmax.py").read_text() == data.SOFTMAX_SEED  # not the guard-flagged one
    assert (out / "4_conv.py").read_text() == data.CONV_WARN
    texts = {p.read_text() for p in out.rglob("*.py")}
    assert data.SOFTMAX_HACK not in texts and data.MM_FAST not in texts


def test_held_out_test_kernels_go_in_their_own_folder(exported):
    out, manifest = exported
    assert (out / "test" / "9_gelu.py").read_text() == data.GELU_TEST
    assert manifest.test_kernels == {"9_gelu": "test/9_gelu.py"}


def test_results_json_has_kernelbench_fields_per_task(exported):
    out, _ = exported
    results = json.loads((out / "results.json").read_text())
    relu = results["tasks"]["1_relu"]
    assert relu["kernel"] == "1_relu.py"
    assert relu["compiled"] and relu["correctness"]
    assert relu["runtime_ms"] == 0.8 and relu["runtime_stats"]["method"] == data.METHOD
    assert relu["speedup_eager"] == pytest.approx(2.5)
    assert relu["speedup_compile"] == pytest.approx(2.0)
    assert relu["hardware"] == data.DEVICE and relu["figures"] == "retime"
    layernorm = results["tasks"]["5_layernorm"]
    assert layernorm["kernel"] is None and not layernorm["correctness"]
    assert not layernorm["compiled"] and layernorm["runtime_ms"] is None
    assert results["fast_p"]["eager"]["fast_1"] == pytest.approx(0.4)
    assert results["objective"] == "speed" and results["timing_methods"] == [data.METHOD]
    assert results["test"]["tasks"]["9_gelu"]["kernel"] == "test/9_gelu.py"


def test_frontier_prompts_are_exported_as_plain_text(exported):
    out, manifest = exported
    assert manifest.prompts == {0: "prompts/prompt_0.md", 1: "prompts/prompt_1.md"}
    assert (out / "prompts" / "prompt_1.md").read_text().strip() == data.CHILD_PROMPT
    results = json.loads((out / "results.json").read_text())
    assert results["frontier"][0]["wins"] == ["3_softmax"]


def test_export_refuses_a_non_empty_directory_it_did_not_write(run_dir, tmp_path):
    out = tmp_path / "busy"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    with pytest.raises(ConfigError, match="not empty"):
        export_run(run_dir, out, force=True)
    assert (out / "notes.txt").read_text() == "mine"


def test_export_again_needs_force_and_then_replaces_only_its_own_files(exported, run_dir):
    out, _ = exported
    with pytest.raises(ConfigError, match="--force"):
        export_run(run_dir, out)
    results = json.loads((out / "results.json").read_text())
    results["files"].append("stale_task.py")  # as if an older export had a kernel for it
    (out / "results.json").write_text(json.dumps(results))
    (out / "stale_task.py").write_text("old")
    (out / "notes.txt").write_text("mine")
    export_run(run_dir, out, force=True)
    assert not (out / "stale_task.py").exists()
    assert (out / "notes.txt").exists() and (out / "1_relu.py").exists()


def test_a_task_name_that_is_not_a_file_name_is_refused():
    assert kernel_filename("19_ReLU") == "19_ReLU.py"
    for bad in ("../evil", "a/b", ".hidden", ""):
        with pytest.raises(ConfigError, match="file name"):
            kernel_filename(bad)


def test_export_on_the_command_line_lists_files_and_the_reverify_command(run_dir, tmp_path):
    app = typer.Typer()
    register(app)
    out = CliRunner().invoke(app, ["export", str(run_dir), "--to", str(tmp_path / "k")])
    assert out.exit_code == 0, out.output
    assert "exported 4 kernel(s) (+1 test) and 2 frontier prompt(s)" in out.output
    assert "kernelsearch eval BATCH --kernels" in out.output
    again = CliRunner().invoke(app, ["export", str(run_dir), "--to", str(tmp_path / "k")])
    assert again.exit_code == 2 and "--force" in again.output


# ---- the round trip a user makes: export, then `kernelsearch eval BATCH --kernels DIR` ----------


@pytest.fixture(scope="module")
def smoke_export(tmp_path_factory, smoke_tasks, add_relu_kernel):
    """A run over the smoke batch where only 1_add_relu has an accepted kernel, exported."""
    root = tmp_path_factory.mktemp("smoke")
    tasks = {"train": [t.to_dict() for t in smoke_tasks.values()], "val": [], "test": []}
    store = RunStore.create(root / "run", "smoke", {}, tasks)
    store.put_candidate(0, {"instructions": "seed"}, (), "seed", 0, 0, "pool")
    data.add(store, 0, "seed_full", 0, add_relu_kernel, data.result("1_add_relu", times=(1, 2, 2)))
    data.add(store, 0, "seed_full", 0, "x", data.result("4_matmul", Stage.INCORRECT))
    store.close()
    out = root / "export"
    export_run(root / "run", out)
    return out


def test_exported_files_match_the_batch_tasks_by_name(smoke_export, smoke_tasks):
    matched = match_kernels(list(smoke_tasks.values()), smoke_export)
    assert matched["1_add_relu"] == smoke_export / "1_add_relu.py"
    assert [t for t, p in matched.items() if p is not None] == ["1_add_relu"]


@pytest.mark.slow
def test_an_exported_kernel_passes_eval_again(smoke_export, smoke_tasks, cache_dir):
    config = EvalConfig(backend="cpu", cache_dir=cache_dir, timing_trials=5, warmup=1)
    items = evaluate_batch([smoke_tasks["1_add_relu"]], smoke_export, config)
    assert items[0].result is not None and items[0].result.accepted, items[0].result
