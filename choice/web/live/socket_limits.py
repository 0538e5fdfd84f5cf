"""What one socket, one participant link and one signed-in browser may hold open.

The portal's pages never send on their sockets; a socket still has to read, or it would
not hear the page leave. Whatever arrives is read and dropped (`read_until_gone`), and a
message over `INBOUND_BYTES` closes the socket with 1009. The server refuses such a frame
before buffering it (`choice serve` sets uvicorn's `ws_max_size` to the same figure), but an
ASGI server started another way hands the app whole messages up to its own limit (uvicorn's
default is 16 MiB): the check here then bounds what one socket can keep sending, not the
first frame, which is why the README asks for `--ws-max-size` there.

`HandshakeLimit` bounds how often one link opens a socket: past the limit a handshake is
refused before anything is read for it (no lookup of the link). `SocketLimit` counts open
sockets per key (a participant's link, the owner's session) and,
past its limit, closes the oldest: a reload or a new tab always gets through, and a link
shared with a crowd (or a script) holds at most `LINK_SOCKETS`. The closed page hears
`REPLACED` and does not reconnect.

Must not decide who may connect (the handlers and `security` do) or what is pushed.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from litestar import WebSocket
from litestar.exceptions import WebSocketDisconnect
from msgspec import Struct, field

INBOUND_BYTES = 4 * 1024
"""The largest message a page's socket takes (ours send none: a few KiB covers a ping a
proxy or an extension might add)."""
LINK_SOCKETS = 8
"""Open pages per participant link: a person's tabs and devices, with room to spare."""
SESSION_SOCKETS = 1024
"""Open tabs per signed-in session. Only the owner gets one; the bound is for a leaked
cookie or a runaway script, not for a person (the reliability suite holds 1,000 countdown
sockets on one session); at the bound, idle sockets' memory stays well within the
portal's budget (`bench/web_bench.py` measures a socket's)."""
TOO_BIG = 1009
"""RFC 6455's "message too big"."""
LINK_HANDSHAKES = 12
HANDSHAKE_WINDOW = 10.0
"""New sockets one participant link may open in `HANDSHAKE_WINDOW` seconds: all its pages
(`LINK_SOCKETS`) reconnecting at once after a restart fit, with room for a few reloads; a script
reconnecting each time its oversized message is refused does. Measured with
`bench/abuse_bench.py` (25 links reconnecting in a loop): with 30 a minute the links spent
their budget in the first seconds and the owner's page waited behind them then."""
REPLACED = 4409
"""Closed for a newer page of the same link or session: the page stops, it does not
reconnect (it would close the next oldest, and so on)."""


class Held(Struct, eq=False):
    """One open socket under a `SocketLimit`."""

    wake: Callable[[], None]
    """Wakes the socket's send loop, which then sees `replaced` and closes with `REPLACED`."""
    replaced: bool = False


class SocketLimit(Struct):
    """Open sockets per key, oldest first; past `most`, the oldest is woken to close."""

    most: int
    _held: dict[str, list[Held]] = field(default_factory=dict)

    def count(self, key: str) -> int:
        return len(self._held.get(key, ()))

    @contextlib.contextmanager
    def hold(self, key: str, wake: Callable[[], None]) -> Iterator[Held]:
        held = Held(wake)
        open_now = self._held.setdefault(key, [])
        open_now.append(held)
        while len(open_now) > self.most:
            oldest = open_now.pop(0)
            oldest.replaced = True
            oldest.wake()
        try:
            yield held
        finally:
            if held in open_now:
                open_now.remove(held)
            if not open_now and self._held.get(key) is open_now:
                del self._held[key]


def wake_with_none(queue: asyncio.Queue[Any]) -> None:
    """Put `None` (the send loops' "stop and look why") on a bounded queue, making room by
    dropping the oldest item if it is full: the loop is about to close anyway."""
    if queue.full():
        queue.get_nowait()
    queue.put_nowait(None)


def message_size(message: Mapping[str, Any]) -> int:
    """The bytes of an ASGI `websocket.receive` message, without encoding a huge text."""
    if message.get("bytes") is not None:
        return len(message["bytes"])
    text = message.get("text") or ""
    if len(text) > INBOUND_BYTES:  # a character is at least one byte
        return len(text)
    return len(text.encode())


async def read_until_gone(socket: WebSocket[Any, Any, Any], wake: asyncio.Queue[Any]) -> None:
    """Read (and drop) what the page sends until it goes away, then wake the send loop. A
    message over `INBOUND_BYTES` closes the socket with 1009 first."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        while True:
            message = await socket.receive()
            if message["type"] != "websocket.receive":
                break
            if message_size(message) > INBOUND_BYTES:
                await socket.close(code=TOO_BIG,
                                   reason=f"messages are at most {INBOUND_BYTES} bytes")
                break
    wake_with_none(wake)


class HandshakeLimit:
    """New sockets per key (a participant's link) in a sliding window. Only keys that were
    let in are counted (a made-up link costs its lookup, and is never remembered), so
    what this holds is bounded by the links that exist."""

    def __init__(self, most: int, window: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.most, self.window, self.clock = most, window, clock
        self._recent: dict[str, deque[float]] = {}

    def allows(self, key: str) -> bool:
        window = self._recent.get(key)
        if window is None:
            return True
        current = self.clock()
        while window and window[0] <= current - self.window:
            window.popleft()
        if not window:
            del self._recent[key]
            return True
        return len(window) < self.most

    def took(self, key: str) -> None:
        """A socket of `key` was let in."""
        self._recent.setdefault(key, deque()).append(self.clock())
