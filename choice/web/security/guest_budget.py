"""The participants' share of the portal: requests on participant links (`/d/…`, `/api/d/…`,
`/ws/d/…`) are served a few at a time, so however busy the links are, the owner's pages and
the agents' API find the portal free.

Each link has limits of its own (sockets, handshakes, comments, votes), but a team's links
at their limits together still outnumber the one owner: 25 links opening 100 sockets and
casting 250 votes in the same second queued the owner's page behind all of it
(`bench/abuse_bench.py`). Here a participant's request waits for one of `AT_ONCE` turns; the
owner's never does. A turn is taken once the request has fully arrived (its body is read
first, under the slow-client deadline), so a slow client cannot sit on one; a socket gives
its turn back once its handshake is answered. Past `MOST_WAITING` queued, a participant's
request is refused at once: 503 with `Retry-After` (a socket: closed with 1013, "try again
later"). Per instance, like the other socket and handshake limits.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from litestar.enums import ScopeType
from litestar.types import ASGIApp, Message, Receive, ReceiveMessage, Scope, Send

GUEST_PATHS = ("/d/", "/api/d/", "/ws/d/")
AT_ONCE = 2
"""Participant requests served at the same time. A page takes a few milliseconds, so 25
people opening theirs at once all have it within about 0.1 s."""
MOST_WAITING = 256
"""Participant requests queued for a turn before more are refused (10 per teammate of a
25-person team: far beyond what people do, a bound on what a script can pile up)."""
RETRY_SECONDS = 1
BODY_BUFFER = 64 * 1024
"""The most of a participant's body read before its turn (a comment is at most 16 KB as
UTF-8); a larger one is read by the handler in its turn, which refuses it."""
TRY_AGAIN_LATER = 1013
BUSY_MESSAGE = ("the portal is serving many participants right now: "
                f"try again in {RETRY_SECONDS} second.")


def is_guest(scope: Scope) -> bool:
    """Whether the request arrived on a participant's link."""
    return str(scope.get("path", "")).startswith(GUEST_PATHS)


class GuestBudget:
    """The turns participants' requests take. `serve(app, …)` is an ASGI call of `app`
    made in the request's turn; `refuse_busy` answers an HTTP request the queue has no
    room for."""

    def __init__(self, refuse_busy: Callable[[Send], Awaitable[None]], *,
                 at_once: int = AT_ONCE, most_waiting: int = MOST_WAITING) -> None:
        self._turns = asyncio.Semaphore(at_once)
        self._refuse_busy = refuse_busy
        self.most_waiting = most_waiting
        self.waiting = 0

    async def serve(self, app: ASGIApp, scope: Scope, receive: Receive, send: Send) -> None:
        arrived = [] if scope["type"] != ScopeType.HTTP else await _read_body(receive)
        if arrived and arrived[-1]["type"] == "http.disconnect":
            return  # gone before its turn: nobody to answer
        if self.waiting >= self.most_waiting:
            await self._refuse(scope, send)
            return
        self.waiting += 1
        try:
            await self._turns.acquire()
        finally:
            self.waiting -= 1
        turn = _Turn(self._turns)
        try:
            if scope["type"] == ScopeType.WEBSOCKET:
                await app(scope, receive, turn.ending_on_handshake(send))
            else:
                await app(scope, _replay(arrived, receive), send)
        finally:
            turn.end()

    async def _refuse(self, scope: Scope, send: Send) -> None:
        if scope["type"] == ScopeType.WEBSOCKET:
            await send({"type": "websocket.close", "code": TRY_AGAIN_LATER, "reason": "busy"})
        else:
            await self._refuse_busy(send)


class _Turn:
    """One request's turn, given back once (at its socket's handshake, or when it ends)."""

    def __init__(self, turns: asyncio.Semaphore) -> None:
        self._turns = turns
        self._ended = False

    def end(self) -> None:
        if not self._ended:
            self._ended = True
            self._turns.release()

    def ending_on_handshake(self, send: Send) -> Send:
        async def sent(message: Message) -> None:
            if message["type"] in ("websocket.accept", "websocket.close"):
                self.end()
            await send(message)
        return sent


async def _read_body(receive: Receive) -> list[ReceiveMessage]:
    """The request's body messages, up to `BODY_BUFFER` bytes (or a disconnect)."""
    arrived: list[ReceiveMessage] = []
    size = 0
    while size <= BODY_BUFFER:
        message = await receive()
        arrived.append(message)
        if message["type"] != "http.request" or not message.get("more_body", False):
            break
        size += len(message.get("body", b""))
    return arrived


def _replay(arrived: list[ReceiveMessage], receive: Receive) -> Receive:
    """`receive` that hands out what was read before the turn, then reads on."""
    pending = list(arrived)

    async def replayed() -> ReceiveMessage:
        return pending.pop(0) if pending else await receive()
    return replayed
