"""Browser sessions: random, kept server-side, ended by logout or a new token; their
lifetime slides.

A sign-in (`pages/login.py`) makes a random id (256 bits) and sends it as the cookie; the
database keeps only HMAC(key, id), the key derived from the API token. So a stolen copy of
the database holds no cookie, every instance on one database knows every session, and a new
token ends them all at once (nothing stored matches any more). A session ends 30 days after
it was last used: use moves that end forward, written at most every 5 minutes rather than a
write per request, and the cookie's Max-Age is renewed with it (`auth.Credentials.renewal`).

The cookie is HttpOnly, SameSite=Lax and Path=/. For a request for the public host of an
https `CHOICE_PUBLIC_URL` it is `__Host-choice_session` and Secure, so the browser never
sends it over plain http; anywhere else (loopback, a plain-http name) it is `choice_session`
without Secure, which not every client sends back over http://127.0.0.1 (Python's cookie
jar does not: docs/internals.md#cookies-over-plain-http). Each host reads only its own name.

Owns the cookie and the session's rules. The rows are `store/sessions.py`'s; who is let in
(token or session) is `auth.py`'s.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
from collections.abc import Callable
from urllib.parse import urlsplit

from litestar.datastructures import Cookie
from msgspec import Struct

from choice.store import Store
from choice.store.sessions import end_session, find_session, open_session, session_seen

COOKIE = "choice_session"
SECURE_COOKIE = f"__Host-{COOKIE}"
LIFETIME = 30 * 86_400.0
"""A session ends this long after it was last used."""
REFRESH_SECONDS = 300.0
"""Use is written down at most this often per session: the end slides by whole steps of it."""
KEEP = 1_000
"""Live sessions kept; a sign-in beyond that ends the one unused longest."""
KEY_CONTEXT = b"choice browser session v2"
SHAPE = re.compile(r"[A-Za-z0-9_-]{43}")
"""What `secrets.token_urlsafe(32)` makes: anything else is no session, without a lookup."""


def session_key(token: str) -> bytes:
    return hmac.new(token.encode(), KEY_CONTEXT, hashlib.sha256).digest()


def stored_hash(key: bytes, value: str) -> str:
    """What the database keeps of a session id."""
    return hmac.new(key, value.encode(), hashlib.sha256).hexdigest()


class Check(Struct, frozen=True):
    """What a request's cookie turned out to be."""

    live: bool
    renewed: bool = False
    """Its use was just written down: the response renews the cookie's Max-Age."""
    member_id: str | None = None
    """Team mode: the member it signed in (None: the owner, or no live session)."""
    admin: bool = False
    """Team mode: that member is an admin."""


class Sessions:
    def __init__(self, store: Store, token: Callable[[], str], public_url: str | None,
                 clock: Callable[[], float] = time.time) -> None:
        self._store = store
        self._token = token
        self._clock = clock
        self._keyed: tuple[str, bytes] = ("", b"")
        parts = urlsplit(public_url) if public_url else None
        self._secure_host = (parts.hostname or None) if parts and parts.scheme == "https" else None

    def _key(self) -> bytes:
        token = self._token()
        if self._keyed[0] != token:  # the token was rotated: every session ends with it
            self._keyed = (token, session_key(token))
        return self._keyed[1]

    # -- the cookie --------------------------------------------------------------------------
    def secure(self, host: str) -> bool:
        """Whether a request with this `Host` came for the https public URL."""
        return (self._secure_host is not None
                and urlsplit(f"//{host.strip()}").hostname == self._secure_host)

    def cookie_name(self, host: str) -> str:
        return SECURE_COOKIE if self.secure(host) else COOKIE

    def cookie(self, host: str, value: str) -> Cookie:
        return Cookie(key=self.cookie_name(host), value=value, httponly=True, samesite="lax",
                      path="/", max_age=int(LIFETIME), secure=self.secure(host))

    def cleared(self, host: str) -> Cookie:
        """The cookie a browser must drop (logout): same name and attributes, no value."""
        return Cookie(key=self.cookie_name(host), value="", httponly=True, samesite="lax",
                      path="/", max_age=0, secure=self.secure(host))

    # -- the sessions ------------------------------------------------------------------------
    async def begin(self, member_id: str | None = None) -> str:
        """A new session (for `member_id` in team mode; the owner's without); returns the
        cookie's value (the only copy of the id)."""
        value = secrets.token_urlsafe(32)
        await self._store.write(open_session, self._store.repo, stored_hash(self._key(), value),
                                self._clock(), LIFETIME, KEEP, member_id)
        return value

    async def check(self, value: str) -> Check:
        if not SHAPE.fullmatch(value):
            return Check(live=False)
        key, now = stored_hash(self._key(), value), self._clock()
        found = await self._store.read(find_session, self._store.engine, key, now)
        if found is None:
            return Check(live=False)
        if now - found.last_seen_at < REFRESH_SECONDS:
            return Check(live=True, member_id=found.member_id, admin=found.admin)
        live = await self._store.write(session_seen, self._store.repo, key, now, LIFETIME)
        return Check(live=live, renewed=live, member_id=found.member_id if live else None,
                     admin=live and found.admin)

    async def end(self, value: str) -> None:
        if SHAPE.fullmatch(value):
            await self._store.write(end_session, self._store.repo,
                                    stored_hash(self._key(), value))
