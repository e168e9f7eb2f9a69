"""`kernelsearch report --html`: one self-contained page whose plots render in headless Chromium."""

from __future__ import annotations

import json
import re
import struct
import subprocess
from pathlib import Path

import pytest
import test_report_data as data
import typer
from typer.testing import CliRunner

pytest.importorskip("matplotlib")

from kernelsearch.cli.report_cmds import register  # noqa: E402
from kernelsearch.report import build_report, to_html, write_html  # noqa: E402
from kernelsearch.report.plots import PLOT_IDS  # noqa: E402
from kernelsearch.store import RunStore  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_TIMEOUT_S = 120
SCREEN = (1200, 3200)
MIN_SCREENSHOT_COLORS = 50  # a blank or error page has a handful

needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="headless Chromium not installed (apt-get install chromium)"
)


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("html")
    run = data.build_run(root / "run")
    return write_html(build_report(run), root / "report.html")


def _chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    cmd = [
        str(CHROMIUM),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={tmp_path / 'chromium-profile'}",
        *args,
    ]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=CHROMIUM_TIMEOUT_S)


def test_page_inlines_every_plot_and_fetches_nothing(page):
    html = page.read_text()
    for plot_id in PLOT_IDS:
        assert html.count(f'<svg id="{plot_id}"') == 1
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    assert "<link" not in html and "<script src" not in html


def test_page_embeds_the_report_json(page):
    html = page.read_text()
    found = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', html)
    embedded = json.loads(found.group(1))
    assert embedded["run_id"] == "run-a"
    assert embedded["search"]["fast_p"]["eager"]["fast_1"] == pytest.approx(0.4)


def test_a_run_with_nothing_evaluated_still_renders_every_plot(tmp_path):
    RunStore.create(tmp_path / "r", "empty", {}, {"train": [{"name": "a"}]}).close()
    html = to_html(build_report(tmp_path / "r"))
    assert all(f'<svg id="{p}"' in html for p in PLOT_IDS)
    assert "no evaluations yet" in html and "no candidates yet" in html


@needs_chromium
def test_chromium_dom_holds_the_four_plots_and_tables(page, tmp_path):
    out = _chromium(tmp_path, "--dump-dom", page.as_uri())
    assert out.returncode == 0, out.stderr[-2000:]
    dom = out.stdout
    for plot_id in PLOT_IDS:
        svg = re.search(rf'<svg id="{plot_id}"[^>]*>(.*?)</svg>', dom, re.DOTALL)
        assert svg is not None, plot_id
        assert svg.group(1).count("<path") >= 5  # axes, bars, lines, markers were drawn
    assert dom.count("<figure>") == len(PLOT_IDS)
    for table_id in ("overview", "fast-p", "best", "progress", "test-best"):
        assert f'id="{table_id}"' in dom
    for task in data.TASKS:
        assert task in dom


@needs_chromium
def test_chromium_screenshot_is_a_full_page_not_a_blank(page, tmp_path):
    shot = tmp_path / "shot.png"
    w, h = SCREEN
    out = _chromium(tmp_path, f"--screenshot={shot}", f"--window-size={w},{h}", page.as_uri())
    assert out.returncode == 0 and shot.exists(), out.stderr[-2000:]
    header = shot.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", header[16:24]) == (w, h)
    image = pytest.importorskip("PIL.Image")
    with image.open(shot) as im:
        colors = im.convert("RGB").getcolors(maxcolors=1 << 20)
    assert colors is not None and len(colors) > MIN_SCREENSHOT_COLORS


def test_report_html_on_the_command_line_writes_the_page(tmp_path):
    run = data.build_run(tmp_path / "run")
    app = typer.Typer()
    register(app)
    out = CliRunner().invoke(
        app, ["report", str(run), "--json", "--html", str(tmp_path / "r.html")]
    )
    assert out.exit_code == 0, out.output
    assert (tmp_path / "r.html").read_text().count("<svg id=") == len(PLOT_IDS)
