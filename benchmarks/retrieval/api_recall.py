"""How often API facts answer a labelled log, alone and together with the docs sections.

A log's `api` label in labels.toml names the installed API whose real signature (or, for a name
that does not exist, whose real name) answers its error. The facts for the log are looked up as
the feedback path does (`api_facts_for` on the log and its backend), from a facts index built
fresh in a temporary cache. A labelled name is returned when a fact has that name, or when a
"does not exist" fact offers it as nearest or elsewhere; names are compared by their last
component (`at::matmul` ~ `matmul`, `cooperative_groups::tiled_partition` ~ `tiled_partition`).
A log is answered when a labelled section is in the top k docs results or a labelled API
name is returned.

Run: python benchmarks/retrieval/api_recall.py [--split fresh9] [--k 3] [--verbose]
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from recall import BACKEND_OF, CORPUS, LABELS, LOG_DIR

from kernelsearch.retrieval import DocsIndex, query_from_log
from kernelsearch.retrieval.api_catalog import ApiFact
from kernelsearch.retrieval.api_facts import ApiFactsIndex, api_facts_for

TOP_K = 3


@dataclass(frozen=True)
class Outcome:
    name: str
    backend: str
    sections: tuple[str, ...]
    api: tuple[str, ...]
    got_sections: tuple[str, ...]
    got_facts: tuple[str, ...]  # fact names, "name (missing; nearest: ...)" for absent ones
    section_rank: int | None  # 1-based rank of the first labelled section, None if absent
    api_hit: bool

    def answered(self, k: int) -> bool:
        return self.api_hit or (self.section_rank is not None and self.section_rank <= k)


def last_component(name: str) -> str:
    return re.split(r"::|\.", name.strip())[-1]


def names_offered(fact: ApiFact) -> set[str]:
    """The API names a fact puts in front of the reader (its own only when it exists)."""
    offered = {*fact.nearest, *fact.elsewhere}
    if fact.exists:
        offered.add(fact.name)
    return {last_component(n) for n in offered}


def describe(fact: ApiFact) -> str:
    if fact.exists:
        return fact.name
    return f"{fact.name} (missing; nearest: {', '.join(fact.nearest) or '-'})"


def measure(split: str, k: int = TOP_K) -> list[Outcome]:
    labels = tomllib.loads(LABELS.read_text())
    outcomes = []
    with tempfile.TemporaryDirectory() as cache:
        docs = DocsIndex(corpus_dirs=[CORPUS], cache_dir=Path(cache) / "docs")
        facts_index = ApiFactsIndex(cache_dir=Path(cache) / "facts")
        for name, entry in labels.items():
            if entry["split"] != split:
                continue
            log = (LOG_DIR / f"{name}.log").read_text()
            backend = BACKEND_OF[entry["backend"]]
            query = query_from_log(log, backend)
            got = [s.id for s in docs.search(query, k=k, max_chars=10**9, backend=backend)]
            sections = tuple(entry["sections"])
            ranks = [i + 1 for i, sid in enumerate(got) if sid in sections]
            facts = api_facts_for(log, backend, facts_index)
            offered = set().union(*(names_offered(f) for f in facts)) if facts else set()
            api = tuple(entry.get("api", []))
            outcomes.append(
                Outcome(
                    name=name,
                    backend=entry["backend"],
                    sections=sections,
                    api=api,
                    got_sections=tuple(got),
                    got_facts=tuple(describe(f) for f in facts),
                    section_rank=ranks[0] if ranks else None,
                    api_hit=any(last_component(a) in offered for a in api),
                )
            )
    return outcomes


def summary(outcomes: list[Outcome], k: int) -> dict[str, int]:
    return {
        "logs": len(outcomes),
        "uncovered": sum(not o.sections for o in outcomes),
        "hit@1": sum(o.section_rank == 1 for o in outcomes),
        f"hit@{k}": sum(o.section_rank is not None for o in outcomes),
        "api labelled": sum(bool(o.api) for o in outcomes),
        "api hit": sum(o.api_hit for o in outcomes),
        "answered": sum(o.answered(k) for o in outcomes),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="fresh9")
    parser.add_argument("--k", type=int, default=TOP_K)
    parser.add_argument("--verbose", action="store_true", help="one line per log")
    args = parser.parse_args()
    outcomes = measure(args.split, args.k)
    groups = {"all": outcomes}
    for backend in sorted({o.backend for o in outcomes}):
        groups[backend] = [o for o in outcomes if o.backend == backend]
    for group, members in groups.items():
        counts = summary(members, args.k)
        print(f"{args.split} {group:7s} " + "  ".join(f"{key} {n}" for key, n in counts.items()))
    if args.verbose:
        for o in outcomes:
            rank = o.section_rank or "-"
            mark = "answered" if o.answered(args.k) else "MISS"
            print(f"  {mark:8s} {o.name}: section rank {rank}, api {list(o.api)} hit={o.api_hit}")
            print(f"           facts {list(o.got_facts)}")


if __name__ == "__main__":
    main()
