"""One trial: a candidate writes a kernel for one task, the executor evaluates it, it is scored,
recorded in the run store and offered to the task archive.

A reply without a `ModelNew` code block is an evaluation with stage `no_code`. A failure of the
LLM itself (after retries) is not an evaluation: `LLMCallError` propagates to the iteration.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kernelsearch.llm import extract_kernel
from kernelsearch.result import EvalResult, Stage, source_hash
from kernelsearch.search.budget import Budget, Ledger
from kernelsearch.search.memory import MemoryEntry, TaskArchive
from kernelsearch.search.messages import generation_messages
from kernelsearch.search.recorder import RecordedModel, ReplayLog
from kernelsearch.search.score import Scored, scored, speedup
from kernelsearch.store import RunStore
from kernelsearch.tasks import Task

if TYPE_CHECKING:
    from kernelsearch.harness.executor import Executor

log = logging.getLogger(__name__)

NO_CODE_FEEDBACK = (
    "The reply contained no fenced python code block defining `class ModelNew`, so nothing "
    "was built or run. Every reply must hold exactly one such block with the complete module."
)

FeedbackFn = Callable[[EvalResult], str]


@dataclass(frozen=True)
class Trial:
    task: str
    source: str
    result: EvalResult
    scored: Scored
    feedback: str
    evaluation_id: int


def make_feedback_fn(hardware: Any = None) -> FeedbackFn:
    """`kernelsearch.feedback.render_feedback` with the docs retriever and the installed API's
    facts (the facts index is read, or built, here, once per run)."""
    from kernelsearch.feedback import render_feedback
    from kernelsearch.retrieval import ApiFactsIndex, DocsIndex

    retriever = None
    try:
        retriever = DocsIndex()
    except Exception as e:  # the docs index is an aid; feedback works without it
        log.warning("documentation retrieval unavailable (%s); feedback without docs", e)
    api: ApiFactsIndex | None = ApiFactsIndex()
    try:
        api.catalog()  # extracted once per installed torch/triton/CUDA, then read from cache
    except Exception as e:  # an aid too
        log.warning("API facts unavailable (%s); feedback without them", e)
        api = None

    def feedback(result: EvalResult) -> str:
        if result.stage is Stage.NO_CODE:
            return NO_CODE_FEEDBACK
        return render_feedback(result, retriever=retriever, hardware=hardware, api=api)

    return feedback


def no_code_result(task: Task, backend: str, reply: str) -> EvalResult:
    return EvalResult(
        task=task.name,
        backend=backend,
        device="none",
        stage=Stage.NO_CODE,
        error="no fenced python block defining ModelNew in the reply",
        stdout=reply[-2000:],
    )


class TrialRunner:
    """Runs trials for the engine; shared by every iteration."""

    def __init__(
        self,
        *,
        executor: Executor,
        writer: RecordedModel,
        store: RunStore,
        replay: ReplayLog,
        budget: Budget,
        archive: TaskArchive,
        feedback: FeedbackFn,
        backend: str,
        objective: str,
        baseline: str,
    ) -> None:
        self.executor = executor
        self.writer = writer
        self.store = store
        self.replay = replay
        self.budget = budget
        self.archive = archive
        self.feedback = feedback
        self.backend = backend
        self.objective = objective
        self.baseline = baseline

    async def run(
        self,
        *,
        candidate_id: int,
        components: Mapping[str, str],
        task: Task,
        memory: MemoryEntry | None,
        purpose: str,
        iteration: int,
        ledger: Ledger | None = None,
    ) -> Trial:
        messages = generation_messages(components, task, memory, self.backend)
        reply, call_id = await self.writer.complete(
            messages, purpose="generate", iteration=iteration
        )
        source = extract_kernel(reply.text)
        if source is None:
            result = no_code_result(task, self.backend, reply.text)
            return self._record(candidate_id, task, "", result, purpose, iteration, call_id, ledger)
        return await self.evaluate_source(
            candidate_id=candidate_id,
            task=task,
            source=source,
            purpose=purpose,
            iteration=iteration,
            llm_call_id=call_id,
            ledger=ledger,
        )

    async def evaluate_source(
        self,
        *,
        candidate_id: int | None,
        task: Task,
        source: str,
        purpose: str,
        iteration: int,
        llm_call_id: int | None,
        ledger: Ledger | None = None,
        retime_trials: int | None = None,
    ) -> Trial:
        """Evaluate (or re-time) a kernel source, replaying a recorded result when one waits."""
        recorded = self.replay.take_evaluation(task.name, source_hash(source), purpose)
        if recorded is not None:
            trial = Trial(
                task.name,
                source,
                recorded.result,
                Scored(recorded.score, recorded.score_margin),
                self.feedback(recorded.result),
                recorded.id,
            )
            self._spend(ledger)
            self._offer(trial)
            return trial
        if retime_trials is not None:
            result = await self.executor.retime(task, source, retime_trials)
        else:
            result = await self.executor.evaluate(task, source)
        return self._record(
            candidate_id, task, source, result, purpose, iteration, llm_call_id, ledger
        )

    def _record(
        self,
        candidate_id: int | None,
        task: Task,
        source: str,
        result: EvalResult,
        purpose: str,
        iteration: int,
        llm_call_id: int | None,
        ledger: Ledger | None,
    ) -> Trial:
        if not result.source_hash:
            result = result.with_(source_hash=source_hash(source))
        s = scored(result, self.objective, self.baseline)
        feedback = self.feedback(result)
        eval_id = self.store.add_evaluation(
            candidate_id=candidate_id,
            task=task.name,
            purpose=purpose,
            iteration=iteration,
            source=source,
            result=result,
            score=s.score,
            score_margin=s.margin,
            llm_call_id=llm_call_id,
        )
        self._spend(ledger)
        trial = Trial(task.name, source, result, s, feedback, eval_id)
        self._offer(trial)
        return trial

    def _spend(self, ledger: Ledger | None) -> None:
        """Search evaluations (those with a ledger) count against the budget."""
        if ledger is not None:
            ledger.spent += 1
            self.budget.spend_eval()

    def _offer(self, trial: Trial) -> None:
        self.archive.offer(
            trial.task,
            source=trial.source,
            feedback=trial.feedback,
            scored=trial.scored,
            accepted=trial.result.accepted,
            speedup=speedup(trial.result, self.baseline),
            evaluation_id=trial.evaluation_id,
        )
