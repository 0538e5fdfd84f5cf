"""Browser sessions: a one-time code or the API token becomes an HttpOnly cookie.

`/login?code=…` (60 s, single use; what the portal and `choice open` put in the links they
open) or `/login?token=…` (Jupyter style, what `choice serve` prints) sets the cookie and
redirects to `next` with the secret gone from the URL. The cookie value is derived from
the API token, so it survives restarts and dies with the token. SameSite=Lax lets a link
clicked in a terminal or chat app land signed in; GETs change nothing and every write and
socket is Origin-checked, so Lax gives nothing away.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from typing import Any

from litestar.connection import ASGIConnection
from litestar.datastructures import Cookie
from litestar.exceptions import NotAuthorizedException

COOKIE = "choice_session"
CODE_SECONDS = 60.0


def session_value(token: str) -> str:
    return hmac.new(token.encode(), b"choice browser session v1", hashlib.sha256).hexdigest()


def session_cookie(token: str) -> Cookie:
    return Cookie(key=COOKIE, value=session_value(token), httponly=True, samesite="lax",
                  path="/", max_age=30 * 86_400)


def has_session(connection: ASGIConnection[Any, Any, Any, Any]) -> bool:
    given = connection.cookies.get(COOKIE, "")
    expected = session_value(connection.app.state.token)
    return hmac.compare_digest(given.encode(), expected.encode())


def token_matches(connection: ASGIConnection[Any, Any, Any, Any], given: str) -> bool:
    return hmac.compare_digest(given.strip().encode(), connection.app.state.token.encode())


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


class LoginCodes:
    """One-time sign-in codes: 60 seconds, single use, kept in memory only."""

    def __init__(self) -> None:
        self._codes: dict[str, float] = {}

    def issue(self) -> str:
        current = time.monotonic()
        self._codes = {c: t for c, t in self._codes.items() if t > current}
        code = secrets.token_urlsafe(24)
        self._codes[code] = current + CODE_SECONDS
        return code

    def redeem(self, code: str) -> bool:
        expires = self._codes.pop(code, None)
        return expires is not None and expires > time.monotonic()
