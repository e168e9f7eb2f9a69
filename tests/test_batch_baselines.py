"""Every shipped level1/level2 operator passes `kernelsearch baseline` on the CPU through its
reduced-size manifest (the size-override mechanism), eager and torch.compile alike."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kernelsearch.cli import app
from kernelsearch.tasks import load_manifest

REPO = Path(__file__).resolve().parents[1]
MANIFESTS = [
    REPO / "benchmarks" / "level1" / "cpu_small.toml",
    REPO / "benchmarks" / "level2" / "cpu_small.toml",
]


@pytest.mark.slow
@pytest.mark.parametrize("manifest", MANIFESTS, ids=lambda p: p.parent.name)
def test_every_task_has_eager_and_compile_baselines_on_cpu(manifest: Path) -> None:
    res = CliRunner().invoke(
        app,
        [
            "baseline",
            str(manifest),
            "--backend",
            "cpu",
            "--timing-trials",
            "3",
            "--json",
            "--cache-dir",
            os.environ["KERNELSEARCH_CACHE"],
        ],
    )
    assert res.exit_code == 0, res.output
    rows = {r["task"]: r for r in json.loads(res.output)}
    assert set(rows) == {t.name for t in load_manifest(manifest)}
    for name, row in rows.items():
        assert row["eager"]["median"] > 0, name
        assert row["compile"] is not None and row["compile"]["median"] > 0, (
            name,
            row["compile_error"],
        )
        assert row["eager"]["method"] == "cpu_perf_counter"
