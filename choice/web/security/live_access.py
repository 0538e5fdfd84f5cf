"""Whether an open socket or event stream may go on: what let it in (its token or its
session) is checked again while it stays open, so a sign-out, a revoked token, an admin
ending a member's access or (local mode) a new token ends it too, not only new requests.

The check is the one a request gets (`auth.Credentials.access`: a session or a member's
token is one database read, no cache, so every instance sharing the database agrees), made
at most every `CHECK_SECONDS` per connection: a socket's or a stream's loop asks `still_live`
whenever it wakes (a change to push, its re-sync, its keep-alive) and never sleeps longer
than `next_check`. A busy connection costs one read per `CHECK_SECONDS`, not one per message.

Owns the cadence and the comparison; the handlers decide how a connection ends (a socket
closes with "sign in first", 4401; a stream ends). An app the portal mounts and does not
write (the MCP SDK's `/mcp`) is told its client left (`disconnect_when_access_ends`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from litestar.connection import ASGIConnection
from litestar.types import Receive, ReceiveMessage

from choice.web.security.auth import Access, Credentials

CHECK_SECONDS = 5.0
"""How stale a connection's access may be: its socket or stream ends at most this long (and
one database read) after the session or token that opened it ended."""


class AccessWatch:
    """The access one open connection proved when it was let in, checked again at most
    every `every` seconds (on the running loop's clock)."""

    def __init__(self, credentials: Credentials, connection: ASGIConnection[Any, Any, Any, Any],
                 every: float = CHECK_SECONDS, clock: Callable[[], float] | None = None) -> None:
        self._credentials = credentials
        self._connection = connection
        auth = connection.scope.get("auth")
        self._proved = auth if isinstance(auth, Access) else Access(token=False, session=False)
        self._every = every
        self._clock = clock or asyncio.get_running_loop().time
        self.next_check = self._clock() + every
        """When (on `clock`) the next check is due: a loop waits no longer than this."""

    def seconds_to_check(self) -> float:
        return max(0.0, self.next_check - self._clock())

    async def still_live(self) -> bool:
        """False once the token or session that let the connection in no longer does (or
        now names another member); True without a lookup until a check is due."""
        if self._clock() < self.next_check:
            return True
        self.next_check = self._clock() + self._every
        now = await self._credentials.access(self._connection)
        proved = self._proved
        return now.member_id == proved.member_id and (
            (proved.token and now.token) or (proved.session and now.session))


def disconnect_when_access_ends(watch: AccessWatch, receive: Receive) -> Receive:
    """`receive` for a mounted ASGI app, which answers `http.disconnect` (the client left)
    once `watch` finds the access that let the request in gone: an app streaming a reply
    listens on `receive` for that, and ends its stream."""
    ended = False

    async def receiving() -> ReceiveMessage:
        nonlocal ended
        if ended:
            return {"type": "http.disconnect"}
        message = asyncio.ensure_future(receive())
        try:
            while True:
                done, _ = await asyncio.wait({message}, timeout=watch.seconds_to_check())
                if done:
                    return message.result()
                if not await watch.still_live():
                    ended = True
                    return {"type": "http.disconnect"}
        finally:  # the app stopped listening (its reply is complete), or access ended
            message.cancel()

    return receiving
