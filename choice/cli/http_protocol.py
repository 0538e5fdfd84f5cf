"""The HTTP protocol `choice serve` gives uvicorn: its own (httptools), plus a deadline for
each request's head.

uvicorn 0.54 times out an idle keep-alive connection (`timeout_keep_alive`) and nothing
else: a connection that sends nothing, or trickles its request line and headers a byte at a
time, stays open for good (400 of them held here, from one client). The app cannot help
(it is called once the head is complete), so the deadline lives in the protocol: it starts
when the connection opens, when a request begins and when a response ends (the next
request's head), and stops when the head is complete; past `HEADER_SECONDS` the connection
closes. The body's deadline is the app's own (`web/security/slow_clients.py`), so it also
holds under another server.

Only the parser's callbacks are overridden, each calling uvicorn's own; the lock pins the
versions, and `tests/security/test_slow_clients.py` checks the behaviour on a real server.
Without httptools (uvicorn's pure-Python h11 protocol) `PROTOCOL` is uvicorn's `auto`, and
the README's reverse proxy is what times the head.
"""

from __future__ import annotations

import asyncio
from typing import Any

from choice.web.security.slow_clients import HEADER_SECONDS

try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # pragma: no cover - httptools is in the lock (uvicorn[standard])
    HttpToolsProtocol = None  # type: ignore[assignment, misc]


if HttpToolsProtocol is not None:
    class HeadDeadlineProtocol(HttpToolsProtocol):
        """uvicorn's httptools protocol; a request's head must be in within `HEADER_SECONDS`."""

        head_seconds = HEADER_SECONDS
        _head_timer: asyncio.TimerHandle | None = None

        def _arm(self) -> None:
            self._disarm()
            self._head_timer = self.loop.call_later(self.head_seconds, self._head_too_slow)

        def _disarm(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_too_slow(self) -> None:
            self._head_timer = None
            if not self.transport.is_closing():
                self.transport.close()

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm()  # a fresh deadline for this request's head

        def on_headers_complete(self) -> None:
            self._disarm()  # before uvicorn hands the connection to a WebSocket, if it does
            super().on_headers_complete()

        def on_response_complete(self) -> None:
            next_is_in = bool(self.pipeline)  # its head is complete: uvicorn starts it now
            super().on_response_complete()
            if not next_is_in and self._head_timer is None and not self.transport.is_closing():
                self._arm()  # the next head (an idle connection closes sooner: keep-alive)

    PROTOCOL: Any = HeadDeadlineProtocol
else:  # pragma: no cover
    PROTOCOL = "auto"
