"""The LLM layer: one `LanguageModel` protocol, a litellm implementation, and kernel extraction.

litellm is imported lazily, on the first call, and never by the harness or its workers. Before
it is imported we ask it to use its bundled price map, so nothing stalls offline or behind a
firewall fetching a remote one.

Retries are ours (litellm's own are switched off) so the behaviour is one documented loop:
rate limits (429), server errors (5xx), timeouts, connection failures and malformed responses
are retried with exponential backoff and full jitter up to `LLMSettings.max_retries` times;
authentication failures raise `CredentialsError`; anything else raises `LLMCallError`.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import random
import re
import time
from dataclasses import dataclass
from typing import Any, Protocol

from kernelsearch.errors import CredentialsError

log = logging.getLogger(__name__)

# litellm reads this at import time; "True" keeps it on the bundled price map (no network).
COST_MAP_ENV = "LITELLM_LOCAL_MODEL_COST_MAP"

DEFAULT_TEMPERATURE = 0.7
DEFAULT_MAX_TOKENS = 8192
DEFAULT_TIMEOUT_S = 600.0
DEFAULT_MAX_RETRIES = 5
DEFAULT_BACKOFF_BASE_S = 2.0
DEFAULT_BACKOFF_MAX_S = 60.0
DEFAULT_CONCURRENCY = 8
# An OpenAI-compatible local server usually ignores the key, but the client insists on one.
LOCAL_PLACEHOLDER_KEY = "kernelsearch-local"

Message = dict[str, str]


class LLMCallError(Exception):
    """An LLM call failed after all retries (or with a non-retryable error)."""

    def __init__(self, message: str, *, attempts: int, retryable: bool) -> None:
        super().__init__(message)
        self.attempts = attempts
        self.retryable = retryable


@dataclass(frozen=True)
class LLMSettings:
    """How one model is called. `api_base` points litellm at an OpenAI-compatible server."""

    model: str
    api_base: str | None = None
    temperature: float = DEFAULT_TEMPERATURE
    max_tokens: int = DEFAULT_MAX_TOKENS
    timeout_s: float = DEFAULT_TIMEOUT_S
    max_retries: int = DEFAULT_MAX_RETRIES
    backoff_base_s: float = DEFAULT_BACKOFF_BASE_S
    backoff_max_s: float = DEFAULT_BACKOFF_MAX_S
    concurrency: int = DEFAULT_CONCURRENCY


@dataclass(frozen=True)
class LLMReply:
    """One completion and what it cost. `cost_known` is False when the model has no price."""

    text: str
    model: str
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0
    cost_known: bool = True
    latency_s: float = 0.0
    attempts: int = 1
    replayed: bool = False  # served from the run store instead of the provider

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "model": self.model,
            "tokens_in": self.tokens_in,
            "tokens_out": self.tokens_out,
            "cost_usd": self.cost_usd,
            "cost_known": self.cost_known,
            "latency_s": self.latency_s,
            "attempts": self.attempts,
            "replayed": self.replayed,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> LLMReply:
        return cls(**d)


class LanguageModel(Protocol):
    """What the search needs from a model: messages in, text (and its cost) out."""

    settings: LLMSettings

    async def complete(self, messages: list[Message], *, purpose: str) -> LLMReply: ...


def request_payload(settings: LLMSettings, messages: list[Message]) -> dict[str, Any]:
    """The parts of a request that decide its answer (what the response cache is keyed on)."""
    return {
        "model": settings.model,
        "messages": messages,
        "temperature": settings.temperature,
        "max_tokens": settings.max_tokens,
    }


def request_hash(payload: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def backoff_delay(attempt: int, base_s: float, max_s: float, rng: random.Random) -> float:
    """Seconds to wait before retry `attempt` (1-based): full jitter over base * 2^(attempt-1)."""
    cap = min(max_s, base_s * (2 ** (attempt - 1)))
    return rng.uniform(cap / 2, cap)


def import_litellm() -> Any:
    """Import litellm with the bundled price map and without its console chatter."""
    os.environ.setdefault(COST_MAP_ENV, "True")
    import litellm

    litellm.suppress_debug_info = True
    litellm.drop_params = True
    return litellm


def _classify(exc: BaseException, litellm: Any) -> str:
    """`auth`, `retry` or `fatal` for an exception raised by litellm.acompletion."""
    if isinstance(exc, (litellm.AuthenticationError, litellm.PermissionDeniedError)):
        return "auth"
    retryable = (
        litellm.RateLimitError,
        litellm.Timeout,
        litellm.APIConnectionError,
        litellm.InternalServerError,
        litellm.ServiceUnavailableError,
        litellm.BadGatewayError,
        litellm.APIResponseValidationError,
        asyncio.TimeoutError,
        json.JSONDecodeError,
    )
    if isinstance(exc, retryable):
        return "retry"
    status = getattr(exc, "status_code", None)
    if isinstance(status, int) and (status == 429 or status >= 500):
        return "retry"
    if isinstance(exc, litellm.APIError) and status is None:
        return "retry"  # unparseable reply from the server
    return "fatal"


class LiteLLMModel:
    """A `LanguageModel` over litellm, with a concurrency limit, retries and cost accounting."""

    def __init__(self, settings: LLMSettings, *, seed: int = 0) -> None:
        self.settings = settings
        self._semaphore: asyncio.Semaphore | None = None
        self._rng = random.Random(seed)

    def _limit(self) -> asyncio.Semaphore:
        if self._semaphore is None:
            self._semaphore = asyncio.Semaphore(self.settings.concurrency)
        return self._semaphore

    async def complete(self, messages: list[Message], *, purpose: str) -> LLMReply:
        litellm = import_litellm()
        s = self.settings
        kwargs: dict[str, Any] = {
            "model": s.model,
            "messages": messages,
            "temperature": s.temperature,
            "max_tokens": s.max_tokens,
            "timeout": s.timeout_s,
            "num_retries": 0,
        }
        if s.api_base:
            kwargs["api_base"] = s.api_base
            if not _provider_key_set(s.model, litellm):
                kwargs["api_key"] = LOCAL_PLACEHOLDER_KEY
        attempt = 0
        while True:
            attempt += 1
            start = time.monotonic()
            try:
                async with self._limit():
                    response = await asyncio.wait_for(
                        litellm.acompletion(**kwargs), timeout=s.timeout_s
                    )
                text = _reply_text(response)
            except Exception as exc:  # classified below; nothing is swallowed silently
                kind = _classify(exc, litellm)
                if kind == "auth":
                    raise CredentialsError(
                        f"{s.model}: the provider rejected the credentials ({exc}); "
                        f"check {', '.join(missing_credentials(s.model)) or 'the API key'}"
                    ) from exc
                if kind == "fatal" or attempt > s.max_retries:
                    raise LLMCallError(
                        f"{s.model} ({purpose}): {type(exc).__name__}: {exc}",
                        attempts=attempt,
                        retryable=kind == "retry",
                    ) from exc
                delay = backoff_delay(attempt, s.backoff_base_s, s.backoff_max_s, self._rng)
                log.warning(
                    "%s (%s) attempt %d failed (%s); retrying in %.1fs",
                    s.model,
                    purpose,
                    attempt,
                    type(exc).__name__,
                    delay,
                )
                await asyncio.sleep(delay)
                continue
            latency = time.monotonic() - start
            tokens_in, tokens_out = _usage(response)
            cost, known = _cost(response, litellm)
            return LLMReply(
                text=text,
                model=s.model,
                tokens_in=tokens_in,
                tokens_out=tokens_out,
                cost_usd=cost,
                cost_known=known,
                latency_s=latency,
                attempts=attempt,
            )


def _reply_text(response: Any) -> str:
    try:
        content = response.choices[0].message.content
    except (AttributeError, IndexError, KeyError, TypeError) as e:
        raise json.JSONDecodeError(f"reply has no message content ({e})", "", 0) from None
    return content or ""


def _usage(response: Any) -> tuple[int, int]:
    usage = getattr(response, "usage", None)
    if usage is None:
        return 0, 0
    return int(getattr(usage, "prompt_tokens", 0) or 0), int(
        getattr(usage, "completion_tokens", 0) or 0
    )


def _cost(response: Any, litellm: Any) -> tuple[float, bool]:
    try:
        return float(litellm.completion_cost(completion_response=response)), True
    except Exception as e:  # litellm raises several types for "no price for this model"
        log.debug("no price for %s: %s", getattr(response, "model", "?"), e)
        return 0.0, False


# ---------------------------------------------------------------------------------------
# Credentials


def _provider_key_set(model: str, litellm: Any) -> bool:
    try:
        return bool(litellm.validate_environment(model).get("keys_in_environment"))
    except Exception:
        return False


def missing_credentials(model: str) -> list[str]:
    """Environment variables litellm wants for `model` that are not set (empty: all present)."""
    litellm = import_litellm()
    try:
        return list(litellm.validate_environment(model).get("missing_keys") or [])
    except Exception:
        return []


def check_credentials(model: str, api_base: str | None = None) -> None:
    """Raise `CredentialsError` unless `model` can be called, before anything is spent."""
    litellm = import_litellm()
    try:
        litellm.get_llm_provider(model)
    except Exception:
        raise CredentialsError(
            f"--model {model}: litellm knows no provider for this name; use a provider prefix "
            "such as openai/..., anthropic/..., gemini/..., ollama/..., or hosted_vllm/... "
            "with --api-base URL for a local OpenAI-compatible server"
        ) from None
    if api_base:
        return
    missing = missing_credentials(model)
    if missing:
        raise CredentialsError(
            f"--model {model}: no credentials; set {' and '.join(missing)} in the environment, "
            "or point --api-base at a local OpenAI-compatible server (vLLM, Ollama, llama.cpp). "
            "Offline, `kernelsearch eval`, `baseline` and `docs search` still work."
        )


# ---------------------------------------------------------------------------------------
# Kernel extraction

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)```", re.DOTALL)
_MODEL_NEW = re.compile(r"^\s*class\s+ModelNew\b", re.MULTILINE)


def extract_kernel(reply: str) -> str | None:
    """The fenced code block that defines `ModelNew` (the last one if several), else None."""
    blocks = [body for _lang, body in _FENCE.findall(reply)]
    with_model = [b for b in blocks if _MODEL_NEW.search(b)]
    if with_model:
        return with_model[-1].strip("\n") + "\n"
    # An unterminated final fence (the model ran out of tokens) still counts if complete.
    tail = reply.rsplit("```", 1)
    if len(tail) == 2 and reply.count("```") % 2 == 1:
        body = tail[1].split("\n", 1)[1] if "\n" in tail[1] else ""
        if _MODEL_NEW.search(body):
            return body.strip("\n") + "\n"
    return None
