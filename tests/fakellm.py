"""A scriptable OpenAI-compatible chat server for tests (stdlib only, runs in a thread).

Tests start it, queue replies per request kind (`generate`, `reflect`, `merge`), inject faults
(HTTP 429/500, a reply slower than the client's timeout, a malformed body), and point litellm
at it with `--api-base`. Every request received is kept for assertions.
"""

from __future__ import annotations

import json
import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

# Markers the kernelsearch prompt templates carry (see kernelsearch/prompts/*.md).
KIND_MARKERS = (
    ("merge", "Merge two instruction sets"),
    ("reflect", "Improve the instructions"),
    ("generate", "ModelNew"),
)


@dataclass(frozen=True)
class Fault:
    """Instead of a reply: an HTTP error status, a delay before replying, or a broken body."""

    status: int = 0
    delay_s: float = 0.0
    malformed: bool = False
    then: str | None = None  # after a delay, reply with this text


def kind_of(body: dict[str, Any]) -> str:
    text = "\n".join(m.get("content") or "" for m in body.get("messages", []))
    for kind, marker in KIND_MARKERS:
        if marker in text:
            return kind
    return "other"


class FakeLLM:
    """Start with `FakeLLM().start()`; `api_base` is what litellm's `--api-base` takes."""

    def __init__(self) -> None:
        self.queues: dict[str, deque[str | Fault]] = defaultdict(deque)
        self.defaults: dict[str, Callable[[dict[str, Any]], str]] = {}
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self.tokens_in = 100
        self.tokens_out = 50
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    # ---- scripting --------------------------------------------------------------------
    def queue(self, kind: str, *replies: str | Fault) -> None:
        with self._lock:
            self.queues[kind].extend(replies)

    def default(self, kind: str, reply: str | Callable[[dict[str, Any]], str]) -> None:
        self.defaults[kind] = reply if callable(reply) else (lambda _body, r=reply: r)

    def count(self, kind: str) -> int:
        with self._lock:
            return sum(1 for k, _ in self.requests if k == kind)

    def _next(self, kind: str, body: dict[str, Any]) -> str | Fault:
        with self._lock:
            self.requests.append((kind, body))
            if self.queues[kind]:
                return self.queues[kind].popleft()
        if kind in self.defaults:
            return self.defaults[kind](body)
        return Fault(status=500)

    # ---- server -----------------------------------------------------------------------
    @property
    def api_base(self) -> str:
        assert self._server is not None, "call start() first"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def start(self) -> FakeLLM:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output quiet
                pass

            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                answer = fake._next(kind_of(body), body)
                if isinstance(answer, Fault):
                    if answer.delay_s:
                        time.sleep(answer.delay_s)
                    if answer.status:
                        self._send(
                            answer.status, {"error": {"message": f"injected {answer.status}"}}
                        )
                        return
                    if answer.malformed:
                        self._send_raw(200, b"{this is not json")
                        return
                    answer = answer.then or ""
                self._send(200, fake._completion(body, answer))

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                self._send_raw(status, json.dumps(payload).encode())

            def _send_raw(self, status: int, data: bytes) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout test)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def _completion(self, body: dict[str, Any], text: str) -> dict[str, Any]:
        return {
            "id": f"fake-{len(self.requests)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "fake"),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text},
                    "finish_reason": "stop",
                }
            ],
            "usage": {
                "prompt_tokens": self.tokens_in,
                "completion_tokens": self.tokens_out,
                "total_tokens": self.tokens_in + self.tokens_out,
            },
        }


def fenced(source: str, lang: str = "python") -> str:
    """A model-style reply wrapping `source` in one fenced block."""
    return f"Here is the kernel.\n\n```{lang}\n{source.strip()}\n```\n"
