"""The matching rules of benchmarks/retrieval/api_recall.py (no split is measured here)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from kernelsearch.retrieval.api_catalog import ApiFact

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "retrieval" / "api_recall.py"


def _module():
    sys.path.insert(0, str(SCRIPT.parent))  # the script imports its sibling recall.py
    try:
        spec = importlib.util.spec_from_file_location("retrieval_api_recall", SCRIPT)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up here
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(SCRIPT.parent))
    return module


def test_names_compare_by_their_last_component() -> None:
    m = _module()
    assert m.last_component("cooperative_groups::tiled_partition") == "tiled_partition"
    assert m.last_component("tl.extra.cuda.libdevice.tanh") == "tanh"
    assert m.last_component("__hmul") == "__hmul"


def test_a_missing_name_offers_its_nearest_names_but_not_itself() -> None:
    m = _module()
    missing = ApiFact(
        name="__float2bf16",
        library="cuda",
        version="13.0",
        exists=False,
        nearest=("__float2bfloat16", "__float2bfloat16_rn"),
    )
    assert m.names_offered(missing) == {"__float2bfloat16", "__float2bfloat16_rn"}
    present = ApiFact(name="tl.where", library="triton", version="3.9.0")
    assert m.names_offered(present) == {"where"}


def test_a_log_is_answered_by_a_section_in_the_top_k_or_an_api_hit() -> None:
    m = _module()
    base = dict(name="x", backend="gcc", sections=("a/b",), api=(), got_sections=(), got_facts=())
    assert m.Outcome(**base, section_rank=3, api_hit=False).answered(3)
    assert not m.Outcome(**base, section_rank=3, api_hit=False).answered(1)
    assert not m.Outcome(**base, section_rank=None, api_hit=False).answered(3)
    assert m.Outcome(**base, section_rank=None, api_hit=True).answered(3)
