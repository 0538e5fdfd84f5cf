"""Browser sessions: each sign-in is its own random session, stored server-side; logout
ends it and no other; a new token ends them all, with the old token and its sign-in codes;
an unused session runs out, a used one slides; the cookie is `Secure` with the `__Host-`
prefix only where the browser reaches the portal over https (the public URL), so a loopback
sign-in over plain http keeps working.

What a session opens is checked three ways each time (an owner page, an `/api` call, the
owner's socket), on a real portal behind a pretend TLS proxy (`CHOICE_PUBLIC_URL`).
"""

from __future__ import annotations

import json
import re
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from urllib.parse import urlencode

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect
from websockets.typing import Origin

from choice.web.security.sessions import (
    COOKIE,
    LIFETIME,
    SECURE_COOKIE,
    session_key,
    stored_hash,
)
from tests.portal_process import ROOT, PortalProcess
from tests.security.conftest import FORM, JSON, Reply, ask, bearer, send
from tests.sign_in import sign_in
from tests.tally import Seen, attacks

pytestmark = pytest.mark.slow

PUBLIC = "https://choice.example"
HOST = "choice.example"
TITLE = "Only the signed-in owner reads this"


@pytest.fixture(scope="module")
def portal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PortalProcess]:
    process = PortalProcess(tmp_path_factory.mktemp("sessions-portal"),
                            CHOICE_PUBLIC_URL=PUBLIC).start()
    yield process
    process.stop()


@pytest.fixture(scope="module")
def pending(portal: PortalProcess) -> str:
    return ask(portal, title=TITLE, timeout_seconds=3600)


def cookie(name_value: tuple[str, str]) -> dict[str, str]:
    return {"Cookie": f"{name_value[0]}={name_value[1]}"}


def socket_hears(portal: PortalProcess, iid: str, headers: dict[str, str],
                 host: str | None = None) -> bool:
    """Whether the owner's socket for `iid` sends its first message (the deadline) to a
    browser with these headers; a socket without a live session is closed with 4401."""
    origin = PUBLIC if host == HOST else portal.base_url
    uri = f"ws://{host or f'127.0.0.1:{portal.port}'}/ws/choice/{iid}"
    raw = socket.create_connection(("127.0.0.1", portal.port), timeout=5)
    try:
        with connect(uri, sock=raw, origin=Origin(origin), additional_headers=headers,
                     open_timeout=5) as live:
            try:
                return bool(json.loads(live.recv(timeout=5))["type"] == "deadline")
            except ConnectionClosed as closed:
                assert closed.rcvd is not None and closed.rcvd.code == 4401, closed
                return False
    finally:
        raw.close()


def opens(portal: PortalProcess, iid: str, headers: dict[str, str],
          host: str | None = None) -> dict[str, bool]:
    """What these headers open: the owner's page, the API, the owner's socket."""
    page = send(portal, "GET", f"/choice/{iid}", None, headers, host=host)
    api = send(portal, "GET", f"/api/interactions/{iid}/events", None, headers, host=host)
    return {"page": page.status == 200 and TITLE in page.text, "api": api.status == 200,
            "socket": socket_hears(portal, iid, headers, host)}


EVERYTHING = {"page": True, "api": True, "socket": True}
NOTHING = {"page": False, "api": False, "socket": False}


def refused_everywhere(seen: Seen, portal: PortalProcess, iid: str, headers: dict[str, str],
                       what: str, host: str | None = None) -> None:
    for where, opened in opens(portal, iid, headers, host).items():
        seen.refused_if(not opened, (what, where))


def logout(portal: PortalProcess, headers: dict[str, str], origin: str | None = None,
           host: str | None = None) -> Reply:
    same_site = {"Origin": origin or portal.base_url, "Sec-Fetch-Site": "same-origin"}
    return send(portal, "POST", "/logout", "", {**FORM, **same_site, **headers}, host=host)


def test_each_sign_in_is_a_random_session_that_a_restart_keeps(portal: PortalProcess,
                                                               pending: str) -> None:
    first, second = sign_in(portal.base_url, portal.token), sign_in(portal.base_url, portal.token)
    assert first[0] == second[0] == COOKIE and first[1] != second[1]
    assert portal.token not in first[1] + second[1]
    portal.stop()
    portal.start()
    for session in (first, second):
        assert opens(portal, pending, cookie(session)) == EVERYTHING


def test_logout_ends_that_session_and_no_other(portal: PortalProcess, pending: str) -> None:
    leaving, staying = sign_in(portal.base_url, portal.token), sign_in(portal.base_url, portal.token)
    reply = logout(portal, cookie(leaving))
    assert reply.status == 303 and reply.headers["Location"] == "/login"
    cleared = reply.headers["Set-Cookie"]
    assert cleared.startswith(f'{COOKIE}="";') and "Max-Age=0" in cleared, cleared
    with attacks("Sessions") as seen:
        refused_everywhere(seen, portal, pending, cookie(leaving), "a logged-out session")
        again = logout(portal, cookie(leaving))  # ending it twice is signing in nowhere
        seen.refused_if(again.status == 401 and "set-cookie" not in again.headers,
                        ("logout with an ended session", again.status))
    assert opens(portal, pending, cookie(staying)) == EVERYTHING


def test_logout_from_another_site_ends_nothing(portal: PortalProcess, pending: str) -> None:
    session = sign_in(portal.base_url, portal.token)
    with attacks("Sessions") as seen:
        for origin in ("https://evil.example", f"http://127.0.0.1:{portal.port + 1}", "null"):
            reply = send(portal, "POST", "/logout", "",
                         {**FORM, **cookie(session), "Origin": origin, "Sec-Fetch-Site": "cross-site"})
            seen.refused_if(reply.status == 403, (origin, reply.status))
        seen.unchanged(EVERYTHING, opens(portal, pending, cookie(session)))


def test_the_cookie_is_secure_with_the_host_prefix_only_for_the_public_https_host(
        portal: PortalProcess, pending: str) -> None:
    loopback = send(portal, "GET", f"/login?{urlencode({'token': portal.token})}")
    public = send(portal, "GET", f"/login?{urlencode({'token': portal.token})}", host=HOST)
    plain, secure = loopback.headers["Set-Cookie"], public.headers["Set-Cookie"]
    for header, name in ((plain, COOKIE), (secure, SECURE_COOKIE)):
        attributes = [part.strip() for part in header.split(";")]
        assert attributes[0].startswith(f"{name}=")
        assert {"HttpOnly", "Path=/", "SameSite=lax", f"Max-Age={int(LIFETIME)}"} <= set(attributes)
        assert not any(part.lower().startswith("domain") for part in attributes)  # __Host- rule
    assert "Secure" in secure.split("; ") and "Secure" not in plain.split("; ")

    link = send(portal, "POST", "/api/login-links", json.dumps({"next": "/"}),
                {**bearer(portal), **JSON}).json()["url"]
    by_code = send(portal, "GET", link.removeprefix(PUBLIC).removeprefix(portal.base_url),
                   host=HOST)
    assert by_code.headers["Set-Cookie"].startswith(f"{SECURE_COOKIE}=")
    assert "Secure" in by_code.headers["Set-Cookie"].split("; ")

    public_session = (SECURE_COOKIE, secure.split(";")[0].partition("=")[2])
    loopback_session = (COOKIE, plain.split(";")[0].partition("=")[2])
    assert opens(portal, pending, cookie(public_session), HOST) == EVERYTHING
    assert opens(portal, pending, cookie(loopback_session)) == EVERYTHING
    out = logout(portal, cookie(public_session), PUBLIC, HOST)
    assert out.headers["Set-Cookie"].startswith(f'{SECURE_COOKIE}="";')
    assert "Secure" in out.headers["Set-Cookie"].split("; ")
    with attacks("Sessions") as seen:
        # On the public host only the Secure cookie counts: one that could travel over http
        # (the loopback name) opens nothing there.
        refused_everywhere(seen, portal, pending, {"Cookie": f"{COOKIE}={loopback_session[1]}"},
                           "the plain cookie on the public host", HOST)
        refused_everywhere(seen, portal, pending, cookie(public_session),
                           "the public session after its logout", HOST)


def stored(portal: PortalProcess, session: tuple[str, str]) -> str:
    """The row of a session: what the database keeps of its id."""
    return stored_hash(session_key(portal.token), session[1])


def db_execute(portal: PortalProcess, sql: str, *args: object) -> None:
    db = sqlite3.connect(portal.data_dir / "choice.db", timeout=10)
    try:
        with db:
            db.execute(sql, args)
    finally:
        db.close()


def ends_of(portal: PortalProcess, session: tuple[str, str]) -> float:
    db = sqlite3.connect(f"file:{portal.data_dir / 'choice.db'}?mode=ro", uri=True)
    try:
        return float(db.execute("SELECT expires_at FROM browser_session WHERE id_hash = ?",
                                (stored(portal, session),)).fetchone()[0])
    finally:
        db.close()


def test_an_unused_session_runs_out_and_a_used_one_slides(portal: PortalProcess,
                                                         pending: str) -> None:
    unused, used = sign_in(portal.base_url, portal.token), sign_in(portal.base_url, portal.token)
    now = time.time()
    # `unused` was last seen thirty days and a minute ago; `used`, ten minutes ago.
    db_execute(portal, "UPDATE browser_session SET last_seen_at = ?, expires_at = ? "
               "WHERE id_hash = ?", now - LIFETIME - 60, now - 60, stored(portal, unused))
    db_execute(portal, "UPDATE browser_session SET last_seen_at = ?, expires_at = ? "
               "WHERE id_hash = ?", now - 600, now - 600 + LIFETIME, stored(portal, used))
    with attacks("Sessions") as seen:
        refused_everywhere(seen, portal, pending, cookie(unused), "a session unused for 30 days")
    assert opens(portal, pending, cookie(used)) == EVERYTHING
    assert ends_of(portal, used) >= now + LIFETIME  # seen again: thirty days from now


def test_a_used_session_renews_its_cookie_but_never_on_a_cacheable_response(
        portal: PortalProcess) -> None:
    session = sign_in(portal.base_url, portal.token)
    fresh = send(portal, "GET", "/", None, cookie(session))
    assert fresh.status == 200 and "set-cookie" not in fresh.headers  # no write per request
    bundle = re.search(r'src="(/static/bundle\.[^"]+\.js)"', fresh.text)
    assert bundle is not None, fresh.text[:500]

    def seen_long_ago() -> None:
        db_execute(portal, "UPDATE browser_session SET last_seen_at = last_seen_at - 600 "
                   "WHERE id_hash = ?", stored(portal, session))

    seen_long_ago()
    static = send(portal, "GET", bundle.group(1), None, cookie(session))
    assert static.status == 200 and "immutable" in static.headers["Cache-Control"]
    with attacks("Sessions") as seen:  # a proxy may keep it, and hand it to anyone
        seen.refused_if("set-cookie" not in static.headers, "the cookie on a cacheable bundle")
    seen_long_ago()
    renewed = send(portal, "GET", "/", None, cookie(session))
    assert renewed.headers["Set-Cookie"].startswith(f"{COOKIE}={session[1]};")
    assert f"Max-Age={int(LIFETIME)}" in renewed.headers["Set-Cookie"]


def rotate(portal: PortalProcess) -> str:
    done = subprocess.run([sys.executable, "-m", "choice.cli", "token", "--rotate"], cwd=ROOT,
                          env=portal.env, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_new_token_ends_every_session_its_codes_and_the_old_token(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    process = PortalProcess(tmp_path_factory.mktemp("rotating-portal")).start()
    try:
        old = process.token
        iid = ask(process, title=TITLE, timeout_seconds=3600)
        sessions = [sign_in(process.base_url, old) for _ in range(3)]
        code_link = send(process, "POST", "/api/login-links", json.dumps({"next": "/"}),
                         {**bearer(process), **JSON}).json()["url"]
        assert all(opens(process, iid, cookie(s)) == EVERYTHING for s in sessions)

        new = rotate(process)
        assert new != old and process.token == new
        with attacks("Sessions") as seen:
            for session in sessions:
                refused_everywhere(seen, process, iid, cookie(session), "a session of the old token")
            by_code = send(process, "GET", code_link.removeprefix(process.base_url))
            seen.refused_if(by_code.status == 401 and "set-cookie" not in by_code.headers,
                            ("a sign-in code of the old token", by_code.status))
            by_token = send(process, "GET", f"/login?{urlencode({'token': old})}")
            seen.refused_if(by_token.status == 401 and "set-cookie" not in by_token.headers,
                            ("/login with the old token", by_token.status))
            api = send(process, "GET", "/api/interactions", None, {"Authorization": f"Bearer {old}"})
            seen.refused_if(api.status == 401, ("the old token on /api", api.status))
        with sqlite3.connect(f"file:{process.data_dir / 'choice.db'}?mode=ro", uri=True) as db:
            assert db.execute("SELECT count(*) FROM browser_session").fetchone() == (0,)
        assert opens(process, iid, cookie(sign_in(process.base_url, new))) == EVERYTHING
        assert send(process, "GET", "/api/interactions", None, bearer(process)).status == 200
    finally:
        process.stop()
