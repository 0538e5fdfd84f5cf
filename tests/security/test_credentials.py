"""Who is let in: the bearer token on every `/api` route and `/mcp`, the session cookie on
pages, and `/login`, which turns a one-time code or the token into that cookie and never
sends the browser anywhere but this portal. Unknown ids are a plain 404, and without
credentials a real id and an unknown one look the same (no oracle).

The cookie is the owner's and portal-wide; a participant's link, which opens one question
only, is tried in `test_participant_vs_owner.py`.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from urllib.parse import quote, urlencode, urljoin, urlsplit

import pytest

from choice.core.token import ensure_token
from choice.web.security.sessions import COOKIE
from tests.portal_process import PortalProcess
from tests.security.conftest import (
    FORM,
    JSON,
    MCP_ACCEPT,
    Reply,
    ask,
    bearer,
    mcp_ask,
    mcp_session,
    refusal_code,
    send,
    signed_in,
    snapshot,
    state_of,
)
from tests.tally import attacks

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def portal(network_portal: PortalProcess) -> PortalProcess:
    return network_portal

TITLE = "Rotate the production keys?"
PROMPT = "Only the signed-in human may read this prompt."


@pytest.fixture(scope="module")
def other_token(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A token made the way another portal (another data dir) makes its own."""
    return ensure_token(tmp_path_factory.mktemp("other-portal") / "token")


@pytest.fixture
def secret(portal: PortalProcess) -> str:
    """A pending question whose title and prompt must never reach the unauthenticated."""
    return ask(portal, title=TITLE, prompt=PROMPT)


def api_routes(interaction_id: str) -> list[tuple[str, str, str | None]]:
    """Every `/api` route, each with a body that would succeed with the right token."""
    base = f"/api/interactions/{interaction_id}"
    question = json.dumps({"title": "Sneaked in", "prompt": "Context.",
                           "options": [{"id": "a", "label": "A"}]})
    return [
        ("GET", "/api/interactions", None),
        ("POST", "/api/interactions", question),
        ("GET", base, None),
        ("GET", f"{base}/events", None),
        ("GET", f"{base}/detail", None),
        ("POST", f"{base}/response", '{"selected_ids": ["a"]}'),
        ("POST", f"{base}/cancel", '{"global_annotation": "sneaked"}'),
        ("PATCH", base, '{"timeout_seconds": 4000}'),
        ("POST", f"{base}/interface", '{"interface": "terminal"}'),
        ("POST", f"{base}/opened", '{"interface": "terminal"}'),
        ("GET", "/api/settings", None),
        ("PUT", "/api/settings", '{"timeout_seconds": 777}'),
        ("GET", "/api/stream", None),
        ("POST", "/api/login-links", '{"next": "/"}'),
    ]


def wrong_credentials(token: str, other_token: str) -> list[tuple[str, dict[str, str], str]]:
    """(name, headers, query string) of every way to come without the right token."""
    return [
        ("none", {}, ""),
        ("wrong token", {"Authorization": "Bearer not-the-token"}, ""),
        ("another portal's token", {"Authorization": f"Bearer {other_token}"}, ""),
        ("empty bearer", {"Authorization": "Bearer "}, ""),
        ("scheme only", {"Authorization": "Bearer"}, ""),
        ("token minus a character", {"Authorization": f"Bearer {token[:-1]}"}, ""),
        ("token plus a character", {"Authorization": f"Bearer {token}x"}, ""),
        ("basic scheme", {"Authorization": f"Basic {token}"}, ""),
        ("token in the query", {}, f"token={token}"),
        ("access_token in the query", {}, f"access_token={token}"),
        ("a made-up session", {"Cookie": f"{COOKIE}={secrets.token_urlsafe(32)}"}, ""),
        ("the old release's cookie", {"Cookie": f"{COOKIE}={old_cookie(token)}"}, ""),
        ("another portal's old cookie", {"Cookie": f"{COOKIE}={old_cookie(other_token)}"}, ""),
        ("the token as the cookie", {"Cookie": f"{COOKIE}={token}"}, ""),
    ]


def old_cookie(token: str) -> str:
    """What 0.x set as the cookie: a fixed HMAC of the token, the same for every browser."""
    return hmac.new(token.encode(), b"choice browser session v1", hashlib.sha256).hexdigest()


def with_query(path: str, query: str) -> str:
    return f"{path}{'&' if '?' in path else '?'}{query}" if query else path


def test_pages_without_the_cookie_show_sign_in_and_not_the_question(
        portal: PortalProcess, secret: str, other_token: str) -> None:
    with attacks("Credentials") as seen:
        for name, headers, query in wrong_credentials(portal.token, other_token):
            for path in ("/", f"/choice/{secret}", f"/choice/{secret}/partial",
                         f"/partials/interactions?current={secret}", "/settings"):
                reply = send(portal, "GET", with_query(path, query), None, headers)
                refused = (reply.status == 401 and "set-cookie" not in reply.headers
                           and TITLE not in reply.text and PROMPT not in reply.text)
                seen.refused_if(refused, (name, path, reply.status))


def test_the_bare_url_given_to_agents_carries_no_secret(portal: PortalProcess, secret: str) -> None:
    url = portal.client().call("GET", f"/api/interactions/{secret}")["url"]
    assert url == f"{portal.base_url}/choice/{secret}"
    assert portal.token not in url and "code=" not in url


def test_login_with_a_wrong_secret_sets_no_cookie(portal: PortalProcess, secret: str,
                                                  other_token: str) -> None:
    attempts = [
        ("GET", f"/login?{urlencode({'token': 'wrong', 'next': f'/choice/{secret}'})}", None, {}),
        ("GET", f"/login?{urlencode({'token': other_token})}", None, {}),
        ("GET", f"/login?{urlencode({'code': 'made-up-code'})}", None, {}),
        ("GET", f"/login?{urlencode({'code': portal.token})}", None, {}),  # token is no code
        ("POST", "/login", urlencode({"token": other_token, "next": "/"}),
         {**FORM, "Origin": f"http://127.0.0.1:{portal.port}"}),
    ]
    with attacks("Credentials") as seen:
        for method, path, body, headers in attempts:
            reply = send(portal, method, path, body, headers)
            # a wrong secret is not echoed into the page either
            refused = (reply.status == 401 and "set-cookie" not in reply.headers
                       and other_token not in reply.text and TITLE not in reply.text)
            seen.refused_if(refused, (method, path, reply.status))


def cookie_of(reply: Reply) -> str:
    cookie = reply.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "samesite=lax" in cookie.lower() and "Path=/" in cookie
    match = re.match(rf"{COOKIE}=([A-Za-z0-9_-]{{43}});", cookie)
    assert match, cookie
    return match.group(1)


def test_login_with_the_token_sets_an_httponly_cookie_and_drops_the_token(
        portal: PortalProcess, secret: str) -> None:
    query = urlencode({"token": portal.token, "next": f"/choice/{secret}"})
    reply = send(portal, "GET", f"/login?{query}")
    assert reply.status in (302, 303)
    assert reply.headers["Location"] == f"/choice/{secret}"
    again = send(portal, "GET", f"/login?{query}")
    assert cookie_of(reply) != cookie_of(again)  # a random session each time, not the token's
    assert portal.token not in cookie_of(reply) and cookie_of(reply) != old_cookie(portal.token)
    page = send(portal, "GET", reply.headers["Location"], None,
                {"Cookie": f"{COOKIE}={cookie_of(reply)}"})
    assert page.status == 200 and TITLE in page.text
    assert portal.token not in page.text


def test_a_one_time_code_signs_in_once(portal: PortalProcess, secret: str) -> None:
    created = send(portal, "POST", "/api/login-links", json.dumps({"next": f"/choice/{secret}"}),
                   {**bearer(portal), **JSON})
    assert created.status == 201
    link = urlsplit(created.json()["url"])
    assert f"{link.scheme}://{link.netloc}" == portal.base_url
    target = f"{link.path}?{link.query}"
    first = send(portal, "GET", target)
    assert first.status in (302, 303)
    assert first.headers["Location"] == f"/choice/{secret}"
    assert send(portal, "GET", first.headers["Location"], None,
                {"Cookie": f"{COOKIE}={cookie_of(first)}"}).status == 200
    with attacks("Credentials") as seen:
        second = send(portal, "GET", target)
        refused = (second.status == 401 and "set-cookie" not in second.headers
                   and TITLE not in second.text)
        seen.refused_if(refused, ("the code used again", second.status))


def where_a_browser_goes(base: str, location: str) -> str:
    """The host a browser lands on for this Location, parsed the way the WHATWG URL parser
    does for http: outer controls and spaces trimmed, tabs and newlines dropped anywhere,
    backslashes taken for slashes."""
    cleaned = re.sub(r"[\t\n\r]", "", location.strip("\x00- ")).replace("\\", "/")
    return urlsplit(urljoin(base + "/", cleaned)).netloc


OFF_SITE = ["//evil.example", "https://evil.example", "http://evil.example/choice/x",
            "/\\evil.example", "\\\\evil.example", "\\/evil.example", "///evil.example",
            "/\t/evil.example", "/\n/evil.example", " //evil.example", "http:evil.example",
            "https:/evil.example", "//evil.example@127.0.0.1", "javascript:alert(1)",
            "/%2F/evil.example", "//127.0.0.1.evil.example"]


def test_next_never_leads_off_the_portal(portal: PortalProcess) -> None:
    ours = f"127.0.0.1:{portal.port}"
    with attacks("Open redirect") as seen:
        for target in OFF_SITE:
            by_token = send(portal, "GET",
                            f"/login?{urlencode({'token': portal.token, 'next': target})}")
            link = send(portal, "POST", "/api/login-links", json.dumps({"next": target}),
                        {**bearer(portal), **JSON}).json()["url"]
            by_code = send(portal, "GET", link.removeprefix(portal.base_url))
            for reply in (by_token, by_code):
                location = reply.headers.get("Location", "")
                stays = (reply.status in (302, 303)
                         and where_a_browser_goes(portal.base_url, location) == ours
                         and not location.lower().startswith("javascript:"))
                seen.refused_if(stays, (target, reply.status, location))


def test_an_unknown_id_is_a_404_that_tells_nothing(portal: PortalProcess, secret: str) -> None:
    strange = ["0000000000000000", "x" * 5000, quote("../../etc/passwd", safe=""),
               quote("' OR 1=1 --", safe=""), "%00", secret[:-1], quote(secret + "\n", safe="")]
    before = snapshot(portal, secret)
    with attacks("Credentials") as seen:
        for unknown in strange:
            base = f"/api/interactions/{unknown}"
            for method, path, body in [("GET", base, None), ("GET", f"{base}/events", None),
                                       ("GET", f"{base}/detail", None),
                                       ("POST", f"{base}/response", '{"selected_ids": ["a"]}'),
                                       ("POST", f"{base}/cancel", "{}"),
                                       ("PATCH", base, '{"timeout_seconds": 600}')]:
                reply = send(portal, method, path, body, {**bearer(portal), **JSON})
                # only the error, the id echoed cut short and nothing else
                refused = (reply.status == 404 and refusal_code(reply) == "not_found"
                           and set(reply.json()) == {"errors"} and TITLE not in reply.text
                           and len(reply.body) < 1024)
                seen.refused_if(refused, (method, path[:80], reply.status))
            page = send(portal, "GET", f"/choice/{unknown}", None, signed_in(portal))
            seen.refused_if(page.status == 404 and TITLE not in page.text,
                            (unknown[:80], page.status))
        seen.unchanged(before, snapshot(portal, secret))


def test_without_credentials_a_real_id_looks_like_an_unknown_one(portal: PortalProcess,
                                                                 secret: str) -> None:
    for suffix in ("", "/events", "/detail"):
        real = send(portal, "GET", f"/api/interactions/{secret}{suffix}")
        unknown = send(portal, "GET", f"/api/interactions/0000000000000000{suffix}")
        assert real.status == unknown.status == 401
        assert real.body == unknown.body


def test_the_token_file_is_the_one_secret(portal: PortalProcess) -> None:
    """The control for everything above: the file's token is what the portal accepts."""
    assert (portal.data_dir / "token").read_text().strip() == portal.token
    assert send(portal, "GET", "/api/interactions", None, bearer(portal)).status == 200


def test_every_api_route_and_mcp_want_the_token(portal: PortalProcess, secret: str,
                                                other_token: str) -> None:
    """An MCP session id is no credential either: a `tools/call` in a live session, sent
    without the token, is refused like everything else."""
    session_id = mcp_session(portal)["mcp-session-id"]
    targets = [*api_routes(secret), ("POST", "/mcp", mcp_ask("Sneaked in over MCP"))]
    before = state_of(portal, secret)
    with attacks("Credentials") as seen:
        for name, headers, query in wrong_credentials(portal.token, other_token):
            for method, path, body in targets:
                extra = {**JSON, **MCP_ACCEPT, "mcp-session-id": session_id} if body else {}
                reply = send(portal, method, with_query(path, query), body, {**extra, **headers})
                refused = (reply.status == 401 and refusal_code(reply) == "unauthorized"
                           and reply.headers["WWW-Authenticate"] == "Bearer"
                           and TITLE not in reply.text and PROMPT not in reply.text)
                seen.refused_if(refused, (name, method, path, reply.status, reply.text[:200]))
        seen.unchanged(before, state_of(portal, secret))
