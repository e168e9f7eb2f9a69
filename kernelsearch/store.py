"""The run store: one SQLite file (`run.sqlite`) per search run.

A run directory (`results/<run-id>/` by default) holds `run.sqlite` while the search runs and
the exported files (best kernels, frontier prompts, `summary.json`) once it finishes. Reports
read the store through the read API at the bottom of `RunStore`; they never need SQL.

Schema (version `SCHEMA_VERSION`; every `*_json` column is UTF-8 JSON text; `ts` columns are
Unix seconds):

- `meta(key, value)` — `schema_version`, `kernelsearch_version`.
- `runs(run_id, created_ts, updated_ts, status, config_json, tasks_json)` — exactly one row.
  `status` is `running`, `stopped` (graceful stop, resumable), `finished` or `failed`.
  `config_json` is `SearchConfig.to_dict()`; `tasks_json` is
  `{"train": [Task.to_dict()], "val": [...], "test": [...]}`.
- `candidates(id, components_json, parents_json, origin, iteration, discovery_evals, status,
  created_ts)` — every proposed prompt. `components_json` maps component name to text
  (`{"instructions": "..."}`); `parents_json` is a list of candidate ids (0 for the seed, 1 for
  a mutation, 2 for a merge); `origin` is `seed`, `mutation` or `merge`; `discovery_evals` is
  the number of evaluations spent when it was proposed; `status` is `pool` (seed, or passed
  the minibatch gate and was fully evaluated), `proposed` (awaiting its gate) or `rejected`.
- `evaluations(id, candidate_id, task, purpose, iteration, source, source_hash, stage,
  accepted, score, score_margin, speedup_eager, speedup_compile, result_json, llm_call_id,
  ts)` — every kernel ever evaluated (the per-task archive). `purpose` is one of `PURPOSES`
  (`seed_full`, `parent_minibatch`, `child_minibatch`, `full`, `merge`, `retime`, `test`).
  `result_json` is `EvalResult.to_dict()`; `score` is `kernelsearch.search.score.score()` of
  that result; `score_margin` is its timing-noise margin in score units; `llm_call_id` is the
  generation call that wrote the kernel (NULL for retimes).
- `llm_calls(id, request_hash, model, purpose, iteration, request_json, response_text,
  tokens_in, tokens_out, cost_usd, cost_known, latency_s, attempts, error, ts)` — every LLM
  call that reached a provider. `purpose` is `generate`, `reflect` or `merge`; `error` is empty
  on success; `cost_known` is 0 when the model has no price in litellm's map (cost then 0).
- `engine_state(id = 1, state_json, ts)` — the engine's checkpoint for `--resume`.
- `events(id, ts, kind, iteration, data_json)` — progress log (iteration started/accepted/
  rejected, stop requested, errors...).

Every write is its own transaction, so a `kill -9` at any moment loses at most the work in
flight. The database runs in WAL mode so a report can read while a search writes.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kernelsearch import __version__
from kernelsearch.errors import ConfigError
from kernelsearch.result import EvalResult, source_hash

SCHEMA_VERSION = 1
STORE_FILENAME = "run.sqlite"
PURPOSES = ("seed_full", "parent_minibatch", "child_minibatch", "full", "merge", "retime", "test")
RUN_STATUSES = ("running", "stopped", "finished", "failed")
BUSY_TIMEOUT_S = 30.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    run_id TEXT PRIMARY KEY,
    created_ts REAL NOT NULL,
    updated_ts REAL NOT NULL,
    status TEXT NOT NULL,
    config_json TEXT NOT NULL,
    tasks_json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS candidates (
    id INTEGER PRIMARY KEY,
    components_json TEXT NOT NULL,
    parents_json TEXT NOT NULL,
    origin TEXT NOT NULL,
    iteration INTEGER NOT NULL,
    discovery_evals INTEGER NOT NULL,
    status TEXT NOT NULL,
    created_ts REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS evaluations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    candidate_id INTEGER,
    task TEXT NOT NULL,
    purpose TEXT NOT NULL,
    iteration INTEGER NOT NULL,
    source TEXT NOT NULL,
    source_hash TEXT NOT NULL,
    stage TEXT NOT NULL,
    accepted INTEGER NOT NULL,
    score REAL NOT NULL,
    score_margin REAL NOT NULL,
    speedup_eager REAL,
    speedup_compile REAL,
    result_json TEXT NOT NULL,
    llm_call_id INTEGER,
    ts REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS evaluations_task ON evaluations(task, score);
CREATE INDEX IF NOT EXISTS evaluations_candidate ON evaluations(candidate_id);
CREATE TABLE IF NOT EXISTS llm_calls (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    request_hash TEXT NOT NULL,
    model TEXT NOT NULL,
    purpose TEXT NOT NULL,
    iteration INTEGER NOT NULL,
    request_json TEXT NOT NULL,
    response_text TEXT NOT NULL,
    tokens_in INTEGER NOT NULL,
    tokens_out INTEGER NOT NULL,
    cost_usd REAL NOT NULL,
    cost_known INTEGER NOT NULL,
    latency_s REAL NOT NULL,
    attempts INTEGER NOT NULL,
    error TEXT NOT NULL,
    ts REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS llm_calls_hash ON llm_calls(request_hash);
CREATE TABLE IF NOT EXISTS engine_state (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    state_json TEXT NOT NULL,
    ts REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    ts REAL NOT NULL,
    kind TEXT NOT NULL,
    iteration INTEGER,
    data_json TEXT NOT NULL
);
"""


# ---------------------------------------------------------------------------------------
# Records returned by the read API


@dataclass(frozen=True)
class RunRecord:
    run_id: str
    created_ts: float
    updated_ts: float
    status: str
    config: dict[str, Any]
    tasks: dict[str, list[dict[str, Any]]]


@dataclass(frozen=True)
class CandidateRecord:
    id: int
    components: dict[str, str]
    parents: tuple[int, ...]
    origin: str
    iteration: int
    discovery_evals: int
    status: str
    created_ts: float


@dataclass(frozen=True)
class EvaluationRecord:
    id: int
    candidate_id: int | None
    task: str
    purpose: str
    iteration: int
    source: str
    source_hash: str
    stage: str
    accepted: bool
    score: float
    score_margin: float
    speedup_eager: float | None
    speedup_compile: float | None
    result: EvalResult
    llm_call_id: int | None
    ts: float


@dataclass(frozen=True)
class LLMCallRecord:
    id: int
    request_hash: str
    model: str
    purpose: str
    iteration: int
    request: dict[str, Any]
    response_text: str
    tokens_in: int
    tokens_out: int
    cost_usd: float
    cost_known: bool
    latency_s: float
    attempts: int
    error: str
    ts: float


@dataclass(frozen=True)
class EventRecord:
    id: int
    ts: float
    kind: str
    iteration: int | None
    data: dict[str, Any]


@dataclass(frozen=True)
class RunTotals:
    """What a run has spent so far."""

    evaluations: int  # search evaluations (retime/test excluded)
    llm_calls: int
    llm_errors: int
    tokens_in: int
    tokens_out: int
    cost_usd: float
    cost_unknown_calls: int


# ---------------------------------------------------------------------------------------


class RunStore:
    """Read/write access to one run's `run.sqlite`. Use `create()` or `open()`."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._lock = threading.RLock()
        self._conn = sqlite3.connect(
            str(self.path), timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
        )
        self._conn.row_factory = sqlite3.Row
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.execute("PRAGMA foreign_keys=ON")

    # ---- lifecycle --------------------------------------------------------------------
    @classmethod
    def create(
        cls,
        run_dir: Path,
        run_id: str,
        config: dict[str, Any],
        tasks: dict[str, list[dict[str, Any]]],
    ) -> RunStore:
        """Create `run_dir/run.sqlite` for a new run. Refuses a directory that already has one."""
        run_dir = Path(run_dir)
        path = run_dir / STORE_FILENAME
        if path.exists():
            raise ConfigError(
                f"{run_dir} already holds a run; continue it with `kernelsearch run --resume "
                f"{run_dir}` or choose another --out"
            )
        run_dir.mkdir(parents=True, exist_ok=True)
        store = cls(path)
        now = time.time()
        with store._lock:
            store._conn.executescript(_SCHEMA)  # executescript manages its own transaction
        with store._tx() as c:
            c.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
            c.execute("INSERT INTO meta VALUES ('kernelsearch_version', ?)", (__version__,))
            c.execute(
                "INSERT INTO runs VALUES (?, ?, ?, 'running', ?, ?)",
                (run_id, now, now, json.dumps(config), json.dumps(tasks)),
            )
        return store

    @classmethod
    def open(cls, run_dir_or_file: Path) -> RunStore:
        """Open an existing run (a run directory or its `run.sqlite`)."""
        p = Path(run_dir_or_file)
        path = p / STORE_FILENAME if p.is_dir() else p
        if not path.is_file():
            raise ConfigError(
                f"{p}: no run store ({STORE_FILENAME}) here; is this a run directory?"
            )
        store = cls(path)
        version = store._meta("schema_version")
        if version is None or int(version) != SCHEMA_VERSION:
            store.close()
            raise ConfigError(
                f"{path}: run store schema version {version}, this kernelsearch reads "
                f"{SCHEMA_VERSION}; use the kernelsearch version that wrote it"
            )
        return store

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> RunStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def _meta(self, key: str) -> str | None:
        try:
            row = self._conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        except sqlite3.OperationalError:
            return None
        return row["value"] if row else None

    # ---- writes -----------------------------------------------------------------------
    def set_status(self, status: str) -> None:
        if status not in RUN_STATUSES:
            raise ValueError(f"unknown run status {status!r}")
        with self._tx() as c:
            c.execute("UPDATE runs SET status = ?, updated_ts = ?", (status, time.time()))

    def update_config(self, config: dict[str, Any]) -> None:
        """Replace the stored config (a resume may change budgets and caps)."""
        with self._tx() as c:
            c.execute(
                "UPDATE runs SET config_json = ?, updated_ts = ?", (json.dumps(config), time.time())
            )

    def put_candidate(
        self,
        id: int,
        components: dict[str, str],
        parents: tuple[int, ...] | list[int],
        origin: str,
        iteration: int,
        discovery_evals: int,
        status: str,
    ) -> None:
        """Insert a candidate, or replace it (a resumed run re-proposes the same id)."""
        with self._tx() as c:
            c.execute(
                "INSERT OR REPLACE INTO candidates VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    id,
                    json.dumps(components),
                    json.dumps(list(parents)),
                    origin,
                    iteration,
                    discovery_evals,
                    status,
                    time.time(),
                ),
            )

    def set_candidate_status(self, id: int, status: str) -> None:
        with self._tx() as c:
            c.execute("UPDATE candidates SET status = ? WHERE id = ?", (status, id))

    def add_evaluation(
        self,
        *,
        candidate_id: int | None,
        task: str,
        purpose: str,
        iteration: int,
        source: str,
        result: EvalResult,
        score: float,
        score_margin: float,
        llm_call_id: int | None,
    ) -> int:
        if purpose not in PURPOSES:
            raise ValueError(f"unknown evaluation purpose {purpose!r}")
        with self._tx() as c:
            cur = c.execute(
                "INSERT INTO evaluations (candidate_id, task, purpose, iteration, source, "
                "source_hash, stage, accepted, score, score_margin, speedup_eager, "
                "speedup_compile, result_json, llm_call_id, ts) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    candidate_id,
                    task,
                    purpose,
                    iteration,
                    source,
                    result.source_hash or source_hash(source),
                    result.stage.value,
                    int(result.accepted),
                    score,
                    score_margin,
                    result.speedup_eager,
                    result.speedup_compile,
                    json.dumps(result.to_dict()),
                    llm_call_id,
                    time.time(),
                ),
            )
            return int(cur.lastrowid)

    def add_llm_call(
        self,
        *,
        request_hash: str,
        model: str,
        purpose: str,
        iteration: int,
        request: dict[str, Any],
        response_text: str,
        tokens_in: int,
        tokens_out: int,
        cost_usd: float,
        cost_known: bool,
        latency_s: float,
        attempts: int,
        error: str = "",
    ) -> int:
        with self._tx() as c:
            cur = c.execute(
                "INSERT INTO llm_calls (request_hash, model, purpose, iteration, request_json, "
                "response_text, tokens_in, tokens_out, cost_usd, cost_known, latency_s, "
                "attempts, error, ts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    request_hash,
                    model,
                    purpose,
                    iteration,
                    json.dumps(request),
                    response_text,
                    tokens_in,
                    tokens_out,
                    cost_usd,
                    int(cost_known),
                    latency_s,
                    attempts,
                    error,
                    time.time(),
                ),
            )
            return int(cur.lastrowid)

    def save_engine_state(self, state: dict[str, Any]) -> None:
        with self._tx() as c:
            c.execute(
                "INSERT OR REPLACE INTO engine_state VALUES (1, ?, ?)",
                (json.dumps(state), time.time()),
            )
            c.execute("UPDATE runs SET updated_ts = ?", (time.time(),))

    def add_event(self, kind: str, iteration: int | None = None, **data: Any) -> None:
        with self._tx() as c:
            c.execute(
                "INSERT INTO events (ts, kind, iteration, data_json) VALUES (?, ?, ?, ?)",
                (time.time(), kind, iteration, json.dumps(data)),
            )

    # ---- reads ------------------------------------------------------------------------
    def _rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self._conn.execute(sql, args).fetchall()

    def run(self) -> RunRecord:
        """The run's id, status, config (`SearchConfig.to_dict()`) and task lists."""
        (r,) = self._rows("SELECT * FROM runs")
        return RunRecord(
            run_id=r["run_id"],
            created_ts=r["created_ts"],
            updated_ts=r["updated_ts"],
            status=r["status"],
            config=json.loads(r["config_json"]),
            tasks=json.loads(r["tasks_json"]),
        )

    def candidates(self, status: str | None = None) -> list[CandidateRecord]:
        """All proposed candidates in id order (optionally only one status, e.g. `pool`)."""
        sql, args = "SELECT * FROM candidates", ()
        if status is not None:
            sql, args = sql + " WHERE status = ?", (status,)
        return [_candidate(r) for r in self._rows(sql + " ORDER BY id", args)]

    def candidate(self, id: int) -> CandidateRecord:
        rows = self._rows("SELECT * FROM candidates WHERE id = ?", (id,))
        if not rows:
            raise KeyError(f"no candidate {id} in {self.path}")
        return _candidate(rows[0])

    def evaluations(
        self,
        *,
        task: str | None = None,
        candidate_id: int | None = None,
        purpose: str | tuple[str, ...] | None = None,
        accepted_only: bool = False,
    ) -> list[EvaluationRecord]:
        """Evaluations in insertion order, filtered by task / candidate / purpose(s)."""
        where: list[str] = []
        args: list[Any] = []
        if task is not None:
            where.append("task = ?")
            args.append(task)
        if candidate_id is not None:
            where.append("candidate_id = ?")
            args.append(candidate_id)
        if purpose is not None:
            purposes = (purpose,) if isinstance(purpose, str) else tuple(purpose)
            where.append(f"purpose IN ({', '.join('?' * len(purposes))})")
            args.extend(purposes)
        if accepted_only:
            where.append("accepted = 1")
        sql = "SELECT * FROM evaluations"
        if where:
            sql += " WHERE " + " AND ".join(where)
        return [_evaluation(r) for r in self._rows(sql + " ORDER BY id", tuple(args))]

    def llm_calls(self, purpose: str | None = None) -> list[LLMCallRecord]:
        sql, args = "SELECT * FROM llm_calls", ()
        if purpose is not None:
            sql, args = sql + " WHERE purpose = ?", (purpose,)
        return [_llm_call(r) for r in self._rows(sql + " ORDER BY id", args)]

    def events(self, kind: str | None = None) -> list[EventRecord]:
        sql, args = "SELECT * FROM events", ()
        if kind is not None:
            sql, args = sql + " WHERE kind = ?", (kind,)
        return [
            EventRecord(
                id=r["id"],
                ts=r["ts"],
                kind=r["kind"],
                iteration=r["iteration"],
                data=json.loads(r["data_json"]),
            )
            for r in self._rows(sql + " ORDER BY id", args)
        ]

    def load_engine_state(self) -> dict[str, Any] | None:
        rows = self._rows("SELECT state_json FROM engine_state WHERE id = 1")
        return json.loads(rows[0]["state_json"]) if rows else None

    def totals(self) -> RunTotals:
        (e,) = self._rows(
            "SELECT COUNT(*) AS n FROM evaluations WHERE purpose NOT IN ('retime', 'test')"
        )
        (c,) = self._rows(
            "SELECT COUNT(*) AS n, COALESCE(SUM(error != ''), 0) AS errors, "
            "COALESCE(SUM(tokens_in), 0) AS tin, COALESCE(SUM(tokens_out), 0) AS tout, "
            "COALESCE(SUM(cost_usd), 0.0) AS cost, COALESCE(SUM(cost_known = 0), 0) AS unknown "
            "FROM llm_calls"
        )
        return RunTotals(
            evaluations=e["n"],
            llm_calls=c["n"],
            llm_errors=c["errors"],
            tokens_in=c["tin"],
            tokens_out=c["tout"],
            cost_usd=float(c["cost"]),
            cost_unknown_calls=c["unknown"],
        )


def _candidate(r: sqlite3.Row) -> CandidateRecord:
    return CandidateRecord(
        id=r["id"],
        components=json.loads(r["components_json"]),
        parents=tuple(json.loads(r["parents_json"])),
        origin=r["origin"],
        iteration=r["iteration"],
        discovery_evals=r["discovery_evals"],
        status=r["status"],
        created_ts=r["created_ts"],
    )


def _evaluation(r: sqlite3.Row) -> EvaluationRecord:
    return EvaluationRecord(
        id=r["id"],
        candidate_id=r["candidate_id"],
        task=r["task"],
        purpose=r["purpose"],
        iteration=r["iteration"],
        source=r["source"],
        source_hash=r["source_hash"],
        stage=r["stage"],
        accepted=bool(r["accepted"]),
        score=r["score"],
        score_margin=r["score_margin"],
        speedup_eager=r["speedup_eager"],
        speedup_compile=r["speedup_compile"],
        result=EvalResult.from_dict(json.loads(r["result_json"])),
        llm_call_id=r["llm_call_id"],
        ts=r["ts"],
    )


def _llm_call(r: sqlite3.Row) -> LLMCallRecord:
    return LLMCallRecord(
        id=r["id"],
        request_hash=r["request_hash"],
        model=r["model"],
        purpose=r["purpose"],
        iteration=r["iteration"],
        request=json.loads(r["request_json"]),
        response_text=r["response_text"],
        tokens_in=r["tokens_in"],
        tokens_out=r["tokens_out"],
        cost_usd=r["cost_usd"],
        cost_known=bool(r["cost_known"]),
        latency_s=r["latency_s"],
        attempts=r["attempts"],
        error=r["error"],
        ts=r["ts"],
    )
