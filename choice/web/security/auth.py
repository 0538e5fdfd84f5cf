"""Who a request is: the API token (agents) or a signed-in browser's session (people), and
the one-time codes that sign a browser in.

`/login?code=…` (60 s, single use; what the portal and `choice open` put in the links they
open) or `/login?token=…` (for scripts and tests: it is kept out of the logs) starts a
session (`sessions.py`: random, stored server-side, ended by `POST /logout` or a new token)
and redirects to `next` with the secret gone from the URL. SameSite=Lax lets a link clicked
in a terminal or chat app land signed in; GETs change nothing and every write and socket is
Origin-checked, so Lax gives nothing away. `login_link` is the link that carries a code
(what the browser opener, `POST /api/login-links` and a URL elicitation hand out).

The token is read from its file again whenever the file changes (`core.token.TokenFile`):
`choice token --rotate` ends the old token, its codes and its sessions without a restart.

In team mode the data dir's token is no API credential: a Bearer value is a member's
personal agent token (`member_tokens.py`, looked up in the database on every request), and
a session counts only when it names a member.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import math
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import quote

from litestar.connection import ASGIConnection
from litestar.datastructures import MutableScopeHeaders
from litestar.exceptions import NotAuthorizedException
from litestar.types import BeforeMessageSendHookHandler, Message, Scope
from msgspec import Struct

from choice.core.config import Settings
from choice.web.security.member_tokens import MemberTokens
from choice.web.security.sessions import Sessions

CODE_SECONDS = 60.0


class Access(Struct, frozen=True):
    """What a request proved: the connection's `auth`, set by `guards.Authentication`."""

    token: bool
    """It sent `Authorization: Bearer <the API token>` (team mode: a member's live token)."""
    session: bool
    """It carries the cookie of a live session (a signed-in browser)."""
    renewed: bool = False
    """The session's use was just written down: the response renews its cookie."""
    member_id: str | None = None
    """Team mode: the member the token or the session names (None: the owner, or nobody)."""
    team: bool = False
    """The portal runs in team mode (a refusal then says how a member makes a token)."""
    admin: bool = False
    """Team mode: the member is an admin (read with the token or session, on this request)."""


class Credentials:
    """The API token and the browser sessions. The app factory makes one and hands it to
    the authentication middleware (`guards.Authentication`: it sets each request's
    `Access`) and, through dependency injection, to the sign-in and logout handlers."""

    def __init__(self, token: Callable[[], str], sessions: Sessions,
                 member_tokens: MemberTokens | None = None) -> None:
        self._token = token
        self.sessions = sessions
        self.member_tokens = member_tokens
        """Team mode's agent tokens (None: local mode, where the data dir's token counts)."""

    @property
    def team_mode(self) -> bool:
        """Only a member's token or session counts (one the owner made before is none)."""
        return self.member_tokens is not None

    @property
    def token(self) -> str:
        return self._token()

    def token_matches(self, given: str) -> bool:
        return hmac.compare_digest(given.strip().encode(), self.token.encode())

    def session_of(self, connection: ASGIConnection[Any, Any, Any, Any]) -> str | None:
        """The value of this request's session cookie (the name depends on its host)."""
        host = connection.headers.get("host", "")
        return connection.cookies.get(self.sessions.cookie_name(host)) or None

    async def access(self, connection: ASGIConnection[Any, Any, Any, Any]) -> Access:
        scheme, _sep, given = connection.headers.get("authorization", "").partition(" ")
        bearer = given if scheme.lower() == "bearer" else None
        if self.member_tokens is not None:
            return await self._member_access(connection, bearer, self.member_tokens)
        token = bearer is not None and self.token_matches(bearer)
        value = self.session_of(connection)
        if value is None:
            return Access(token=token, session=False)
        check = await self.sessions.check(value)
        return Access(token=token, session=check.live, renewed=check.renewed,
                      member_id=check.member_id)

    async def _member_access(self, connection: ASGIConnection[Any, Any, Any, Any],
                             bearer: str | None, tokens: MemberTokens) -> Access:
        """Team mode: a member's token names its member; without one, the session's member
        (a session without a member, the owner's from before, is no sign-in)."""
        if bearer is not None and (held := await tokens.holder(bearer)) is not None:
            return Access(token=True, session=False, member_id=held.member_id, team=True,
                          admin=held.admin)
        value = self.session_of(connection)
        check = None if value is None else await self.sessions.check(value)
        if check is None or check.member_id is None:
            return Access(token=False, session=False, team=True)
        return Access(token=False, session=check.live, renewed=check.renewed,
                      member_id=check.member_id, team=True, admin=check.admin)

    def renewal(self) -> BeforeMessageSendHookHandler:
        """A `before_send` hook: a response to a request whose session use was just written
        down renews the cookie's Max-Age, so the browser keeps it as long as the session
        lives (unless the response sets the cookie itself, a sign-in or a logout, or may be
        cached: a static bundle, shared by a proxy, must never carry anyone's cookie)."""

        async def renew(message: Message, scope: Scope) -> None:
            access = scope.get("auth")
            if message["type"] != "http.response.start" or not isinstance(access, Access) \
                    or not access.renewed:
                return
            connection: ASGIConnection[Any, Any, Any, Any] = ASGIConnection(scope)
            value, host = self.session_of(connection), connection.headers.get("host", "")
            headers = MutableScopeHeaders.from_message(message)
            name = f"{self.sessions.cookie_name(host)}="
            if (value is None or "no-store" not in (headers.get("cache-control") or "")
                    or any(v.startswith(name) for v in headers.getall("set-cookie", []))):
                return
            headers.add("set-cookie", self.sessions.cookie(host, value).to_header(header=""))

        return renew


def has_session(connection: ASGIConnection[Any, Any, Any, Any]) -> bool:
    access: Access = connection.auth
    return access.session


def safe_next(target: str | None) -> str:
    """Only a path on this portal: never `//evil.example` or a full URL. Browsers drop tabs
    and newlines from a URL and read `\\` as `/`, so a path holding either is refused too
    (`/<tab>/evil.example` would otherwise become `//evil.example`)."""
    if (not target or not target.startswith("/") or target.startswith("//") or "\\" in target
            or any(ord(char) < 0x20 or ord(char) == 0x7F for char in target)):
        return "/"
    return target


class LoginRequired(NotAuthorizedException):
    """Raised for pages without a session: rendered as the sign-in page."""


async def session_guard(connection: ASGIConnection[Any, Any, Any, Any], _handler: Any) -> None:
    if not has_session(connection):
        raise LoginRequired("sign in first")


Spend = Callable[[str, float], Awaitable[bool]]
"""Record a code's nonce as redeemed until its expiry; False if it already was."""
CODE_KEY_CONTEXT = b"choice sign-in code v1"
_EXPIRY, _NONCE, _MAC = 8, 12, 16
"""A code's parts, in bytes: its expiry (epoch seconds), a random nonce, a truncated MAC."""


class LoginCodes:
    """One-time sign-in codes: 60 seconds unless asked otherwise, single use.

    A code is signed with a key derived from the API token (the current one: a rotated
    token's codes stop working), so every instance that shares the token checks it without
    a lookup (a browser may land on any of them); `spend` records its nonce in the database
    when it is redeemed, so it signs in only once.
    """

    def __init__(self, token: str | Callable[[], str], spend: Spend,
                 clock: Callable[[], float] = time.time) -> None:
        self._token = token if callable(token) else (lambda: token)
        self._spend = spend
        self._clock = clock

    def issue(self, seconds: float = CODE_SECONDS) -> str:
        """A new code, good once for `seconds` (a link handed to an MCP client to open
        lives as long as the question it leads to: the human may click it much later)."""
        return issue_code(self._token(), seconds, self._clock())

    async def redeem(self, code: str) -> bool:
        try:
            raw = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
        except (ValueError, TypeError):
            return False
        body, mac = raw[:_EXPIRY + _NONCE], raw[_EXPIRY + _NONCE:]
        if len(raw) != _EXPIRY + _NONCE + _MAC or not hmac.compare_digest(mac, self._mac(body)):
            return False
        expires = int.from_bytes(body[:_EXPIRY], "big")
        if expires <= self._clock():
            return False
        return await self._spend(body[_EXPIRY:].hex(), float(expires))

    def _mac(self, body: bytes) -> bytes:
        return _code_mac(self._token(), body)


def _code_mac(token: str, body: bytes) -> bytes:
    key = hmac.new(token.encode(), CODE_KEY_CONTEXT, hashlib.sha256).digest()
    return hmac.new(key, body, hashlib.sha256).digest()[:_MAC]


def issue_code(token: str, seconds: float, now: float) -> str:
    """A code signed with `token`'s key, good once until `now + seconds`: what
    `LoginCodes.issue` hands out, and what `choice serve` prints before its portal runs."""
    expires = math.ceil(now + seconds)
    body = expires.to_bytes(_EXPIRY, "big") + secrets.token_bytes(_NONCE)
    return base64.urlsafe_b64encode(body + _code_mac(token, body)).decode().rstrip("=")


def login_link(settings: Settings, codes: LoginCodes, path: str, seconds: float = CODE_SECONDS,
               base: str | None = None) -> str:
    """A one-time sign-in link that lands on `path`. `path` is quoted: a `&`, a space or a
    tab in it must not reshape the link. `base`: another origin than the portal's own (its
    public URL, for a link opened elsewhere). On a team server a member signs in with the
    provider, not with a code: the link is the page itself, on the public URL (the page
    sends a browser without a session through the provider and back)."""
    if settings.team_mode:
        return f"{base or settings.link_base}{quote(path, safe='/?=&')}"
    return (f"{base or settings.base_url}/login?code={codes.issue(seconds)}"
            f"&next={quote(path, safe='/')}")
