"""Recall@k of documentation retrieval on captured compiler and runtime error logs.

Each log in logs/ is labelled in labels.toml with its backend, the section(s) it should
retrieve and its split (dev guides the writing, heldout only measures; dev2 to dev5 were blind
sets when captured, measured once, and tuned on later; a newer split may be a blind test). The
query is built exactly as the feedback path builds it (`query_from_log`), and the index is
built fresh from docs_index/ in a temporary cache.

Run: python benchmarks/retrieval/recall.py [--k 3] [--split heldout] [--verbose]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from kernelsearch.retrieval import DocsIndex, query_from_log

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
LOG_DIR = HERE / "logs"
LABELS = HERE / "labels.toml"
CORPUS = REPO / "docs_index"
# labels.toml backend -> EvalResult.backend whose parsers read such a log
BACKEND_OF = {"nvcc": "cuda", "gcc": "cpu", "triton": "triton", "python": "python"}


@dataclass(frozen=True)
class Case:
    name: str
    backend: str
    split: str
    sections: tuple[str, ...]
    log: str


def load_cases(
    labels: Path = LABELS, log_dir: Path = LOG_DIR, splits: tuple[str, ...] | None = None
) -> list[Case]:
    """Labelled cases, only those of `splits` when given (other splits' logs are not read)."""
    data = tomllib.loads(labels.read_text())
    cases = []
    for name, entry in data.items():
        if splits is not None and entry["split"] not in splits:
            continue
        path = log_dir / f"{name}.log"
        if not path.exists():
            raise FileNotFoundError(f"{labels}: [{name}] has no log at {path}")
        cases.append(
            Case(name, entry["backend"], entry["split"], tuple(entry["sections"]), path.read_text())
        )
    return cases


def evaluate(cases: list[Case], index: DocsIndex, k: int) -> dict:
    """Per split: hits, total, recall@k, and the misses with what was retrieved instead."""
    known = {s.id for s in index.sections()}
    report: dict[str, dict] = {}
    for case in cases:
        unknown = set(case.sections) - known
        if unknown:
            raise ValueError(
                f"{case.name}: labelled section(s) not in the corpus: {sorted(unknown)}"
            )
        query = query_from_log(case.log, BACKEND_OF[case.backend])
        backend = BACKEND_OF[case.backend]
        got = [s.id for s in index.search(query, k=k, max_chars=10**9, backend=backend)]
        split = report.setdefault(case.split, {"hits": 0, "total": 0, "misses": []})
        split["total"] += 1
        if set(got) & set(case.sections):  # an empty label (no section covers it) never hits
            split["hits"] += 1
        else:
            split["misses"].append({"log": case.name, "want": list(case.sections), "got": got})
    for split in report.values():
        split["recall"] = split["hits"] / split["total"] if split["total"] else 0.0
    return report


def run(k: int = 3, corpus: Path = CORPUS, splits: tuple[str, ...] | None = None) -> dict:
    with tempfile.TemporaryDirectory() as cache:
        index = DocsIndex(corpus_dirs=[corpus], cache_dir=Path(cache))
        return evaluate(load_cases(splits=splits), index, k)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, default=3)
    parser.add_argument(
        "--split",
        action="append",
        help="dev, heldout, dev2 ... dev5, ... (repeatable; default: all)",
    )
    parser.add_argument("--verbose", action="store_true", help="list the misses")
    parser.add_argument("--json", action="store_true", help="print the full report as JSON")
    args = parser.parse_args()
    report = run(args.k, splits=tuple(args.split) if args.split else None)
    if args.json:
        print(json.dumps(report, indent=2))
        return
    known = ("dev", "heldout")
    for name in [*known, *sorted(set(report) - set(known))]:
        if name not in report:
            continue
        r = report[name]
        print(f"{name:8s} recall@{args.k} = {r['recall']:.3f} ({r['hits']}/{r['total']})")
        if args.verbose:
            for miss in r["misses"]:
                print(f"  miss {miss['log']}: want {miss['want']} got {miss['got']}")


if __name__ == "__main__":
    main()
