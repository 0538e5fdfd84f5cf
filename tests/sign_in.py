"""The owner's browser session for tests, made the supported way: `GET /login?token=...`,
as a script would, on a real portal (`owner_cookie`) or through an in-process app's
`TestClient` (`client_cookie`). Each returns the `Cookie` header a signed-in browser sends;
tests send it by hand, so a client keeps no cookie of its own between requests.

A real portal's session is made once per portal, token and host, and reused: tests that end
sessions (logout, a new token) make their own with `sign_in`.
"""

from __future__ import annotations

import functools
import http.client
import weakref
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import urlencode, urlsplit

from choice.web.security.sessions import COOKIE, SECURE_COOKIE


def cookie_from(set_cookie: list[str]) -> tuple[str, str]:
    """The session cookie's (name, value) among a response's `Set-Cookie` headers."""
    for header in set_cookie:
        parsed = SimpleCookie()
        parsed.load(header)
        for name in (COOKIE, SECURE_COOKIE):
            if name in parsed and parsed[name].value:
                return name, parsed[name].value
    raise AssertionError(f"no session cookie was set: {set_cookie}")


def sign_in(base_url: str, token: str, host: str | None = None) -> tuple[str, str]:
    """A new session on the portal at `base_url` (with `Host: host` if given, e.g. the public
    name behind a proxy): the session cookie's (name, value)."""
    address = urlsplit(base_url)
    conn = http.client.HTTPConnection(address.hostname or "127.0.0.1", address.port, timeout=10)
    try:
        conn.request("GET", f"/login?{urlencode({'token': token})}",
                     headers={"Host": host or address.netloc})
        reply = conn.getresponse()
        reply.read()
        assert reply.status == 303, f"/login?token= answered {reply.status}"
        return cookie_from(reply.headers.get_all("Set-Cookie") or [])
    finally:
        conn.close()


@functools.cache
def _shared(base_url: str, token: str, host: str | None) -> tuple[str, str]:
    return sign_in(base_url, token, host)


def owner_cookie(base_url: str, token: str, host: str | None = None) -> dict[str, str]:
    """The `Cookie` header of the owner's signed-in browser on a real portal."""
    name, value = _shared(base_url, token, host)
    return {"Cookie": f"{name}={value}"}


_CLIENTS: weakref.WeakKeyDictionary[Any, dict[str, str]] = weakref.WeakKeyDictionary()


def client_cookie(client: Any, token: str) -> dict[str, str]:
    """The same through a Litestar `TestClient` (once per client); the client itself keeps
    no cookie."""
    if client not in _CLIENTS:
        reply = client.get("/login", params={"token": token}, follow_redirects=False)
        assert reply.status_code == 303, reply.text
        name, value = cookie_from(reply.headers.get_list("set-cookie"))
        client.cookies.delete(name)
        _CLIENTS[client] = {"Cookie": f"{name}={value}"}
    return dict(_CLIENTS[client])
