"""Building the three prompts (generation, reflection, merge) from the templates in
`kernelsearch/prompts/`, and reading the new instructions out of a reflection reply.

The generation prompt is a fixed frame (backend guidance and the reply-format contract) around
the evolved text: the candidate's components, the task source and the task's memory. Nothing a
reflection writes can remove the frame.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from kernelsearch import prompts
from kernelsearch.llm import Message
from kernelsearch.search.memory import MemoryEntry
from kernelsearch.tasks import Task

MAX_FEEDBACK_CHARS = 6000  # per example in a reflection prompt
_INSTRUCTIONS = re.compile(r"<instructions>\s*(.*?)\s*</instructions>", re.DOTALL)


def seed_instructions() -> str:
    return prompts.render("seed_instructions")


def backend_guidance(backend: str) -> str:
    name = f"backend_{backend}"
    if prompts.exists(name):
        return prompts.render(name)
    return prompts.render("backend_generic", backend=backend)


def _components_text(components: Mapping[str, str]) -> str:
    if list(components) == ["instructions"]:
        return components["instructions"].strip()
    return "\n\n".join(f"### {name}\n\n{text.strip()}" for name, text in components.items())


def memory_text(entry: MemoryEntry | None) -> str:
    if entry is None:
        return prompts.render("memory_none")
    status = f"speedup {entry.speedup:.2f}x" if entry.speedup else "accepted"
    return prompts.render(
        "memory", status=status, kernel=entry.source.strip(), feedback=_clip(entry.feedback)
    )


def generation_messages(
    components: Mapping[str, str], task: Task, memory: MemoryEntry | None, backend: str
) -> list[Message]:
    system = prompts.render("generate_system", backend_guidance=backend_guidance(backend))
    user = prompts.render(
        "generate_user",
        instructions=_components_text(components),
        task_name=task.name,
        task_source=task.effective_source.strip(),
        memory=memory_text(memory),
    )
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


@dataclass(frozen=True)
class ReflectionExample:
    task: Task
    kernel: str
    feedback: str
    score: float


def reflection_messages(
    component: str, current: str, examples: Sequence[ReflectionExample]
) -> list[Message]:
    rendered = "\n\n".join(
        prompts.render(
            "reflect_example",
            index=i + 1,
            task_name=ex.task.name,
            score=f"{ex.score:.3f}",
            task_source=ex.task.effective_source.strip(),
            kernel=ex.kernel.strip() or "(no code in the reply)",
            feedback=_clip(ex.feedback),
        )
        for i, ex in enumerate(examples)
    )
    text = prompts.render(
        "reflect",
        component=component,
        current=current.strip(),
        count=len(examples),
        examples=rendered,
    )
    return [{"role": "user", "content": text}]


def merge_messages(
    component: str,
    ancestor: str,
    text_a: str,
    text_b: str,
    wins_a: Sequence[str],
    wins_b: Sequence[str],
) -> list[Message]:
    text = prompts.render(
        "merge",
        component=component,
        ancestor=ancestor.strip(),
        text_a=text_a.strip(),
        text_b=text_b.strip(),
        wins_a=", ".join(wins_a) or "(no task)",
        wins_b=", ".join(wins_b) or "(no task)",
    )
    return [{"role": "user", "content": text}]


def parse_instructions(reply: str) -> str | None:
    """The text between the last <instructions> tags, else the whole reply; None if empty."""
    found = _INSTRUCTIONS.findall(reply)
    text = (found[-1] if found else reply).strip()
    if text.startswith("```") and text.endswith("```"):
        text = text.strip("`").split("\n", 1)[-1].strip()
    return text or None


def _clip(text: str, limit: int = MAX_FEEDBACK_CHARS) -> str:
    text = text.strip()
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]}\n[... {len(text) - limit} characters cut ...]\n{text[-half:]}"
