"""Recall@3 of retrieval on the committed error logs (benchmarks/retrieval/recall.py)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

RECALL = Path(__file__).resolve().parents[1] / "benchmarks" / "retrieval" / "recall.py"
HELDOUT_FLOOR = 0.9  # the goal; measured 1.0 (33/33) when the corpus was written and now
DEV_FLOOR = 0.9
# dev2 was written after the docs (untuned: 0.710 at k=3), then tuned on in session 2:
# measured 1.0 (31/31) at k=3 and 0.935 (29/31) at k=1 after that session.
DEV2_FLOOR = 0.9
# dev3 (was the blind "fresh2") measured 0.750 (33/44) at k=3 and 0.659 at k=1 when first run,
# untuned; it was then tuned on (new sections, labels for the five uncovered logs): measured
# 1.0 (44/44) at k=3 and 0.932 (41/44) at k=1 afterwards. Tuned numbers say nothing about
# unseen logs; only a new blind split does.
DEV3_FLOOR = 0.9
# dev4 (was the blind "fresh3") measured 0.804 (37/46) at k=3 and 0.609 (28/46) at k=1 when first
# run, untuned; it was then tuned on in the next session (ranking changes, sections for its four
# uncovered logs): measured 1.0 (46/46) at k=3 and 0.913 (42/46) at k=1 afterwards.
DEV4_FLOOR = 0.9
# dev5 (was the blind "fresh4") measured 0.714 (30/42) at k=3 and 0.619 (26/42) at k=1 when first
# run, untuned; it was then tuned on (documentation only: sections for its five uncovered logs,
# extended sections for seven ranked below 3): measured 1.0 (42/42) at k=3 and 0.881 (37/42) at
# k=1 afterwards, with every other split unchanged at both k.
DEV5_FLOOR = 0.9
# recall@1 on every split; measured after round 8 (session 4): dev 0.970, heldout 1.0,
# dev2 0.968, dev3 0.955, dev4 0.913, dev5 0.905, dev6 0.912, dev7 0.844, dev8 0.865.
TOP1_FLOOR = 0.8
# dev6 (was the blind "fresh5", 34 logs), dev7 ("fresh6", 45) and dev8 ("fresh7", 37) were
# measured blind (recall@3 0.588, 0.578, 0.459), then tuned on: round 7 of session 3 and round 8
# of session 4 wrote sections for every log no section answered and labelled them. Measured after
# round 8: 1.0 at k=3 on all three; at k=1 dev6 0.912 (31/34), dev7 0.844 (38/45), dev8 0.865 (32/37).
DEV6_TO_8_FLOOR = 0.9
# fresh9 (36 logs, the most common mistakes by frequency) was measured blind once, untuned:
# 0.944 (34/36) at k=3, 0.917 (33/36) at k=1. Its floor guards that measurement; tuning on it
# would make it a dev split like the others.
FRESH9_FLOOR = 0.9
# Later splits may be blind test sets: never read here.
SPLITS = ("dev", "heldout", "dev2", "dev3", "dev4", "dev5", "dev6", "dev7", "dev8", "fresh9")


def _recall_module():
    spec = importlib.util.spec_from_file_location("retrieval_recall", RECALL)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up here
    spec.loader.exec_module(module)
    return module


def test_recall_at_3_on_held_out_logs_meets_the_goal() -> None:
    recall = _recall_module()
    cases = recall.load_cases(splits=SPLITS)
    assert len(cases) >= 330
    assert set(SPLITS) == {c.split for c in cases}
    report = recall.run(k=3, splits=SPLITS)
    floors = {
        "heldout": HELDOUT_FLOOR,
        "dev": DEV_FLOOR,
        "dev2": DEV2_FLOOR,
        "dev3": DEV3_FLOOR,
        "dev4": DEV4_FLOOR,
        "dev5": DEV5_FLOOR,
        **dict.fromkeys(("dev6", "dev7", "dev8"), DEV6_TO_8_FLOOR),
        "fresh9": FRESH9_FLOOR,
    }
    for split in SPLITS:
        assert report[split]["total"] >= 20, split
        assert report[split]["recall"] >= floors[split], (split, report[split]["misses"])


def test_recall_at_1_puts_the_answer_first_for_most_logs() -> None:
    report = _recall_module().run(k=1, splits=SPLITS)
    for split in SPLITS:
        assert report[split]["recall"] >= TOP1_FLOOR, (split, report[split]["misses"])


def test_loading_one_split_reads_no_other_split() -> None:
    cases = _recall_module().load_cases(splits=("dev2",))
    assert cases and {c.split for c in cases} == {"dev2"}


def test_every_backend_has_logs_in_both_halves() -> None:
    cases = _recall_module().load_cases(splits=SPLITS)
    for backend in ("nvcc", "gcc", "triton", "python"):
        assert {"dev", "heldout"} <= {c.split for c in cases if c.backend == backend}
