"""Who may talk to the portal: allowed Host names, same-origin writes, the bearer token.

Localhost is not a trust boundary: a web page the user visits can reach 127.0.0.1. Host
checking stops DNS rebinding; the Origin / Sec-Fetch-Site check stops cross-site writes
and WebSocket hijacking; the bearer token keeps other local users' agents out of `/api`.
Behind a TLS proxy (`CHOICE_PUBLIC_URL=https://choice.example`) the public origin is ours
too, and the only origin that speaks for the public name.
"""

from __future__ import annotations

import contextlib
import functools
import json
from contextlib import AbstractContextManager
from typing import Any, Protocol
from urllib.parse import urlsplit

from litestar.connection import ASGIConnection
from litestar.datastructures import MutableScopeHeaders
from litestar.enums import ScopeType
from litestar.exceptions import NotAuthorizedException
from litestar.handlers.base import BaseRouteHandler
from litestar.types import ASGIApp, BeforeMessageSendHookHandler, Message, Receive, Scope, Send

from choice.core.variables import origin_of
from choice.web.security.auth import Access, Credentials
from choice.web.security.guest_budget import BUSY_MESSAGE, RETRY_SECONDS, GuestBudget, is_guest
from choice.web.security.origins import parse_origin
from choice.web.security.slow_clients import (
    TIMEOUT_MESSAGE,
    BodyDeadline,
    has_body,
)

SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
PROTECTIVE_HEADERS = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
    "cache-control": "no-store",
}
"""On every HTTP response that does not set its own (the static bundles set immutable
caching); an HTML response gets the pages' fuller CSP instead of this one."""
BEARER: list[dict[str, list[str]]] = [{"bearer": []}]
"""OpenAPI security requirement of the routes behind `bearer_token_guard`."""


def split_host(value: str) -> tuple[str, str | None]:
    """`localhost:8765` -> (`localhost`, `8765`); `[::1]:80` -> (`::1`, `80`)."""
    value = value.strip().lower()
    if value.startswith("["):
        host, _, rest = value[1:].partition("]")
        return host, rest[1:] if rest.startswith(":") else None
    if value.count(":") == 1:
        host, port = value.split(":")
        return host, port
    return value, None


class Counter(Protocol):
    """Counts requests in flight (`idle.Activity`: a portal started on demand stops when
    nothing has come for a while)."""

    def request(self) -> AbstractContextManager[None]: ...


class _Uncounted:
    def request(self) -> AbstractContextManager[None]:
        return contextlib.nullcontext()


class RequestGuard:
    """ASGI middleware: refuses a foreign Host (421) and cross-site writes (403), says what
    an accepted request proved (`connection.auth`, an `auth.Access`) for the guards, gives
    a request's body a deadline (`slow_clients`: 408 past it) and serves participants'
    requests in turns (`guest_budget`)."""

    def __init__(self, app: ASGIApp, allowed_hosts: tuple[str, ...], credentials: Credentials,
                 activity: Counter | None = None, public_url: str | None = None,
                 guests: GuestBudget | None = None) -> None:
        self.app = app
        self.allowed = {h.lower() for h in allowed_hosts}
        self.credentials = credentials
        self.activity: Counter = activity or _Uncounted()
        public = origin_of(public_url) if public_url else None
        self.public_origin = parse_origin(public) if public else None
        self.public_host = (urlsplit(public_url).hostname or None) if public_url else None
        # One budget per app, handed in: Litestar makes this middleware once per route.
        self.guests = guests or GuestBudget(refuse_busy)
    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        refusal = self.refusal(scope, headers)
        if refusal is None:
            scope["auth"] = await self.credentials.access(ASGIConnection(scope))  # for the guards
            app = functools.partial(self.guests.serve, self.app) if is_guest(scope) else self.app
            with self.activity.request():
                if scope["type"] == ScopeType.HTTP and has_body(scope):
                    deadline = BodyDeadline(receive, send, refuse_slow_body)
                    try:
                        await app(scope, deadline.receive, deadline.send)
                    except Exception:
                        # Answered 408 already: the handler's unwinding, however wrapped
                        # (`slow_clients`), is no error of the portal's.
                        if not deadline.timed_out:
                            raise
                else:
                    await app(scope, receive, send)
        elif scope["type"] == ScopeType.WEBSOCKET:
            await send({"type": "websocket.close", "code": 1008, "reason": refusal[2]})
        else:
            await send_error(send, *refusal)

    def refusal(self, scope: Scope, headers: dict[str, str]) -> tuple[int, str, str] | None:
        host, port = split_host(headers.get("host", ""))
        if host not in self.allowed or (port is not None and not port.isdigit()):
            return 421, "host_not_allowed", (
                "this Host is not one the portal answers to: use http://127.0.0.1 or "
                "http://localhost, or add the name to CHOICE_ALLOWED_HOSTS.")
        writes = scope["type"] == ScopeType.WEBSOCKET or scope.get("method", "GET") not in SAFE_METHODS
        if not writes:
            return None
        if headers.get("sec-fetch-site") == "cross-site":
            return 403, "cross_site", "cross-site requests may not change anything here."
        origin = headers.get("origin")
        if origin is None:
            return None  # not a browser (curl, agents, the CLI): the token decides
        if origin == "null" and headers.get("sec-fetch-site") == "same-origin":
            # Our pages send Referrer-Policy: no-referrer, so a plain form post says
            # `Origin: null`; the browser-set Sec-Fetch-Site still vouches for it.
            return None
        if not self.is_ours(origin, host, port or "80"):
            return 403, "origin_not_allowed", (
                "requests from another origin may not change anything here: use the "
                "portal's own pages, or call the API without an Origin header.")
        return None

    def is_ours(self, origin: str, host: str, port: str) -> bool:
        """`http://127.0.0.1:8765` against the Host we answered to. An Origin a browser
        would not write (`origins.parse_origin`: a path or a trailing `/`, a port with a
        leading zero, another scheme, `user@`) is never ours.

        The public origin (`CHOICE_PUBLIC_URL`) is ours whatever Host the proxy forwards:
        its `https://` and the proxy's port differ from what the portal listens on, so the
        port comparison would refuse our own pages. A request for the public name is ours
        only from that origin (not its `http://` twin, not another port)."""
        parsed = parse_origin(origin)
        if parsed is None:
            return False
        if self.public_origin is not None:
            if parsed == self.public_origin:
                return True
            if host == self.public_host:
                return False
        return parsed.host in self.allowed and str(parsed.port) == port


def protective_headers(page_policy: str) -> BeforeMessageSendHookHandler:
    """The app's one `before_send` hook: every response leaves with the protective headers,
    whoever answered (a handler, an exception handler, the router's own 404 and 405, the
    request guard's refusals, the MCP mount). HTML (pages, the sign-in page, fragments)
    gets `page_policy`, the CSP that lets the bundle and the hashed fallback run."""
    html_headers = {**PROTECTIVE_HEADERS, "content-security-policy": page_policy}

    async def add(message: Message, _scope: Scope) -> None:
        if message["type"] != "http.response.start":
            return
        headers = MutableScopeHeaders.from_message(message)
        html = (headers.get("content-type") or "").startswith("text/html")
        for name, value in (html_headers if html else PROTECTIVE_HEADERS).items():
            if name not in headers:
                headers[name] = value

    return add


async def send_error(send: Send, status: int, code: str, message: str,
                     field: str = "headers", *, close: bool = False,
                     retry_after: int | None = None) -> None:
    """A contract error body sent from plain ASGI code (before Litestar's handlers);
    `close` asks the server to close the connection after it."""
    body = json.dumps({"errors": [{"field": field, "code": code, "message": message}]})
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    if retry_after is not None:
        headers.append((b"retry-after", str(retry_after).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body.encode(), "more_body": False})


async def refuse_slow_body(send: Send) -> None:
    await send_error(send, 408, "body_timeout", TIMEOUT_MESSAGE, "body", close=True)


async def refuse_busy(send: Send) -> None:
    await send_error(send, 503, "busy", BUSY_MESSAGE, retry_after=RETRY_SECONDS)


async def bearer_token_guard(connection: ASGIConnection[Any, Any, Any, Any],
                             _handler: BaseRouteHandler) -> None:
    """Litestar guard for `/api`: `Authorization: Bearer <token>` from `<data dir>/token`,
    or a signed-in portal page's session cookie (same-origin, checked above).
    Async on purpose: Litestar runs a sync guard on a worker thread, on every request."""
    access: Access = connection.auth
    if not access.token and not access.session:
        raise NotAuthorizedException(
            "missing or wrong bearer token: send 'Authorization: Bearer <token>'; "
            "`choice token` prints it.",
            headers={"WWW-Authenticate": "Bearer"},
        )
