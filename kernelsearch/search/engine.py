"""The asynchronous GEPA loop.

Several iterations run at once (`SearchConfig.concurrency`), so one iteration's LLM calls
overlap another's builds and timing runs. Each iteration is planned synchronously (parent,
minibatch, components, budget reservation: every random draw happens here, in order), then
executed as an asyncio task:

    mutation: parent on minibatch -> reflect -> child on minibatch -> gate -> full evaluation
    merge:    merge two frontier members -> better parent and child on minibatch -> gate -> full

The state is checkpointed to the run store after the seed and after every finished iteration.
With `concurrency=1` a run interrupted at any point and resumed ends in the same state as an
uninterrupted one (recorded LLM replies and evaluations are replayed, see `recorder`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from kernelsearch.errors import ConfigError, KernelSearchError
from kernelsearch.llm import LLMCallError
from kernelsearch.search.budget import Budget, Ledger
from kernelsearch.search.config import SearchConfig
from kernelsearch.search.memory import MemoryEntry
from kernelsearch.search.messages import ReflectionExample
from kernelsearch.search.minibatch import EpochSampler
from kernelsearch.search.pareto import aggregate, current_best, frontier, select_pareto
from kernelsearch.search.proposer import (
    Lineage,
    components_to_update,
    merge_components,
    merge_pairs,
    pick_pair,
    reflect,
)
from kernelsearch.search.recorder import CostCapReached, RecordedModel
from kernelsearch.search.score import PERFECT_CORRECTNESS, gate_passes, total
from kernelsearch.search.state import SEED_ITERATION, EngineState, PoolCandidate
from kernelsearch.search.trials import Trial, TrialRunner
from kernelsearch.store import RunStore
from kernelsearch.tasks import Task

log = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass(frozen=True)
class IterationPlan:
    iteration: int
    kind: str  # "mutation" or "merge"
    parent: int  # the candidate the child must beat at the gate
    minibatch: tuple[str, ...]
    components: tuple[str, ...] = ()  # mutation: components to rewrite
    pair: tuple[int, int] | None = None  # merge: the two parents


@dataclass(frozen=True)
class TaskProgress:
    score: float | None
    speedup: float | None
    accepted: bool


@dataclass(frozen=True)
class Progress:
    """A snapshot for live views: what the run has done and what it has found."""

    iteration: int
    in_flight: int
    pool_size: int
    frontier_size: int
    evals_used: int
    eval_budget: int
    cost_usd: float
    elapsed_s: float
    eta_s: float | None
    tasks: dict[str, TaskProgress] = field(default_factory=dict)
    message: str = ""
    stop_reason: str | None = None


ProgressFn = Callable[[Progress], None]


class Engine:
    def __init__(
        self,
        *,
        config: SearchConfig,
        train: Sequence[Task],
        val: Sequence[Task],
        trials: TrialRunner,
        reflector: RecordedModel,
        store: RunStore,
        budget: Budget,
        state: EngineState,
        seed_components: dict[str, str],
        on_progress: ProgressFn | None = None,
    ) -> None:
        self.config = config
        self.train = list(train)
        self.val = list(val)
        self.tasks = {t.name: t for t in [*self.train, *self.val]}
        self.trials = trials
        self.reflector = reflector
        self.store = store
        self.budget = budget
        self.state = state
        self.seed_components = seed_components
        self.on_progress = on_progress
        self.val_names = [t.name for t in self.val]
        self.val_is_train = self.val_names == [t.name for t in self.train]
        self.sampler = EpochSampler([t.name for t in self.train], config.minibatch_size)
        self.sampler.restore(state.sampler)
        self.perfect = None if config.objective == "speed" else PERFECT_CORRECTNESS
        self._ledgers: dict[int, Ledger] = {}
        self._message = ""

    # ---- public -----------------------------------------------------------------------
    async def run(self) -> str:
        """Search until a budget, cap or stop request ends it; returns the reason."""
        if not self.state.seed_done:
            await self._seed()
        await self._loop()
        reason = self.budget.stop_reason or "search finished"
        self._notify(reason)
        return reason

    def frontier(self) -> dict[int, frozenset[str]]:
        return frontier(self._matrix(), self.val_names)

    def best_candidate(self) -> int:
        return current_best(self._matrix(), self.val_names)

    # ---- seed -------------------------------------------------------------------------
    async def _seed(self) -> None:
        st = self.state
        cid = st.allocate_candidate()
        self.store.put_candidate(cid, self.seed_components, (), "seed", SEED_ITERATION, 0, "pool")
        if not self.budget.reserve(len(self.val)):
            raise ConfigError(
                f"--budget {self.budget.max_evals} cannot pay for evaluating the seed prompt on "
                f"the {len(self.val)} tasks of the valset; raise --budget"
            )
        ledger = Ledger(len(self.val))
        self._ledgers[SEED_ITERATION] = ledger
        memory = st.archive.snapshot(self.val_names)
        trials = await self._run_all(
            cid, self.seed_components, self.val, memory, "seed_full", SEED_ITERATION, ledger
        )
        del self._ledgers[SEED_ITERATION]
        st.pool[cid] = PoolCandidate(
            cid,
            dict(self.seed_components),
            (),
            "seed",
            SEED_ITERATION,
            0,
            {tr.task: tr.scored for tr in trials},
        )
        st.seed_done = True
        st.completed.add(SEED_ITERATION)
        self.store.add_event("seed_evaluated", SEED_ITERATION, aggregate=self._agg(cid))
        self._checkpoint()
        self._notify("seed evaluated")

    # ---- the loop ---------------------------------------------------------------------
    async def _loop(self) -> None:
        in_flight: dict[asyncio.Task[str], IterationPlan] = {}
        try:
            while True:
                while len(in_flight) < self.config.concurrency:
                    plan = self._plan(busy=bool(in_flight))
                    if plan is None:
                        break
                    in_flight[asyncio.ensure_future(self._execute(plan))] = plan
                if not in_flight:
                    break
                self._notify(self._message, in_flight=len(in_flight))
                done, _ = await asyncio.wait(in_flight, return_when=asyncio.FIRST_COMPLETED)
                for task in done:
                    self._settle(in_flight.pop(task), task)
                self._checkpoint()
                self._notify(self._message, in_flight=len(in_flight))
        finally:
            for task in in_flight:
                task.cancel()
        self.state.loop_done = self.budget.stop_reason is not None and not self._user_stop()
        self._checkpoint()

    def _user_stop(self) -> bool:
        reason = self.budget.stop_reason or ""
        return reason.startswith(("interrupted", "stop file", "terminated"))

    def _plan(self, busy: bool) -> IterationPlan | None:
        st, cfg = self.state, self.config
        if self.budget.exhausted() is not None:
            return None
        if st.consecutive_failures >= cfg.max_consecutive_failures:
            self.budget.request_stop(
                f"{st.consecutive_failures} iterations in a row failed on LLM errors"
            )
            return None
        mb = self.sampler.size
        cost = 2 * mb + (len(self.val) - mb if self.val_is_train else len(self.val))
        if not self.budget.reserve(cost):
            if not busy:
                self.budget.request_stop(
                    f"evaluation budget spent ({self.budget.used_evals}/{self.budget.max_evals}; "
                    f"an iteration needs up to {cost})"
                )
            return None
        iteration = st.next_iteration
        st.next_iteration += 1
        self._ledgers[iteration] = Ledger(cost)
        plan = self._plan_merge(iteration) or self._plan_mutation(iteration)
        st.sampler = self.sampler.to_dict()
        self.store.add_event(
            "iteration_started",
            iteration,
            iteration_kind=plan.kind,
            parent=plan.parent,
            minibatch=list(plan.minibatch),
            pair=list(plan.pair) if plan.pair else None,
        )
        return plan

    def _plan_mutation(self, iteration: int) -> IterationPlan:
        st = self.state
        if self.config.selection == "current_best":
            parent = self.best_candidate()
        else:
            parent = select_pareto(self.frontier(), st.rng)
        minibatch = tuple(self.sampler.sample(st.rng))
        names = list(st.pool[parent].components)
        counter = st.round_robin.get(parent, 0)
        st.round_robin[parent] = counter + 1
        comps = components_to_update(names, self.config.component_selector, counter)
        return IterationPlan(iteration, "mutation", parent, minibatch, tuple(comps))

    def _plan_merge(self, iteration: int) -> IterationPlan | None:
        st, cfg = self.state, self.config
        if not cfg.use_merge or st.merges_due <= 0 or st.merges_done >= cfg.max_merges:
            return None
        pair = pick_pair(
            merge_pairs(list(self.frontier()), self._lineage(), st.merged_pairs), st.rng
        )
        if pair is None:
            return None
        st.merges_due -= 1
        st.merges_done += 1
        st.merged_pairs.add(pair)
        minibatch = tuple(self.sampler.sample(st.rng))
        a, b = pair
        ref = max((a, b), key=lambda c: (self._subtotal(c, minibatch), -c))
        return IterationPlan(iteration, "merge", ref, minibatch, pair=pair)

    def _settle(self, plan: IterationPlan, task: asyncio.Task[str]) -> None:
        """Book an iteration that ended (in any way) and release its unused reservation."""
        st = self.state
        ledger = self._ledgers.pop(plan.iteration)
        self.budget.release(ledger.reserved - ledger.spent)
        st.completed.add(plan.iteration)
        exc = task.exception()
        if exc is None:
            st.consecutive_failures = 0
            self._message = f"iteration {plan.iteration}: {task.result()}"
            return
        if isinstance(exc, CostCapReached):
            self.budget.request_stop(f"cost cap reached ({exc})")
            self._message = f"iteration {plan.iteration}: stopped, {exc}"
        elif isinstance(exc, KernelSearchError) or not isinstance(exc, Exception):
            raise exc  # bad input/credentials, or a BaseException: not the iteration's fault
        else:
            st.consecutive_failures += 1
            kind = "LLM error" if isinstance(exc, LLMCallError) else "error"
            log.warning("iteration %d failed: %s", plan.iteration, exc, exc_info=exc)
            self._message = f"iteration {plan.iteration}: {kind}: {exc}"
        self.store.add_event("iteration_failed", plan.iteration, error=str(exc))

    # ---- one iteration ----------------------------------------------------------------
    async def _execute(self, plan: IterationPlan) -> str:
        if plan.kind == "merge":
            return await self._merge(plan)
        return await self._mutation(plan)

    async def _mutation(self, plan: IterationPlan) -> str:
        parent = self.state.pool[plan.parent]
        tasks = [self.tasks[t] for t in plan.minibatch]
        memory = self.state.archive.snapshot(plan.minibatch)
        ledger = self._ledgers[plan.iteration]
        parent_trials = await self._run_all(
            parent.id, parent.components, tasks, memory, "parent_minibatch", plan.iteration, ledger
        )
        if self.perfect is not None and self.config.skip_perfect_score:
            if all(tr.scored.score >= self.perfect for tr in parent_trials):
                self.store.add_event("skipped_perfect", plan.iteration)
                return "parent already perfect on the minibatch"
        examples = [
            ReflectionExample(self.tasks[tr.task], tr.source, tr.feedback, tr.scored.score)
            for tr in parent_trials
        ]
        new = dict(parent.components)
        for name in plan.components:
            text = await reflect(
                self.reflector, name, parent.components[name], examples, plan.iteration
            )
            if text:
                new[name] = text
        if new == parent.components:
            self.store.add_event("no_change", plan.iteration)
            return "reflection proposed no change"
        return await self._gate_and_admit(
            plan, new, (parent.id,), "mutation", parent_trials, memory, "child_minibatch"
        )

    async def _merge(self, plan: IterationPlan) -> str:
        assert plan.pair is not None
        a, b = (self.state.pool[c] for c in plan.pair)
        lineage = self._lineage()
        anc_id = lineage.common_ancestor(a.id, b.id)
        ancestor = self.state.pool[anc_id].components if anc_id is not None else {}
        front = self.frontier()
        new = await merge_components(
            self.reflector,
            a.components,
            b.components,
            ancestor,
            sorted(front.get(a.id, ())),
            sorted(front.get(b.id, ())),
            plan.iteration,
        )
        if new in (a.components, b.components):
            self.store.add_event("no_change", plan.iteration)
            return "merge reproduced a parent"
        ref = self.state.pool[plan.parent]
        tasks = [self.tasks[t] for t in plan.minibatch]
        memory = self.state.archive.snapshot(plan.minibatch)
        ref_trials = await self._run_all(
            ref.id,
            ref.components,
            tasks,
            memory,
            "parent_minibatch",
            plan.iteration,
            self._ledgers[plan.iteration],
        )
        return await self._gate_and_admit(
            plan, new, plan.pair, "merge", ref_trials, memory, "merge"
        )

    async def _gate_and_admit(
        self,
        plan: IterationPlan,
        components: dict[str, str],
        parents: tuple[int, ...],
        origin: str,
        parent_trials: list[Trial],
        memory: dict[str, MemoryEntry | None],
        child_purpose: str,
    ) -> str:
        st, ledger = self.state, self._ledgers[plan.iteration]
        cid = st.allocate_candidate()
        self.store.put_candidate(
            cid, components, parents, origin, plan.iteration, self.budget.used_evals, "proposed"
        )
        tasks = [self.tasks[t] for t in plan.minibatch]
        child_trials = await self._run_all(
            cid, components, tasks, memory, child_purpose, plan.iteration, ledger
        )
        child_total = total([tr.scored for tr in child_trials])
        parent_total = total([tr.scored for tr in parent_trials])
        if not gate_passes([tr.scored for tr in child_trials], [tr.scored for tr in parent_trials]):
            self.store.set_candidate_status(cid, "rejected")
            self.store.add_event(
                "rejected",
                plan.iteration,
                candidate=cid,
                child=child_total.score,
                parent=parent_total.score,
            )
            return f"candidate {cid} rejected ({child_total.score:.3f} vs {parent_total.score:.3f})"
        scores = {tr.task: tr.scored for tr in child_trials} if self.val_is_train else {}
        rest = [t for t in self.val if t.name not in scores]
        full = await self._run_all(
            cid,
            components,
            rest,
            st.archive.snapshot(t.name for t in rest),
            "full",
            plan.iteration,
            ledger,
        )
        scores.update({tr.task: tr.scored for tr in full})
        st.pool[cid] = PoolCandidate(
            cid, components, parents, origin, plan.iteration, self.budget.used_evals, scores
        )
        self.store.put_candidate(
            cid, components, parents, origin, plan.iteration, self.budget.used_evals, "pool"
        )
        if self.config.use_merge and st.merges_done + st.merges_due < self.config.max_merges:
            st.merges_due += 1
        on_front = cid in self.frontier()
        self.store.add_event(
            "accepted",
            plan.iteration,
            candidate=cid,
            aggregate=self._agg(cid),
            on_frontier=on_front,
        )
        return f"candidate {cid} accepted (aggregate {self._agg(cid):.3f})"

    async def _run_all(
        self,
        cid: int,
        components: dict[str, str],
        tasks: Sequence[Task],
        memory: dict[str, MemoryEntry | None],
        purpose: str,
        iteration: int,
        ledger: Ledger,
    ) -> list[Trial]:
        async def one(task: Task) -> Trial:
            trial = await self.trials.run(
                candidate_id=cid,
                components=components,
                task=task,
                memory=memory.get(task.name),
                purpose=purpose,
                iteration=iteration,
                ledger=ledger,
            )
            self._notify(self._message)
            return trial

        return await gather_or_cancel([one(t) for t in tasks])

    # ---- helpers ----------------------------------------------------------------------
    def _matrix(self) -> dict[int, dict]:
        return {c.id: c.scores for c in self.state.pool.values()}

    def _lineage(self) -> Lineage:
        return Lineage({c.id: c.parents for c in self.state.pool.values()})

    def _agg(self, cid: int) -> float:
        return aggregate(self.state.pool[cid].scores, self.val_names)

    def _subtotal(self, cid: int, tasks: Sequence[str]) -> float:
        scores = self.state.pool[cid].scores
        return sum(scores[t].score for t in tasks if t in scores)

    def _checkpoint(self) -> None:
        st = self.state
        in_flight = sum(ledger.spent for ledger in self._ledgers.values())
        st.used_evals = self.budget.used_evals - in_flight
        st.elapsed_s = self.budget.elapsed_s
        st.sampler = self.sampler.to_dict()
        self.store.save_engine_state(st.to_dict())

    def progress(self, message: str = "", in_flight: int = 0) -> Progress:
        st, b = self.state, self.budget
        tasks: dict[str, TaskProgress] = {}
        for name in self.tasks:
            entry = st.archive.best.get(name)
            tasks[name] = TaskProgress(
                entry.score if entry else None, entry.speedup if entry else None, entry is not None
            )
        eta = None
        if b.used_evals > 0 and b.max_evals > b.used_evals:
            eta = b.elapsed_s / b.used_evals * (b.max_evals - b.used_evals)
        return Progress(
            iteration=st.next_iteration - 1,
            in_flight=in_flight,
            pool_size=len(st.pool),
            frontier_size=len(self.frontier()) if st.pool else 0,
            evals_used=b.used_evals,
            eval_budget=b.max_evals,
            cost_usd=b.cost_usd,
            elapsed_s=b.elapsed_s,
            eta_s=eta,
            tasks=tasks,
            message=message,
            stop_reason=b.stop_reason,
        )

    def _notify(self, message: str, in_flight: int = 0) -> None:
        if self.on_progress is not None:
            try:
                self.on_progress(self.progress(message, in_flight))
            except Exception:  # a broken view must not stop the search
                log.exception("progress callback failed")


async def gather_or_cancel(coros: Sequence[Awaitable[T]]) -> list[T]:
    """Like asyncio.gather, but a failure cancels the siblings before it propagates."""
    tasks = [asyncio.ensure_future(c) for c in coros]
    try:
        return list(await asyncio.gather(*tasks))
    except BaseException:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise
