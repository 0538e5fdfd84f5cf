"""`web/security/guest_budget.py`: participants' requests are served a few at a time, a
socket gives its turn back at its handshake, a body is read before the turn is taken (a slow
client cannot sit on one), and past the queue's bound a request is refused at once."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from choice.web.security.guest_budget import TRY_AGAIN_LATER, GuestBudget, is_guest

BOUND = 5.0
"""Seconds an awaited event is given before the test fails."""


class Wire:
    """One connection's side: what the app may receive, and what it sent."""

    def __init__(self, *messages: dict[str, Any]) -> None:
        self.incoming: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        for message in messages:
            self.incoming.put_nowait(message)
        self.sent: list[dict[str, Any]] = []
        self.reads = 0

    async def receive(self) -> Any:
        self.reads += 1
        return await self.incoming.get()

    async def send(self, message: Any) -> None:
        self.sent.append(dict(message))


class HeldApp:
    """An app that records who is being served and, for a socket, accepts it at once; each
    call then waits until the test lets it finish."""

    def __init__(self) -> None:
        self.serving: list[str] = []
        self.bodies: dict[str, bytes] = {}
        self.finish: dict[str, asyncio.Event] = {}
        self.started = asyncio.Condition()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        name = scope["path"]
        self.finish[name] = asyncio.Event()
        if scope["type"] == "websocket":
            await send({"type": "websocket.accept"})
        else:
            self.bodies[name] = (await receive()).get("body", b"")
        async with self.started:
            self.serving.append(name)
            self.started.notify_all()
        await self.finish[name].wait()

    async def until_serving(self, name: str) -> None:
        async with self.started:
            await asyncio.wait_for(self.started.wait_for(lambda: name in self.serving), BOUND)


def http(path: str) -> Any:
    return {"type": "http", "path": path, "method": "POST", "headers": []}


def ws(path: str) -> Any:
    return {"type": "websocket", "path": path, "headers": []}


def body(data: bytes = b"{}") -> dict[str, Any]:
    return {"type": "http.request", "body": data, "more_body": False}


async def refuse_busy(send: Any) -> None:
    await send({"type": "http.response.start", "status": 503,
                "headers": [(b"retry-after", b"1")]})
    await send({"type": "http.response.body", "body": b"busy", "more_body": False})


async def settle() -> None:
    """Let every task that can run, run (what the budget does takes no real time)."""
    for _ in range(20):
        await asyncio.sleep(0)


async def test_participants_are_served_one_turn_at_a_time_in_order() -> None:
    budget, app = GuestBudget(refuse_busy, at_once=1, most_waiting=8), HeldApp()
    first = asyncio.ensure_future(budget.serve(app, http("/api/d/a"), Wire(body()).receive,
                                               Wire().send))
    await app.until_serving("/api/d/a")
    second = asyncio.ensure_future(budget.serve(app, http("/api/d/b"), Wire(body()).receive,
                                                Wire().send))
    await settle()
    assert app.serving == ["/api/d/a"] and budget.waiting == 1  # b waits for a's turn
    app.finish["/api/d/a"].set()
    await asyncio.wait_for(first, BOUND)
    await app.until_serving("/api/d/b")
    assert budget.waiting == 0
    app.finish["/api/d/b"].set()
    await asyncio.wait_for(second, BOUND)


async def test_a_body_is_read_before_the_turn_and_handed_to_the_app_whole() -> None:
    budget, app = GuestBudget(refuse_busy, at_once=1, most_waiting=8), HeldApp()
    holder = asyncio.ensure_future(budget.serve(app, http("/d/a"), Wire(body()).receive,
                                                Wire().send))
    await app.until_serving("/d/a")
    slow = Wire()  # its body has not arrived: it must not hold a place in the turns
    waiting = asyncio.ensure_future(budget.serve(app, http("/d/slow"), slow.receive,
                                                 Wire().send))
    await settle()
    assert slow.reads == 1 and budget.waiting == 0
    slow.incoming.put_nowait({"type": "http.request", "body": b"hel", "more_body": True})
    slow.incoming.put_nowait({"type": "http.request", "body": b"lo", "more_body": False})
    await settle()
    assert budget.waiting == 1  # arrived whole: now it queues
    app.finish["/d/a"].set()
    await app.until_serving("/d/slow")
    assert app.bodies["/d/slow"] == b"hel"  # the app reads the replayed messages in order
    app.finish["/d/slow"].set()
    await asyncio.wait_for(asyncio.gather(holder, waiting), BOUND)


async def test_a_socket_gives_its_turn_back_once_its_handshake_is_answered() -> None:
    budget, app = GuestBudget(refuse_busy, at_once=1, most_waiting=8), HeldApp()
    socket_wire = Wire()
    live = asyncio.ensure_future(budget.serve(app, ws("/ws/d/a"), socket_wire.receive,
                                              socket_wire.send))
    await app.until_serving("/ws/d/a")
    page = asyncio.ensure_future(budget.serve(app, http("/d/b"), Wire(body()).receive,
                                              Wire().send))
    await app.until_serving("/d/b")  # while the socket is still open
    assert socket_wire.sent == [{"type": "websocket.accept"}]
    app.finish["/d/b"].set()
    app.finish["/ws/d/a"].set()
    await asyncio.wait_for(asyncio.gather(live, page), BOUND)


async def test_past_the_queue_bound_a_request_is_refused_at_once() -> None:
    budget, app = GuestBudget(refuse_busy, at_once=1, most_waiting=1), HeldApp()
    holder = asyncio.ensure_future(budget.serve(app, http("/d/a"), Wire(body()).receive,
                                                Wire().send))
    await app.until_serving("/d/a")
    queued = asyncio.ensure_future(budget.serve(app, http("/d/b"), Wire(body()).receive,
                                                Wire().send))
    await settle()
    assert budget.waiting == 1
    turned_away = Wire(body())
    await asyncio.wait_for(budget.serve(app, http("/d/c"), turned_away.receive,
                                        turned_away.send), BOUND)
    assert [m.get("status") for m in turned_away.sent] == [503, None]
    assert (b"retry-after", b"1") in turned_away.sent[0]["headers"]
    socket_wire = Wire()
    await asyncio.wait_for(budget.serve(app, ws("/ws/d/c"), socket_wire.receive,
                                        socket_wire.send), BOUND)
    assert socket_wire.sent == [{"type": "websocket.close", "code": TRY_AGAIN_LATER,
                                 "reason": "busy"}]
    assert "/d/c" not in app.serving and "/ws/d/c" not in app.serving
    app.finish["/d/a"].set()
    await app.until_serving("/d/b")
    app.finish["/d/b"].set()
    await asyncio.wait_for(asyncio.gather(holder, queued), BOUND)


async def test_a_client_gone_before_its_turn_is_not_served() -> None:
    budget, app = GuestBudget(refuse_busy, at_once=1, most_waiting=8), HeldApp()
    gone = Wire({"type": "http.request", "body": b"{", "more_body": True},
                {"type": "http.disconnect"})
    await asyncio.wait_for(budget.serve(app, http("/api/d/a"), gone.receive, gone.send), BOUND)
    assert app.serving == [] and gone.sent == []


@pytest.mark.parametrize(("path", "guest"), [
    ("/d/abc", True), ("/api/d/abc/vote", True), ("/ws/d/abc", True),
    ("/choice/abc", False), ("/api/interactions", False), ("/ws/choice/abc", False),
    ("/ws/portal", False), ("/dashboard", False), ("/api/decisions", False), ("/", False),
])
def test_only_participant_links_take_turns(path: str, guest: bool) -> None:
    assert is_guest(http(path)) is guest
