"""Recording every LLM call in the run store, and replaying recorded work on resume.

A resumed run must never pay twice. Work recorded by an earlier session for iterations that
never completed (the session was stopped or killed mid-iteration) is "unconsumed": when the
resumed run makes the same LLM request, or evaluates the same kernel for the same task and
purpose, it gets the recorded answer instead of a new one.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Iterable

from kernelsearch.llm import LanguageModel, LLMCallError, LLMReply, Message, request_hash
from kernelsearch.llm import request_payload as payload_of
from kernelsearch.search.budget import Budget
from kernelsearch.store import EvaluationRecord, LLMCallRecord, RunStore


class CostCapReached(Exception):
    """The dollar cap is spent; no new LLM call may start."""


class ReplayLog:
    """Unconsumed LLM replies (by request hash) and evaluations (by task, source, purpose)."""

    def __init__(self, store: RunStore | None = None, completed: Iterable[int] = ()) -> None:
        self._llm: dict[str, deque[LLMCallRecord]] = defaultdict(deque)
        self._evals: dict[tuple[str, str, str], deque[EvaluationRecord]] = defaultdict(deque)
        if store is None:
            return
        done = set(completed)
        for call in store.llm_calls():
            if not call.error and call.iteration not in done:
                self._llm[call.request_hash].append(call)
        for ev in store.evaluations():
            if ev.iteration not in done:
                self._evals[(ev.task, ev.source_hash, ev.purpose)].append(ev)

    def take_llm(self, request_hash: str) -> LLMCallRecord | None:
        q = self._llm.get(request_hash)
        return q.popleft() if q else None

    def take_evaluation(self, task: str, source_hash: str, purpose: str) -> EvaluationRecord | None:
        q = self._evals.get((task, source_hash, purpose))
        return q.popleft() if q else None

    @property
    def pending(self) -> int:
        return sum(len(q) for q in self._llm.values()) + sum(len(q) for q in self._evals.values())


class RecordedModel:
    """A `LanguageModel` whose calls are written to the store and replayed when recorded."""

    def __init__(
        self, model: LanguageModel, store: RunStore, replay: ReplayLog, budget: Budget
    ) -> None:
        self.model = model
        self.store = store
        self.replay = replay
        self.budget = budget

    async def complete(
        self, messages: list[Message], *, purpose: str, iteration: int
    ) -> tuple[LLMReply, int]:
        """The reply and the id of its `llm_calls` row."""
        payload = payload_of(self.model.settings, messages)
        key = request_hash(payload)
        recorded = self.replay.take_llm(key)
        if recorded is not None:
            reply = LLMReply(
                text=recorded.response_text,
                model=recorded.model,
                tokens_in=recorded.tokens_in,
                tokens_out=recorded.tokens_out,
                cost_usd=recorded.cost_usd,
                cost_known=recorded.cost_known,
                latency_s=recorded.latency_s,
                attempts=recorded.attempts,
                replayed=True,
            )
            return reply, recorded.id
        if not self.budget.can_spend_llm():
            raise CostCapReached(f"--max-cost ${self.budget.max_cost_usd} spent")
        try:
            reply = await self.model.complete(messages, purpose=purpose)
        except LLMCallError as e:
            self.store.add_llm_call(
                request_hash=key,
                model=self.model.settings.model,
                purpose=purpose,
                iteration=iteration,
                request=payload,
                response_text="",
                tokens_in=0,
                tokens_out=0,
                cost_usd=0.0,
                cost_known=True,
                latency_s=0.0,
                attempts=e.attempts,
                error=str(e),
            )
            raise
        self.budget.add_cost(reply.cost_usd)
        call_id = self.store.add_llm_call(
            request_hash=key,
            model=reply.model,
            purpose=purpose,
            iteration=iteration,
            request=payload,
            response_text=reply.text,
            tokens_in=reply.tokens_in,
            tokens_out=reply.tokens_out,
            cost_usd=reply.cost_usd,
            cost_known=reply.cost_known,
            latency_s=reply.latency_s,
            attempts=reply.attempts,
        )
        return reply, call_id
