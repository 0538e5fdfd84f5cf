"""Clients too slow to be served: a request's body within `BODY_SECONDS`, or the connection
closes (a request's head is the reverse proxy's to time).

A client that trickles its request (slowloris) holds a connection, a buffer and, once its
head is in, a task, for as long as it likes: uvicorn (0.54) times out only an idle
keep-alive connection, never a request on its way in. The head cannot be timed from the
app (an ASGI app is called once the head is complete), so the reverse proxy in front of
the portal does it (`docs/operations/proxy.md`); the body is timed here, in the app
(`guards.BodyTime`), for whatever server runs the app: `BodyDeadline` wraps a request's
`receive`, and
when the body is not complete by its deadline the request is answered 408 with
`Connection: close` (the server then closes the connection) and the handler's read fails,
so the handler stops without answering a second time. That failure reaches `BodyTime`
wrapped (Litestar's exception middleware re-raises it as "caught after response started",
the MCP SDK's task group as an exception group), so `BodyTime` asks the deadline whether it
ran out (`timed_out`) rather than matching the exception: the access log's 408 line is all
a slow body leaves in the log.

Must not time anything after the body: a long poll, a server-sent event stream and an MCP
call wait on `receive` for the client to hang up, for as long as they run.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from litestar.exceptions import HTTPException
from litestar.types import Message, Receive, ReceiveMessage, Scope, Send

BODY_SECONDS = 30.0
"""From the end of the head to the end of the body. The largest body the portal takes
(`max_body_bytes`, 256 KiB) needs only ~70 kbit/s to arrive in time."""
TIMEOUT_MESSAGE = (f"the request body did not arrive within {BODY_SECONDS:.0f} seconds: "
                   "send it at once, with the request.")


class BodyTimedOut(HTTPException):
    """Raised into the handler whose body read ran out of time (the client was already
    answered 408): it unwinds the handler, whose own answer is then dropped."""

    status_code = 408


def has_body(scope: Scope) -> bool:
    """Whether the request says a body follows (a length above 0, or chunks)."""
    for name, value in scope["headers"]:
        if name == b"transfer-encoding" or (name == b"content-length" and value.strip(b"0 ")):
            return True
    return False


class BodyDeadline:
    """One request's `receive` and `send`, with a deadline for the body. `refuse` answers
    the request when the deadline passes before the response has started."""

    def __init__(self, receive: Receive, send: Send, refuse: Callable[[Send], Awaitable[None]],
                 seconds: float = BODY_SECONDS) -> None:
        self._receive, self._send, self._refuse = receive, send, refuse
        self._loop = asyncio.get_running_loop()
        self._deadline = self._loop.time() + seconds
        self._body_done = False
        self._started = False
        self._answered = False

    @property
    def timed_out(self) -> bool:
        """Whether the body ran out of time (and the request was answered 408, unless its
        response had started): whatever the handler raises from then on is its unwinding."""
        return self._answered

    async def receive(self) -> ReceiveMessage:
        if self._body_done:
            return await self._receive()
        try:
            async with asyncio.timeout_at(self._deadline):
                message = await self._receive()
        except TimeoutError:
            await self._time_out()
            raise BodyTimedOut(TIMEOUT_MESSAGE) from None
        if message["type"] != "http.request" or not message.get("more_body", False):
            self._body_done = True
        return message

    async def send(self, message: Message) -> None:
        if self._answered:
            return  # the 408 went out: whatever the handler answers after it is dropped
        if message["type"] == "http.response.start":
            self._started = True
        await self._send(message)

    async def _time_out(self) -> None:
        self._answered = True
        if not self._started:
            await self._refuse(self._send)
        # else a response is under way and cannot be replaced: dropping the rest leaves it
        # unfinished, and the server closes a connection whose response the app left so.
