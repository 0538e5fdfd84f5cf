"""`web/security/slow_clients.py` under any ASGI server: a body late past its deadline is
answered once (by the refusal), the handler's own answer is dropped, and nothing after the
body (a long poll waiting for the client to hang up) is ever timed."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from choice.web.security.slow_clients import BodyDeadline, BodyTimedOut, has_body


class Wire:
    """A server's side of one request: what the app may receive, and what it sent."""

    def __init__(self, *messages: dict[str, Any]) -> None:
        self.incoming: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        for message in messages:
            self.incoming.put_nowait(message)
        self.sent: list[dict[str, Any]] = []

    async def receive(self) -> Any:
        return await self.incoming.get()

    async def send(self, message: Any) -> None:
        self.sent.append(dict(message))


async def refuse(send: Any) -> None:
    await send({"type": "http.response.start", "status": 408, "headers": []})
    await send({"type": "http.response.body", "body": b"late", "more_body": False})


async def test_a_late_body_is_refused_once_and_the_handlers_answer_dropped() -> None:
    wire = Wire({"type": "http.request", "body": b"{", "more_body": True})
    deadline = BodyDeadline(wire.receive, wire.send, refuse, seconds=0)
    assert (await deadline.receive())["body"] == b"{"
    with pytest.raises(BodyTimedOut):
        await deadline.receive()  # the rest never comes
    await deadline.send({"type": "http.response.start", "status": 500, "headers": []})
    assert [message.get("status") for message in wire.sent] == [408, None]


async def test_nothing_after_the_body_is_timed() -> None:
    wire = Wire({"type": "http.request", "body": b"{}", "more_body": False})
    deadline = BodyDeadline(wire.receive, wire.send, refuse, seconds=0)  # already past
    await deadline.receive()
    waiting = asyncio.ensure_future(deadline.receive())  # a long poll listening for a hang-up
    for _ in range(5):  # a timed read would have failed at its first turn of the loop
        await asyncio.sleep(0)
    assert not waiting.done()
    wire.incoming.put_nowait({"type": "http.disconnect"})
    assert (await waiting)["type"] == "http.disconnect" and wire.sent == []


@pytest.mark.parametrize(("headers", "expected"), [
    ([], False), ([(b"content-length", b"0")], False), ([(b"content-length", b"12")], True),
    ([(b"transfer-encoding", b"chunked")], True), ([(b"content-length", b"00")], False),
])
def test_only_a_request_that_says_a_body_follows_gets_a_deadline(
        headers: list[tuple[bytes, bytes]], expected: bool) -> None:
    assert has_body({"type": "http", "headers": headers}) is expected  # type: ignore[typeddict-item]
