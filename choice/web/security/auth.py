"""Browser sessions: a one-time code or the API token becomes an HttpOnly cookie.

`/login?code=…` (60 s, single use; what the portal and `choice open` put in the links they
open) or `/login?token=…` (Jupyter style, what `choice serve` prints) sets the cookie and
redirects to `next` with the secret gone from the URL. The cookie value is derived from
the API token, so it survives restarts and dies with the token. SameSite=Lax lets a link
clicked in a terminal or chat app land signed in; GETs change nothing and every write and
socket is Origin-checked, so Lax gives nothing away. `login_link` is the link that carries
a code (what the browser opener, `POST /api/login-links` and a URL elicitation hand out).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import math
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from litestar.connection import ASGIConnection
from litestar.datastructures import Cookie
from litestar.exceptions import NotAuthorizedException

from choice.core.config import Settings

COOKIE = "choice_session"
CODE_SECONDS = 60.0


def session_value(token: str) -> str:
    return hmac.new(token.encode(), b"choice browser session v1", hashlib.sha256).hexdigest()


@dataclass(frozen=True, slots=True)
class Access:
    """What a request proved: the connection's `auth`, set by `security.RequestGuard`."""

    token: bool
    """It sent `Authorization: Bearer <the API token>`."""
    session: bool
    """It carries the session cookie of a signed-in browser."""


class Credentials:
    """The API token and the session cookie derived from it. The app factory makes one and
    hands it to the request guard (which sets each request's `Access`) and, through
    dependency injection, to the sign-in handlers."""

    def __init__(self, token: str) -> None:
        self.token = token
        self._session = session_value(token)

    def token_matches(self, given: str) -> bool:
        return hmac.compare_digest(given.strip().encode(), self.token.encode())

    def session_cookie(self) -> Cookie:
        return Cookie(key=COOKIE, value=self._session, httponly=True, samesite="lax",
                      path="/", max_age=30 * 86_400)

    def access(self, connection: ASGIConnection[Any, Any, Any, Any]) -> Access:
        scheme, _sep, given = connection.headers.get("authorization", "").partition(" ")
        cookie = connection.cookies.get(COOKIE, "")
        return Access(token=scheme.lower() == "bearer" and self.token_matches(given),
                      session=hmac.compare_digest(cookie.encode(), self._session.encode()))


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

    A code is signed with a key derived from the API token, so every instance that shares
    the token checks it without a lookup (a browser may land on any of them); `spend`
    records its nonce in the database when it is redeemed, so it signs in only once.
    """

    def __init__(self, token: str, spend: Spend, clock: Callable[[], float] = time.time) -> None:
        self._key = hmac.new(token.encode(), CODE_KEY_CONTEXT, hashlib.sha256).digest()
        self._spend = spend
        self._clock = clock

    def issue(self, seconds: float = CODE_SECONDS) -> str:
        """A new code, good once for `seconds` (a link handed to an MCP client to open
        lives as long as the question it leads to: the human may click it much later)."""
        expires = math.ceil(self._clock() + seconds)
        body = expires.to_bytes(_EXPIRY, "big") + secrets.token_bytes(_NONCE)
        return base64.urlsafe_b64encode(body + self._mac(body)).decode().rstrip("=")

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
        return hmac.new(self._key, body, hashlib.sha256).digest()[:_MAC]


def login_link(settings: Settings, codes: LoginCodes, path: str, seconds: float = CODE_SECONDS,
               base: str | None = None) -> str:
    """A one-time sign-in link that lands on `path`. `path` is quoted: a `&`, a space or a
    tab in it must not reshape the link. `base`: another origin than the portal's own (its
    public URL, for a link opened elsewhere)."""
    return (f"{base or settings.base_url}/login?code={codes.issue(seconds)}"
            f"&next={quote(path, safe='/')}")
