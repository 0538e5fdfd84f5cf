"""Who may talk to the portal: allowed Host names, same-origin writes, the bearer token.

Localhost is not a trust boundary: a web page the user visits can reach 127.0.0.1. Host
checking stops DNS rebinding; the Origin / Sec-Fetch-Site check stops cross-site writes
and WebSocket hijacking; the bearer token keeps other local users' agents out of `/api`.
Behind a TLS proxy (`CHOICE_PUBLIC_URL=https://choice.example`) the public origin is ours
too, and the only origin that speaks for the public name.

One middleware per concern, in the order the app lists them: `HostCheck` (421),
`OriginCheck` (403), `Authentication` (Litestar's authentication middleware: the token and
the session become `connection.auth`, which the route guards read), `GuestTurns`
(participants' turns), `ActivityCount` (the idle exit) and `BodyTime` (a body's deadline);
`large_bodies.LargeBodies` comes after them. Their refusals are sent from plain ASGI code,
before any handler, as the contract's JSON errors (`send_error`).
"""

from __future__ import annotations

import json
from contextlib import AbstractContextManager
from typing import Any, Protocol
from urllib.parse import urlsplit

from litestar.connection import ASGIConnection
from litestar.datastructures import MutableScopeHeaders
from litestar.enums import ScopeType
from litestar.exceptions import NotAuthorizedException
from litestar.handlers.base import BaseRouteHandler
from litestar.middleware.authentication import (
    AbstractAuthenticationMiddleware,
    AuthenticationResult,
)
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


HOST_MESSAGE = ("this Host is not one the portal answers to: use http://127.0.0.1 or "
                "http://localhost, or add the name to CHOICE_ALLOWED_HOSTS.")
GUEST_OR_BUNDLE = [r"^/(api/|ws/)?d/", r"^/static/"]
"""Paths whose handlers never ask who the request is (participants' links carry their own
secret; the bundles are public): no session is looked up for them."""


def header(scope: Scope, name: bytes) -> str | None:
    """The header's last value (a repeated header counts as its last)."""
    found = None
    for key, value in scope["headers"]:
        if key == name:
            found = value
    return found.decode("latin-1") if found is not None else None


async def refuse(scope: Scope, send: Send, status: int, code: str, message: str) -> None:
    """A refusal before any handler: a socket is closed with 1008 (policy), a request gets
    the contract's JSON error."""
    if scope["type"] == ScopeType.WEBSOCKET:
        await send({"type": "websocket.close", "code": 1008, "reason": message})
    else:
        await send_error(send, status, code, message)


def is_connection(scope: Scope) -> bool:
    return scope["type"] in (ScopeType.HTTP, ScopeType.WEBSOCKET)


class HostCheck:
    """ASGI middleware: a Host the portal does not answer to is refused with 421 (DNS
    rebinding). Litestar's `AllowedHostsConfig` refuses with 400 and its own body; agents,
    the MCP SDK's own guard and the contract say 421 `host_not_allowed`, so this stays."""

    def __init__(self, app: ASGIApp, allowed_hosts: tuple[str, ...]) -> None:
        self.app = app
        self.allowed = {h.lower() for h in allowed_hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if is_connection(scope):
            host, port = split_host(header(scope, b"host") or "")
            if host not in self.allowed or (port is not None and not port.isdigit()):
                await refuse(scope, send, 421, "host_not_allowed", HOST_MESSAGE)
                return
        await self.app(scope, receive, send)


class OriginCheck:
    """ASGI middleware: a write (any method but GET, HEAD and OPTIONS) or a socket from
    another site is refused with 403 (cross-site writes, WebSocket hijacking). Runs after
    `HostCheck`: the Host it compares the Origin with is one the portal answers to."""

    def __init__(self, app: ASGIApp, allowed_hosts: tuple[str, ...],
                 public_url: str | None = None) -> None:
        self.app = app
        self.allowed = {h.lower() for h in allowed_hosts}
        public = origin_of(public_url) if public_url else None
        self.public_origin = parse_origin(public) if public else None
        self.public_host = (urlsplit(public_url).hostname or None) if public_url else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        refusal = self.refusal(scope) if is_connection(scope) else None
        if refusal is None:
            await self.app(scope, receive, send)
        else:
            await refuse(scope, send, 403, *refusal)

    def refusal(self, scope: Scope) -> tuple[str, str] | None:
        writes = scope["type"] == ScopeType.WEBSOCKET or scope.get("method", "GET") not in SAFE_METHODS
        if not writes:
            return None
        site = header(scope, b"sec-fetch-site")
        if site == "cross-site":
            return "cross_site", "cross-site requests may not change anything here."
        origin = header(scope, b"origin")
        if origin is None:
            return None  # not a browser (curl, agents, the CLI): the token decides
        if origin == "null" and site == "same-origin":
            # Our pages send Referrer-Policy: no-referrer, so a plain form post says
            # `Origin: null`; the browser-set Sec-Fetch-Site still vouches for it.
            return None
        host, port = split_host(header(scope, b"host") or "")
        if not self.is_ours(origin, host, port or "80"):
            return "origin_not_allowed", (
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


class Authentication(AbstractAuthenticationMiddleware):
    """Litestar's authentication middleware: what a request proved (`auth.Access`, the
    token and the session, the session looked up once) becomes `connection.auth`, which
    `bearer_token_guard` and `auth.session_guard` read. It refuses nothing itself: a route
    without a guard takes anyone past the Host and Origin checks. Participants' links and
    the bundles never ask, so their requests look nothing up."""

    def __init__(self, app: ASGIApp, credentials: Credentials) -> None:
        super().__init__(app, exclude=GUEST_OR_BUNDLE, exclude_http_methods=[])
        self.credentials = credentials

    async def authenticate_request(self, connection: ASGIConnection[Any, Any, Any, Any]
                                   ) -> AuthenticationResult:
        return AuthenticationResult(user=None, auth=await self.credentials.access(connection))


class GuestTurns:
    """ASGI middleware: participants' requests are served in turns (`guest_budget`)."""

    def __init__(self, app: ASGIApp, guests: GuestBudget) -> None:
        self.app = app
        # One budget per app, handed in: Litestar makes a middleware once per route.
        self.guests = guests

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if is_connection(scope) and is_guest(scope):
            await self.guests.serve(self.app, scope, receive, send)
        else:
            await self.app(scope, receive, send)


class ActivityCount:
    """ASGI middleware: counts the requests in flight for `idle` (a portal started on
    demand stops when nothing has come for a while)."""

    def __init__(self, app: ASGIApp, activity: Counter) -> None:
        self.app = app
        self.activity = activity

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not is_connection(scope):
            await self.app(scope, receive, send)
            return
        with self.activity.request():
            await self.app(scope, receive, send)


class BodyTime:
    """ASGI middleware: a request's body has a deadline (`slow_clients`: 408 past it)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP or not has_body(scope):
            await self.app(scope, receive, send)
            return
        deadline = BodyDeadline(receive, send, refuse_slow_body)
        try:
            await self.app(scope, deadline.receive, deadline.send)
        except Exception:
            # Answered 408 already: the handler's unwinding, however wrapped
            # (`slow_clients`), is no error of the portal's.
            if not deadline.timed_out:
                raise


def protective_headers(page_policy: str) -> BeforeMessageSendHookHandler:
    """The app's one `before_send` hook: every response leaves with the protective headers,
    whoever answered (a handler, an exception handler, the router's own 404 and 405, the
    request checks' refusals, the MCP mount). HTML (pages, the sign-in page, fragments)
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
    """Litestar guard for `/api`: `Authorization: Bearer <token>` from `<data dir>/token`
    (team mode: a member's personal agent token), or a signed-in portal page's session
    cookie (same-origin, checked above).
    Async on purpose: Litestar runs a sync guard on a worker thread, on every request."""
    access: Access = connection.auth
    if not access.token and not access.session:
        raise NotAuthorizedException(
            TEAM_TOKEN_MESSAGE if access.team else LOCAL_TOKEN_MESSAGE,
            headers={"WWW-Authenticate": "Bearer"},
        )


LOCAL_TOKEN_MESSAGE = ("missing or wrong bearer token: send 'Authorization: Bearer <token>'; "
                       "`choice token` prints it.")
TEAM_TOKEN_MESSAGE = ("missing, wrong or revoked bearer token: send 'Authorization: Bearer "
                      "<your agent token>'; make one on the portal's /settings/tokens page "
                      "(or POST /api/tokens while signed in).")
