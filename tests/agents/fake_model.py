"""Fake model servers the real agent CLIs talk to instead of the internet: the Anthropic
Messages API (Claude Code, through `ANTHROPIC_BASE_URL`) and the OpenAI Responses API
(Codex, through a custom model provider), both streaming.

A test scripts the model's turns (`ToolUse` then `Say`): the agent's n-th request of the
conversation gets the n-th turn, counted from the assistant turns already in what the
agent sent, so a retried request gets the same turn again. Requests that are not the
conversation (a title, a quota check, a token count) get a harmless short answer. Every
request body is recorded; a test waits, with a bound, for the result the agent sent back for
one of the scripted tool calls (`ModelServer.result_of`)."""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

WAIT_SECONDS = 60.0


@dataclass(frozen=True)
class ToolUse:
    """The model calls `name` with `input` (in the Responses API, a tool of a `namespace`
    tool: Codex offers each MCP server's tools as one)."""

    name: str
    input: dict[str, Any]
    namespace: str | None = None


@dataclass(frozen=True)
class Say:
    """The model answers with plain text and ends its turn."""

    text: str


@dataclass(frozen=True)
class Then:
    """A turn made from what the agent sent back for the previous tool call (its text):
    e.g. call the tool again with the `session_id` its first result carried."""

    make: Callable[[str], ToolUse | Say]


Turn = ToolUse | Say | Then


@dataclass
class Recorded:
    path: str
    body: dict[str, Any]
    at: float = field(default_factory=time.monotonic)


class ModelServer:
    """One fake model on a free port of 127.0.0.1, serving `turns` to every conversation."""

    wire = ""

    def __init__(self, turns: list[Turn]) -> None:
        self.turns = turns
        self.tag = uuid.uuid4().hex[:12]
        self.requests: list[Recorded] = []
        self.sent_at: dict[int, float] = {}
        """When the reply carrying turn n was fully written (monotonic): for bench/."""
        self.changed = threading.Condition()
        server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        server.daemon_threads = True
        self.server = server
        self.thread = threading.Thread(target=server.serve_forever, daemon=True)

    def call_id(self, turn: int) -> str:
        """The id of the tool call of `turn` (the same in both wire formats' id rules)."""
        return f"toolu_{self.tag}{turn:03d}"

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> ModelServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    # -- what the agent sent -----------------------------------------------------------------
    def record(self, path: str, body: dict[str, Any]) -> None:
        with self.changed:
            self.requests.append(Recorded(path, body))
            self.changed.notify_all()

    def wait_for(self, found: Callable[[], Any], what: str,
                 timeout: float = WAIT_SECONDS) -> Any:
        """Wait (bounded) until `found()` returns something other than None."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                value = found()
                if value is not None:
                    return value
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"the model got no {what} within {timeout:.0f} s; "
                                         f"requests: {self.summary()}")
                self.changed.wait(left)

    def result_of(self, turn: int, timeout: float = WAIT_SECONDS) -> ToolResult:
        """What the agent sent back for the tool call of `turn` (waits for it)."""
        call_id = self.call_id(turn)
        return self.wait_for(lambda: self.find_result(call_id),  # type: ignore[no-any-return]
                             f"result for turn {turn}", timeout)

    def has_result(self, turn: int) -> bool:
        with self.changed:
            return self.find_result(self.call_id(turn)) is not None

    def find_result(self, call_id: str) -> ToolResult | None:
        raise NotImplementedError

    def summary(self) -> str:
        return json.dumps([{"path": r.path, "body": r.body} for r in self.requests[-3:]])[-4000:]

    # -- answering -----------------------------------------------------------------------------
    def _handler(self) -> type[BaseHTTPRequestHandler]:
        model = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                model.record(self.path, {})
                self.reply_json(200, model.get_reply(self.path))

            def do_HEAD(self) -> None:
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {"raw": raw.decode(errors="replace")}
                model.record(self.path, body if isinstance(body, dict) else {"body": body})
                model.answer(self, self.path, body)

            def reply_json(self, status: int, body: Any) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def stream(self, events: Iterator[tuple[str, dict[str, Any]]]) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Connection", "close")
                self.end_headers()
                for name, data in events:
                    self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
                self.wfile.flush()
                self.close_connection = True

        return Handler

    def get_reply(self, path: str) -> Any:
        return {}

    def answer(self, handler: Any, path: str, body: Any) -> None:
        raise NotImplementedError

    def turn_for(self, done: int) -> tuple[int, ToolUse | Say]:
        """The scripted turn after `done` assistant turns (the last one again past the end)."""
        index = min(done, len(self.turns) - 1)
        turn = self.turns[index]
        if isinstance(turn, Then):
            with self.changed:
                previous = self.find_result(self.call_id(index - 1))
            turn = turn.make(previous.text if previous is not None else "")
        return index, turn

    def mark_sent(self, index: int) -> None:
        with self.changed:
            self.sent_at.setdefault(index, time.monotonic())
            self.changed.notify_all()


@dataclass(frozen=True)
class ToolResult:
    """What an agent sent back for one tool call: its text, and whether it was an error."""

    text: str
    is_error: bool
    at: float


def text_of(content: Any) -> str:
    """The text of a tool result's content (a string, or blocks)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(text_of(part.get("text", part.get("content", "")))
                         if isinstance(part, dict) else str(part) for part in content)
    return json.dumps(content)


# -- Anthropic Messages ------------------------------------------------------------------------
class AnthropicModel(ModelServer):
    """The Messages API as Claude Code calls it (`POST /v1/messages`, streaming)."""

    wire = "anthropic"

    def find_result(self, call_id: str) -> ToolResult | None:
        for request in self.requests:
            for message in request.body.get("messages", []) or []:
                content = message.get("content") if isinstance(message, dict) else None
                if not isinstance(content, list):
                    continue
                for block in content:
                    if (isinstance(block, dict) and block.get("type") == "tool_result"
                            and block.get("tool_use_id") == call_id):
                        return ToolResult(text_of(block.get("content", "")),
                                          bool(block.get("is_error")), request.at)
        return None

    def answer(self, handler: Any, path: str, body: Any) -> None:
        if "count_tokens" in path:
            handler.reply_json(200, {"input_tokens": 12})
            return
        if not path.startswith("/v1/messages"):
            handler.reply_json(200, {})
            return
        messages = body.get("messages") or []
        conversation = bool(body.get("tools")) and len(body.get("tools")) > 3
        if conversation:
            done = sum(1 for m in messages if isinstance(m, dict) and m.get("role") == "assistant")
            index, turn = self.turn_for(done)
        else:
            index, turn = -1, Say("ok")
        blocks = [self.block(index, turn)]
        stop = "tool_use" if isinstance(turn, ToolUse) else "end_turn"
        message = {"id": f"msg_{uuid.uuid4().hex[:20]}", "type": "message", "role": "assistant",
                   "model": body.get("model", "claude-sonnet-4-5"), "content": [],
                   "stop_reason": None, "stop_sequence": None,
                   "usage": {"input_tokens": 12, "output_tokens": 1,
                             "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}}
        if not body.get("stream"):
            handler.reply_json(200, {**message, "content": blocks, "stop_reason": stop})
        else:
            handler.stream(self.events(message, blocks[0], stop))
        if index >= 0:
            self.mark_sent(index)

    def block(self, index: int, turn: ToolUse | Say) -> dict[str, Any]:
        if isinstance(turn, ToolUse):
            return {"type": "tool_use", "id": self.call_id(index), "name": turn.name,
                    "input": turn.input}
        return {"type": "text", "text": turn.text}

    @staticmethod
    def events(message: dict[str, Any], block: dict[str, Any],
               stop: str) -> Iterator[tuple[str, dict[str, Any]]]:
        yield "message_start", {"type": "message_start", "message": message}
        if block["type"] == "tool_use":
            yield "content_block_start", {"type": "content_block_start", "index": 0,
                                          "content_block": {**block, "input": {}}}
            yield "content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {
                "type": "input_json_delta", "partial_json": json.dumps(block["input"])}}
        else:
            yield "content_block_start", {"type": "content_block_start", "index": 0,
                                          "content_block": {"type": "text", "text": ""}}
            yield "content_block_delta", {"type": "content_block_delta", "index": 0,
                                          "delta": {"type": "text_delta", "text": block["text"]}}
        yield "content_block_stop", {"type": "content_block_stop", "index": 0}
        yield "message_delta", {"type": "message_delta",
                                "delta": {"stop_reason": stop, "stop_sequence": None},
                                "usage": {"output_tokens": 5}}
        yield "message_stop", {"type": "message_stop"}


# -- OpenAI Responses --------------------------------------------------------------------------
class ResponsesModel(ModelServer):
    """The Responses API as Codex calls it through a custom provider (`POST .../responses`,
    streaming); a scripted `ToolUse` becomes a `function_call` item."""

    wire = "responses"

    def find_result(self, call_id: str) -> ToolResult | None:
        for request in self.requests:
            for item in request.body.get("input", []) or []:
                if (isinstance(item, dict) and item.get("type") in (
                        "function_call_output", "custom_tool_call_output")
                        and item.get("call_id") == call_id):
                    return ToolResult(text_of(item.get("output", "")), False, request.at)
        return None

    def answer(self, handler: Any, path: str, body: Any) -> None:
        if not path.rstrip("/").endswith("/responses"):
            handler.reply_json(200, {})
            return
        items = [item for item in body.get("input", []) or [] if isinstance(item, dict)]
        if body.get("tools"):
            done = sum(1 for item in items if item.get("type") == "function_call"
                       or (item.get("type") == "message" and item.get("role") == "assistant"))
            index, turn = self.turn_for(done)
        else:
            index, turn = -1, Say("ok")
        handler.stream(self.events(index, turn))
        if index >= 0:
            self.mark_sent(index)

    def events(self, index: int, turn: ToolUse | Say) -> Iterator[tuple[str, dict[str, Any]]]:
        response_id = f"resp_{uuid.uuid4().hex[:16]}"
        if isinstance(turn, ToolUse):
            item: dict[str, Any] = {
                "type": "function_call", "id": f"fc_{uuid.uuid4().hex[:12]}",
                "call_id": self.call_id(index), "name": turn.name,
                "arguments": json.dumps(turn.input), "status": "completed"}
            if turn.namespace is not None:
                item["namespace"] = turn.namespace
        else:
            item = {"type": "message", "role": "assistant", "id": f"msg_{uuid.uuid4().hex[:12]}",
                    "status": "completed",
                    "content": [{"type": "output_text", "text": turn.text, "annotations": []}]}
        yield "response.created", {"type": "response.created",
                                   "response": {"id": response_id, "status": "in_progress"}}
        yield "response.output_item.added", {"type": "response.output_item.added",
                                             "output_index": 0, "item": item}
        if isinstance(turn, Say):
            yield "response.output_text.delta", {"type": "response.output_text.delta",
                                                 "item_id": item["id"], "output_index": 0,
                                                 "content_index": 0, "delta": turn.text}
        yield "response.output_item.done", {"type": "response.output_item.done",
                                            "output_index": 0, "item": item}
        yield "response.completed", {"type": "response.completed", "response": {
            "id": response_id, "status": "completed", "output": [item],
            "usage": {"input_tokens": 12, "input_tokens_details": {"cached_tokens": 0},
                      "output_tokens": 5, "output_tokens_details": {"reasoning_tokens": 0},
                      "total_tokens": 17}}}
