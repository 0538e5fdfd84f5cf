"""choice/terminal/live.py: the open terminal's live stream is read where its client talks
(a team server's address may carry a path prefix), with its token, and what concerns the
question arrives as events; a small stand-in server (standard library) speaks the stream."""

from __future__ import annotations

import json
import queue
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from typing import Any, ClassVar

import pytest

from choice.client.portal_client import PortalClient
from choice.terminal.live import Live, LiveEvent
from tests.stand_in_server import serving

STREAM = "/team/api/stream"


class StreamStandIn(BaseHTTPRequestHandler):
    """The stream under `/team` for the token `agent-token`; 404 anywhere else."""

    seen: ClassVar[list[tuple[str, str | None]]] = []

    def do_GET(self) -> None:
        self.seen.append((self.path, self.headers.get("Authorization")))
        if self.path != STREAM or self.headers.get("Authorization") != "Bearer agent-token":
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = "".join(
            f"event: {kind}\ndata: {json.dumps(data)}\n\n" for kind, data in [
                ("interaction.completed", {"interaction_id": "someone-elses", "status": "answered"}),
                ("interaction.completed", {"interaction_id": "mine", "status": "cancelled"}),
            ]).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def stream_server() -> Iterator[tuple[str, type[StreamStandIn]]]:
    handler = type("Handler", (StreamStandIn,), {"seen": []})
    with serving(handler) as url:
        yield url, handler


def next_event(live: Live) -> LiveEvent:
    try:
        return live.events.get(timeout=10)
    except queue.Empty:
        raise AssertionError("the live stream queued nothing within 10 s") from None


def test_the_stream_is_read_under_the_clients_path_prefix_with_its_token(
        stream_server: tuple[str, type[StreamStandIn]]) -> None:
    base, handler = stream_server
    live = Live(PortalClient(f"{base}/team", "agent-token"), "mine")
    assert next_event(live) == LiveEvent("connected")
    assert next_event(live) == LiveEvent("completed", status="cancelled")  # not the other's
    assert handler.seen[0] == (STREAM, "Bearer agent-token")
