"""Waiting for an HTTP client only while it is still connected.

A blocking `?wait=` request holds a waiter in the service for up to 60 s. An agent that
gives up (its HTTP client timed out, its process was killed) closes the connection; without
this the portal would keep waiting for nobody until the window ends. Only the wait stops:
the interaction stays pending and the agent's next poll gets the answer.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine
from typing import Any, TypeVar

from litestar import Request
from litestar.exceptions import HTTPException

T = TypeVar("T")
CLIENT_CLOSED = 499
"""nginx's status for a request whose client left: nobody receives it."""


async def _hung_up(request: Request[Any, Any, Any]) -> None:
    """Return once the client has disconnected. The body is read by now (or there is none),
    so the next ASGI messages are an empty body, then `http.disconnect`."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


async def while_connected(request: Request[Any, Any, Any], waiting: Coroutine[Any, Any, T]) -> T:
    """The result of `waiting`, or, if the client disconnects first, `waiting` cancelled
    and an HTTP 499 that goes nowhere."""
    work = asyncio.ensure_future(waiting)
    hangup = asyncio.ensure_future(_hung_up(request))
    try:
        await asyncio.wait((work, hangup), return_when=asyncio.FIRST_COMPLETED)
    finally:
        hangup.cancel()
        if not work.done():
            work.cancel()
    if work.cancelled() or not work.done():
        with contextlib.suppress(asyncio.CancelledError):
            await work  # let the wait release its waiter before answering
        raise HTTPException(status_code=CLIENT_CLOSED, detail="the client closed the connection")
    return work.result()
