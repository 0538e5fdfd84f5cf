"""Who may reach the portal at all: the Host allowlist (DNS rebinding), the Origin and
fetch-metadata check on every write and every WebSocket handshake (CSRF, cross-site
WebSocket hijacking), and the portal's own form posts, which need the session cookie.

Every refused request carries valid credentials, so only the guard under test stands in
the way; afterwards the API shows that nothing was created, answered or moved.
"""

from __future__ import annotations

import json

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect
from websockets.typing import Origin

from tests.portal_process import PortalProcess
from tests.security.conftest import (
    FORM,
    JSON,
    bearer,
    mcp_ask,
    mcp_session,
    refusal_code,
    send,
    signed_in,
    snapshot,
    state_of,
)
from tests.security.team import team_state, widened
from tests.security.writes import handshake, refused_write, writes
from tests.tally import attacks

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def portal(network_portal: PortalProcess) -> PortalProcess:
    return network_portal


def foreign_hosts(port: int) -> list[str]:
    """What a browser sends after DNS rebinding (the attacker's name, with our port), and
    names that merely start like ours."""
    return ["evil.example", f"evil.example:{port}", f"127.0.0.1.evil.example:{port}",
            f"localhost.evil.example:{port}", f"127.0.0.1:{port}@evil.example", ""]


def foreign_origins(port: int) -> list[dict[str, str]]:
    """Header sets a cross-site page (or a page on another local port) can make a browser
    send; `Origin: null` with `same-site` is a form posted from a no-referrer page on
    another port of 127.0.0.1."""
    return [
        {"Origin": "http://evil.example"},
        {"Origin": "https://evil.example"},
        {"Origin": f"http://evil.example:{port}"},
        {"Origin": f"http://127.0.0.1:{port + 1}"},
        {"Origin": "http://127.0.0.1"},
        {"Origin": f"http://127.0.0.1:{port}.evil.example"},
        {"Origin": "null"},
        {"Origin": "null", "Sec-Fetch-Site": "same-site"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Origin": f"http://127.0.0.1:{port}", "Sec-Fetch-Site": "cross-site"},
    ]


def malformed_origins(port: int) -> list[str]:
    """Our own host and port, written as no browser writes an origin (RFC 6454 §6.1): each
    is foreign. A lenient parser read several as ours."""
    ours = f"127.0.0.1:{port}"
    return [f"http://{ours}/", f"http://{ours}/choice", f"http://{ours}?x", f"http://{ours}#x",
            f"http://127.0.0.1:0{port}", f"http://127.0.0.1:+{port}", f"HTTP://{ours}",
            f"http://LOCALHOST:{port}", f"ftp://{ours}", f"ws://{ours}", f"file://{ours}",
            f"http://user@{ours}", f"http://user:pass@{ours}", f"http://{ours}:{port}",
            f"http://localhost.:{port}", f"http://[::1]:0{port}", f"http:/{ours}",
            f"http://{ours}\\"]


def test_a_socket_from_a_foreign_origin_is_refused_before_accept(portal: PortalProcess,
                                                                 pending: str) -> None:
    before = snapshot(portal, pending)
    with attacks("WebSocket origin") as seen:
        for headers in foreign_origins(portal.port):
            origin = headers.get("Origin")
            extra = {k: v for k, v in headers.items() if k != "Origin"}
            for path in (f"/ws/choice/{pending}", "/ws/portal"):
                status = handshake(portal, path, origin=origin,
                                   headers={**signed_in(portal), **extra})
                # an HTTP refusal, never 101
                seen.refused_if(status == 403, (headers, path, status))
        # A socket that got through would have audited the question as `opened`.
        seen.unchanged(before, snapshot(portal, pending))


def test_a_socket_from_our_own_page_is_accepted(portal: PortalProcess, pending: str) -> None:
    """The control: the portal's own origin with the cookie gets the live deadline."""
    uri = f"ws://127.0.0.1:{portal.port}/ws/choice/{pending}"
    with connect(uri, origin=Origin(f"http://127.0.0.1:{portal.port}"),
                 additional_headers=signed_in(portal), open_timeout=5) as socket_:
        message = json.loads(socket_.recv(timeout=5))
    assert message["type"] == "deadline" and message["interaction_id"] == pending


def test_a_socket_without_the_cookie_hears_nothing(portal: PortalProcess, pending: str) -> None:
    """Same origin but not signed in: accepted only to be closed with 4401, so the page
    can tell "sign in" from a network error; not one message is sent."""
    uri = f"ws://127.0.0.1:{portal.port}/ws/choice/{pending}"
    with attacks("WebSocket origin") as seen, connect(
            uri, origin=Origin(f"http://127.0.0.1:{portal.port}"), open_timeout=5) as socket_:
        try:
            heard = socket_.recv(timeout=5)
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else None
            seen.refused_if(code == 4401, f"closed with {code}")
        else:
            seen.refused_if(False, f"heard {heard!r}")


def test_every_write_route_is_enumerated(portal: PortalProcess) -> None:
    """The enumeration is the app's: the writes of every feature are in it, pages and
    sockets included (38 HTTP writes, 3 sockets and `/mcp` when this was written)."""
    (who,) = widened(portal, ["Ann"])
    kinds = {(method, path.split("?")[0]) for method, path, _b, _h in writes(portal, who)}
    base, page, link = (f"/api/interactions/{who.interaction_id}",
                        f"/choice/{who.interaction_id}", f"/d/{who.secret}")
    assert {("POST", f"{base}/response"), ("PUT", "/api/settings"), ("POST", "/login"),
            ("POST", f"{page}/resolve"), ("PUT", f"/api{link}/vote"), ("POST", f"{link}/vote"),
            ("WS", f"/ws{link}"), ("WS", "/ws/portal"), ("POST", "/mcp")} <= kinds
    assert len(kinds) >= 42


def test_cross_site_writes_are_refused_even_with_the_cookie_and_the_token(
        portal: PortalProcess) -> None:
    credentials = {**bearer(portal), **signed_in(portal)}
    who, _other = widened(portal, ["Ann", "Ben"])
    targets = writes(portal, who)
    before = team_state(portal, who.interaction_id)
    with attacks("Origin / fetch metadata") as seen:
        seen.fact("writes", len(targets))
        for forged in [*foreign_origins(portal.port),
                       *({"Origin": origin} for origin in malformed_origins(portal.port))]:
            for method, path, body, headers in targets:
                refused, answer = refused_write(portal, method, path, body,
                                                {**credentials, **headers, **forged})
                seen.refused_if(refused, (forged, method, path, answer))
        after = team_state(portal, who.interaction_id)
        seen.unchanged(before, after)
    assert after["interaction"]["detail"]["status"] == "widened"


def test_our_own_form_post_is_accepted(portal: PortalProcess, pending: str) -> None:
    """The control: what the browser sends for the portal's form (no-referrer pages say
    `Origin: null`, and the browser's own Sec-Fetch-Site vouches for it) answers."""
    reply = send(portal, "POST", f"/choice/{pending}/submit", "selected=b&action=submit",
                 {**FORM, **signed_in(portal), "Origin": "null", "Sec-Fetch-Site": "same-origin"})
    assert reply.status == 303, reply.text[:300]
    assert snapshot(portal, pending)["detail"]["result"]["selected_ids"] == ["b"]


def test_a_form_post_without_the_cookie_goes_to_sign_in_and_changes_nothing(
        portal: PortalProcess, pending: str) -> None:
    same_origin = {**FORM, "Origin": f"http://127.0.0.1:{portal.port}", "Sec-Fetch-Site": "same-origin"}
    posts = [(f"/choice/{pending}/submit", "selected=a&action=submit"),
             (f"/choice/{pending}/cancel", "global_annotation=x"),
             (f"/choice/{pending}/deadline", "minutes_left=99"),
             ("/settings", "timeout_seconds=777&language=zh")]
    cookies = [{}, {"Cookie": "choice_session=forged"},
               {"Cookie": f"choice_session={portal.token}"}]  # the token is not the cookie
    before = state_of(portal, pending)
    with attacks("Credentials") as seen:
        for cookie in cookies:
            for path, body in posts:
                reply = send(portal, "POST", path, body, {**same_origin, **cookie})
                signs_in = (reply.status == 401 and reply.headers.get_content_type() == "text/html"
                            and 'action="/login"' in reply.text)  # sign-in, not the question
                seen.refused_if(signs_in, (path, cookie, reply.status))
        seen.unchanged(before, state_of(portal, pending))


def test_a_foreign_host_is_refused_on_pages_api_sockets_and_mcp(portal: PortalProcess,
                                                                 pending: str) -> None:
    mcp = mcp_session(portal)
    credentials = {**bearer(portal), **signed_in(portal)}
    ask = json.dumps({"title": "Rebound", "prompt": "Context.", "options": [{"id": "a", "label": "A"}]})
    http_targets = [
        ("GET", "/", None, credentials),
        ("GET", f"/choice/{pending}", None, credentials),
        ("GET", "/api/interactions", None, credentials),
        ("POST", "/api/interactions", ask, {**credentials, **JSON}),
        ("POST", f"/api/interactions/{pending}/response", '{"selected_ids": ["a"]}',
         {**credentials, **JSON}),
        ("POST", "/mcp", mcp_ask(), {**credentials, **mcp}),
    ]
    before = state_of(portal, pending)
    with attacks("Host allowlist") as seen:
        for host in foreign_hosts(portal.port):
            for method, path, body, headers in http_targets:
                reply = send(portal, method, path, body, headers, host=host)
                refused = reply.status == 421 and refusal_code(reply) == "host_not_allowed"
                seen.refused_if(refused, (host, method, path, reply.status))
            if "@" in host or not host:
                continue  # not a name a WebSocket URI (or a browser) can carry
            for path in (f"/ws/choice/{pending}", "/ws/portal"):
                status = handshake(portal, path, host=host, origin=f"http://{host}",
                                   headers=signed_in(portal))
                seen.refused_if(status in (403, 421), (host, path, status))
        seen.unchanged(before, state_of(portal, pending))


def test_the_portal_answers_to_its_own_names(portal: PortalProcess, pending: str) -> None:
    """The control for the test above: under our own names a page and a socket get through."""
    for host in (f"127.0.0.1:{portal.port}", f"localhost:{portal.port}", f"[::1]:{portal.port}"):
        assert send(portal, "GET", f"/choice/{pending}", None, signed_in(portal),
                    host=host).status == 200, host
    assert handshake(portal, "/ws/portal", host=f"localhost:{portal.port}",
                     origin=f"http://localhost:{portal.port}", headers=signed_in(portal)) == 101
