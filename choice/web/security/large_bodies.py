"""How many large request bodies the portal reads at once.

A few routes take bodies far above the app's limit (`max_body_bytes`): an answer with its
files as base64, one file for a draft, a question with its attachments. Each such body is
held in memory while it is read, parsed and stored (an answer's files as their bytes:
`web/api/streamed_answer.py`), so with nothing to stop them, twenty at once held twenty
times that. Here a request that announces a body larger than the app's limit (or sends one
chunked, of a size it does not say) on such a route waits for nothing: it takes one of
`AT_ONCE` places and its size out of `BYTES_AT_ONCE` (a chunked body: its route's limit), or
is answered at once with 503 and `Retry-After`, before a byte of its body is read (the
server discards the body that still arrives; it is never held). So two questions' files may
arrive together, or one answer of the largest size. Smaller bodies, and every route that
takes none, never queue here. Per instance.

The body's own limit stays Litestar's `request_max_body_size`: it is checked as the body
arrives, so an oversized body is refused (413) as soon as it crosses the limit.
"""

from __future__ import annotations

from litestar.enums import ScopeType
from litestar.types import ASGIApp, Receive, Scope, Send

from choice.contract.attachments import ANSWER_BODY_MAX
from choice.web.security.guards import send_error

AT_ONCE = 2
"""Large bodies read at the same time. Each holds what is parsed from it until it is
answered; two let one person's answer through while another is on its way."""
BYTES_AT_ONCE = ANSWER_BODY_MAX
"""The announced bytes of the large bodies read at the same time: one answer of the largest
size, which alone keeps the portal's memory growth near its target
(`bench/abuse_bench.py --attack bodies` measures it)."""
RETRY_SECONDS = 2
BUSY_MESSAGE = ("the portal is reading other large uploads right now: try again in "
                f"{RETRY_SECONDS} seconds, or attach the files one at a time "
                "(POST .../draft/files).")


def announced_size(scope: Scope) -> int | None:
    """The body's Content-Length; None when it comes chunked (or says nothing)."""
    for name, value in scope["headers"]:
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def is_chunked(scope: Scope) -> bool:
    return any(name == b"transfer-encoding" for name, _ in scope["headers"])


def route_limit(scope: Scope) -> int:
    """The body limit of the route the request was routed to (0 when it sets none)."""
    handler = scope.get("route_handler")
    limit = getattr(handler, "request_max_body_size", None)
    return limit if isinstance(limit, int) else 0


class LargeBodies:
    """ASGI middleware: a large body on a route that takes one is read only in one of
    `at_once` places; without a free place, 503 with `Retry-After`."""

    def __init__(self, app: ASGIApp, max_body_bytes: int, places: Places) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.places = places

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        size = self.large_size(scope)
        if size is None:
            await self.app(scope, receive, send)
            return
        if not self.places.take(size):
            await send_error(send, 503, "busy", BUSY_MESSAGE, "body",
                             retry_after=RETRY_SECONDS)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.places.give_back(size)

    def large_size(self, scope: Scope) -> int | None:
        """The size a large body takes from the places (at most its route's limit); None
        for a body the app's own limit bounds (413 past it) or a request without one."""
        if scope["type"] != ScopeType.HTTP:
            return None
        limit = route_limit(scope)
        if limit <= self.max_body_bytes:
            return None
        size = announced_size(scope)
        if size is None:
            return limit if is_chunked(scope) else None
        return min(size, limit) if size > self.max_body_bytes else None


class Places:
    """The places large bodies are read in, and the bytes they may announce together; one
    per app (Litestar makes a middleware instance per route, so they all share this)."""

    def __init__(self, at_once: int = AT_ONCE, bytes_at_once: int = BYTES_AT_ONCE) -> None:
        self.at_once = at_once
        self.bytes_at_once = bytes_at_once
        self.taken = 0
        self.bytes_taken = 0

    def take(self, size: int) -> bool:
        if self.taken >= self.at_once or self.bytes_taken + size > self.bytes_at_once:
            return False
        self.taken += 1
        self.bytes_taken += size
        return True

    def give_back(self, size: int) -> None:
        self.taken -= 1
        self.bytes_taken -= size
