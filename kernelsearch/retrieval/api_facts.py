"""API facts for an error: the real signature of the function a failed call used, or, for a
name that does not exist, that it does not and which real names are closest.

The facts come from what is installed (see `api_sources`): Triton's language module, ATen's
operator schemas and the CUDA toolkit headers. They are extracted once, kept in SQLite next to
the docs index (`default_cache_dir()/docs/api_facts.sqlite`) and rebuilt when the installed
torch, triton or CUDA version changes. Nothing is downloaded.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from kernelsearch.config import default_cache_dir
from kernelsearch.result import EvalResult, Stage
from kernelsearch.retrieval import api_headers, api_sources
from kernelsearch.retrieval.api_catalog import (
    LIBRARY_LABELS,
    ApiEntry,
    ApiFact,
    Catalog,
)
from kernelsearch.retrieval.api_names import name_refs
from kernelsearch.retrieval.parsers import parse_errors
from kernelsearch.retrieval.sqlite_file import write_database

log = logging.getLogger(__name__)

API_FACTS_FILE = "api_facts.sqlite"
API_SCHEMA_VERSION = "2"  # bump when extraction changes what is stored
MAX_FACTS = 3
MAX_ERRORS_READ = 3  # the first distinct errors carry the cause; later ones are fallout
SECTION_TITLE = "API reference"
DEFAULT_API_SECTION_CHARS = 1500
# How to read an ATen schema as C++ (said once under the facts that show one).
ATEN_SCHEMA_NOTE = (
    "(ATen schemas: `Tensor?` is an optional tensor, `int[2]`/`SymInt[]` an IntArrayRef; in C++ "
    "the arguments after `*` come last in the same order, and a factory's dtype/layout/device/"
    "pin_memory may be one TensorOptions.)"
)


def installed_versions() -> dict[str, str]:
    """The cache key: versions of what the facts are extracted from ("" when absent)."""
    return {
        "schema": API_SCHEMA_VERSION,
        "torch": api_sources.package_version("torch") or "",
        "triton": api_sources.package_version("triton") or "",
        "cuda": api_headers.cuda_version(api_headers.cuda_include_dir()) or "",
    }


def extract_all() -> list[ApiEntry]:
    return [
        *api_sources.triton_entries(),
        *api_sources.aten_entries(),
        *api_headers.cuda_entries(api_headers.cuda_include_dir()),
    ]


class ApiFactsIndex:
    """The extracted entries in SQLite, built on first use and whenever `versions` differ from
    the stored ones. `cache_dir` None: `default_cache_dir()/docs` (the docs index's directory)."""

    def __init__(
        self,
        cache_dir: Path | str | None = None,
        versions: Callable[[], dict[str, str]] = installed_versions,
        extract: Callable[[], list[ApiEntry]] = extract_all,
    ) -> None:
        self.cache_dir = Path(cache_dir) if cache_dir is not None else default_cache_dir() / "docs"
        self.db_path = self.cache_dir / API_FACTS_FILE
        self._versions = versions
        self._extract = extract
        self._catalog: tuple[str, Catalog] | None = None

    def _stored_key(self) -> str | None:
        if not self.db_path.exists():
            return None
        try:
            with sqlite3.connect(self.db_path) as con:
                row = con.execute("SELECT value FROM meta WHERE key = 'versions'").fetchone()
        except sqlite3.DatabaseError:
            return None
        return row[0] if row else None

    def build(self, force: bool = False) -> bool:
        """Extract and store the entries unless the stored ones match the installed versions.
        Returns True when it (re)built."""
        key = json.dumps(self._versions(), sort_keys=True)
        if not force and self._stored_key() == key:
            return False
        entries = self._extract()

        def fill(con: sqlite3.Connection) -> None:
            con.execute("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT)")
            con.execute(
                "CREATE TABLE entries(library TEXT, scope TEXT, name TEXT, kind TEXT, "
                "signature TEXT, source TEXT)"
            )
            con.executemany(
                "INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?)",
                [(e.library, e.scope, e.name, e.kind, e.signature, e.where) for e in entries],
            )
            con.execute("INSERT INTO meta VALUES ('versions', ?)", (key,))

        write_database(self.db_path, fill)
        log.info("API facts built: %d entries at %s", len(entries), self.db_path)
        return True

    def catalog(self) -> Catalog:
        """The entries in memory (read once per installed-versions key)."""
        self.build()
        key = self._stored_key() or ""
        if self._catalog is None or self._catalog[0] != key:
            with sqlite3.connect(self.db_path) as con:
                rows = con.execute("SELECT * FROM entries ORDER BY rowid").fetchall()
            entries = [ApiEntry(*row) for row in rows]
            self._catalog = (key, Catalog(entries, json.loads(key)))
        return self._catalog[1]


@lru_cache(maxsize=1)
def default_index() -> ApiFactsIndex:
    return ApiFactsIndex()


def api_facts_for(
    log_or_errors: str | list, backend: str, index: ApiFactsIndex | None = None
) -> list[ApiFact]:
    """At most MAX_FACTS facts for the first errors of a log (or of parsed `ErrorLine`s): the
    names the messages are about first, then library functions called on their source lines."""
    errors = (
        parse_errors(log_or_errors, backend) if isinstance(log_or_errors, str) else log_or_errors
    )
    distinct = list({e.message: e for e in errors}.values())[:MAX_ERRORS_READ]
    refs = name_refs(distinct, backend, log_or_errors if isinstance(log_or_errors, str) else "")
    if not refs:
        return []
    catalog = (index or default_index()).catalog()
    facts: list[ApiFact] = []
    answered: set[int] = set()  # errors a name from their own message already answered
    for ref in refs:  # message names first; a source-line call only for an unanswered error
        if len(facts) == MAX_FACTS:
            break
        if not ref.about and ref.error in answered:
            continue
        fact = catalog.fact(ref)
        if fact is None:
            continue
        if any(f.name == fact.name for f in facts):  # already shown for an earlier error
            if ref.about:
                answered.add(ref.error)
            continue
        facts.append(fact)
        answered.add(ref.error)
    return facts


def failure_text(result: EvalResult) -> str:
    """The compiler or runtime output of a failed evaluation ("" for other stages)."""
    if result.stage is Stage.COMPILE_FAILED:
        return result.compile_log or result.error
    if result.stage in (Stage.RUNTIME_ERROR, Stage.CRASHED):
        return "\n".join(p for p in (result.error, result.stdout) if p)
    return ""


def api_section(
    result_or_log: EvalResult | str,
    backend: str | None = None,
    room_chars: int = DEFAULT_API_SECTION_CHARS,
    index: ApiFactsIndex | None = None,
) -> str:
    """The "API reference (installed: ...)" block for a failed evaluation or a log, at most
    `room_chars` long (facts that do not fit are left out), or "" when there is none."""
    if isinstance(result_or_log, EvalResult):
        backend = backend or result_or_log.backend
        text = failure_text(result_or_log)
    else:
        text = result_or_log
    if not text or not backend:
        return ""
    facts = api_facts_for(text, backend, index)
    if not facts:
        return ""
    labels = dict.fromkeys(f"{LIBRARY_LABELS[f.library]} {f.version}" for f in facts)
    head = f"{SECTION_TITLE} (installed: {', '.join(labels)}):"
    body = head
    shown: list[ApiFact] = []
    for fact in facts:
        candidate = f"{body}\n{fact.render()}"
        if len(candidate) <= room_chars:
            body = candidate
            shown.append(fact)
    schema_shown = any(f.library == "aten" and " -> " in "".join(f.signatures) for f in shown)
    if schema_shown and len(body) + 1 + len(ATEN_SCHEMA_NOTE) <= room_chars:
        body += "\n" + ATEN_SCHEMA_NOTE
    return body if shown else ""
