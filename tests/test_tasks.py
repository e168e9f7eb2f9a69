"""Task and batch loading: KernelBench format, bad files, size overrides, manifests."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kernelsearch.errors import TaskFormatError
from kernelsearch.tasks import apply_sizes, load_batch, load_manifest, load_task

GOOD = """import torch
import torch.nn as nn

batch_size = 16
dim = 4096
scale = 0.5

class Model(nn.Module):
    def forward(self, x):
        return x * scale

def get_inputs():
    return [torch.rand(batch_size, dim)]

def get_init_inputs():
    return []
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_directory_batch_is_ordered_by_numeric_prefix_then_name(tmp_path: Path) -> None:
    for name in ("10_b.py", "2_a.py", "1_z.py", "alpha.py", "_private.py"):
        write(tmp_path, name, GOOD)
    assert [t.name for t in load_batch(tmp_path)] == ["1_z", "2_a", "10_b", "alpha"]


def test_smoke_batch_loads_in_order(smoke_tasks: dict) -> None:
    assert list(smoke_tasks)[:2] == ["1_add_relu", "2_row_softmax"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (GOOD.replace("def get_inputs", "def other"), "no get_inputs"),
        (GOOD.replace("class Model", "class Other"), "no Model"),
        (GOOD.replace("def get_init_inputs", "def nope"), "no get_init_inputs"),
        (GOOD + "\ndef broken(:\n", "syntax error"),
    ],
)
def test_malformed_task_names_file_and_what_is_missing(
    tmp_path: Path, text: str, message: str
) -> None:
    path = write(tmp_path, "1_bad.py", text)
    with pytest.raises(TaskFormatError) as err:
        load_task(path)
    assert str(path) in str(err.value) and message in str(err.value)


def test_missing_task_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(TaskFormatError, match="does not exist"):
        load_task(tmp_path / "nope.py")
    with pytest.raises(TaskFormatError, match="no such task"):
        load_batch(tmp_path / "nope")


def test_size_override_rewrites_only_the_named_constant() -> None:
    out = apply_sizes(GOOD, {"batch_size": 2}, origin="t.py")
    assert "batch_size = 2" in out and "dim = 4096" in out
    assert "batch_size = 16" not in out


def test_size_override_of_unknown_constant_is_an_error() -> None:
    with pytest.raises(TaskFormatError, match="no module-level constant: nope"):
        apply_sizes(GOOD, {"nope": 3}, origin="t.py")


def test_manifest_applies_defaults_overrides_and_tolerances(tmp_path: Path) -> None:
    write(tmp_path, "1_scale.py", GOOD)
    manifest = write(
        tmp_path,
        "small.toml",
        """
[defaults]
atol = 0.001
[defaults.sizes]
dim = 64
not_defined_here = 3

[[task]]
path = "1_scale.py"
trials = 2
sizes = { batch_size = 4 }

[[task]]
path = "1_scale.py"
name = "scale_big"
rtol = 0.01
allow_torch_ops = true
""",
    )
    small, big = load_manifest(manifest)
    assert small.name == "1_scale" and small.sizes == {"dim": 64, "batch_size": 4}
    assert small.atol == 0.001 and small.trials == 2
    assert "batch_size = 4" in small.effective_source and "dim = 64" in small.effective_source
    assert big.name == "scale_big" and big.rtol == 0.01 and big.allow_torch_ops is True
    assert small.hash != big.hash


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[task]]\nsizes = {x = 1}\n", "missing 'path'"),
        ("[[task]]\npath = '1_scale.py'\nbogus = 1\n", "unknown key"),
        ("[[task]]\npath = '1_scale.py'\nsizes = { nope = 1 }\n", "no module-level constant"),
        ("[[task]\npath = 1\n", "malformed TOML"),
        ("title = 'x'\n", "no [[task]] entries"),
        ("[[task]]\npath = 'missing.py'\n", "does not exist"),
    ],
)
def test_bad_manifest_names_the_manifest(tmp_path: Path, text: str, message: str) -> None:
    write(tmp_path, "1_scale.py", GOOD)
    manifest = write(tmp_path, "m.toml", text)
    with pytest.raises(TaskFormatError, match=re.escape(message)):
        load_manifest(manifest)


def test_task_round_trips_through_dict(tmp_path: Path) -> None:
    path = write(tmp_path, "1_scale.py", GOOD)
    task = load_task(path).with_sizes({"dim": 8})
    again = type(task).from_dict(task.to_dict())
    assert again.effective_source == task.effective_source and again.hash == task.hash


@pytest.mark.parametrize("name", ["my op", "../escape", ".hidden", "a/b"])
def test_task_name_that_cannot_be_a_file_name_is_refused(tmp_path: Path, name: str) -> None:
    path = write(tmp_path, "1_ok.py", GOOD)
    with pytest.raises(TaskFormatError, match=re.escape(f"task name {name!r} cannot be a file")):
        load_task(path, name=name)


def test_task_file_stem_with_a_space_is_refused(tmp_path: Path) -> None:
    write(tmp_path, "my op.py", GOOD)
    with pytest.raises(TaskFormatError, match="rename the file"):
        load_batch(tmp_path)
