"""What every response carries (a CSP with `frame-ancestors 'none'`, `nosniff`, and
`Referrer-Policy: no-referrer`), errors and static files included, and the promise that
GET changes nothing: no page, partial, API read, prefetch or GET on an action URL answers,
cancels, moves or audits a pending question.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass

import pytest
from websockets.sync.client import connect
from websockets.typing import Origin

from tests.portal_process import PortalProcess
from tests.security.conftest import (
    FORM,
    JSON,
    MCP_ACCEPT,
    ask,
    bearer,
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

QUESTION = json.dumps({"title": "Headers", "prompt": "Context.",
                       "options": [{"id": "a", "label": "A"}]})
OVERSIZED = json.dumps({"title": "Big", "prompt": "x" * (257 * 1024)})
MCP_HELLO = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "headers", "version": "1"}}})


@dataclass(frozen=True)
class Case:
    method: str
    path: str
    status: int
    auth: str = "cookie"
    """`cookie`, `token` or `none`."""
    body: str | None = None
    headers: tuple[tuple[str, str], ...] = ()
    host: str | None = None
    page: bool = False
    """One of our full HTML pages, which get the page CSP (hashed fallback script)."""


CASES = {
    "page: list": Case("GET", "/", 200, page=True),
    "page: question": Case("GET", "/choice/{id}", 200, page=True),
    "page: answered question": Case("GET", "/choice/{done}", 200, page=True),
    "page: settings": Case("GET", "/settings", 200, page=True),
    "partial: list": Case("GET", "/partials/interactions", 200),
    "partial: question": Case("GET", "/choice/{id}/partial", 200, headers=(("HX-Request", "true"),)),
    "sign-in page": Case("GET", "/login", 200, auth="none", page=True),
    "sign-in instead of a page": Case("GET", "/choice/{id}", 401, auth="none", page=True),
    "sign-in with a wrong token": Case("GET", "/login?token=wrong", 401, auth="none", page=True),
    "sign-in redirect": Case("GET", "/login?token={token}&next=/", 303, auth="none"),
    "form post": Case("POST", "/choice/{id}/deadline", 303, body="minutes_left=30",
                               headers=(*FORM.items(), ("Origin", "null"),
                                        ("Sec-Fetch-Site", "same-origin"))),
    "api: list": Case("GET", "/api/interactions", 200, auth="token"),
    "api: poll": Case("GET", "/api/interactions/{id}", 200, auth="token"),
    "api: events": Case("GET", "/api/interactions/{id}/events", 200, auth="token"),
    "api: settings": Case("GET", "/api/settings", 200, auth="token"),
    "api: create": Case("POST", "/api/interactions", 201, auth="token", body=QUESTION,
                        headers=tuple(JSON.items())),
    "error 401": Case("GET", "/api/interactions", 401, auth="none"),
    "error 403": Case("POST", "/api/interactions", 403, auth="token", body=QUESTION,
                      headers=(*JSON.items(), ("Origin", "http://evil.example"))),
    "error 404 api": Case("GET", "/api/interactions/0000000000000000", 404, auth="token"),
    "error 404 route": Case("GET", "/nowhere", 404),
    "error 405": Case("DELETE", "/api/interactions", 405, auth="token"),
    "error 405 on HEAD": Case("HEAD", "/", 405),
    "error 405, foreign host": Case("POST", "/healthz", 405, auth="none", host="evil.example"),
    "error 404, foreign host": Case("GET", "/nowhere", 404, auth="none", host="evil.example"),
    "options": Case("OPTIONS", "/api/interactions", 204, auth="token"),
    "error 409": Case("POST", "/api/interactions/{done}/response", 409, auth="token",
                      body='{"selected_ids": ["a"]}', headers=tuple(JSON.items())),
    "error 413": Case("PUT", "/api/settings", 413, auth="token", body=OVERSIZED,
                      headers=tuple(JSON.items())),
    "error 415": Case("POST", "/api/interactions", 415, auth="token", body=QUESTION,
                      headers=(("Content-Type", "text/plain"),)),
    "error 421": Case("GET", "/", 421, host="evil.example"),
    "error 422": Case("POST", "/api/interactions", 422, auth="token", body="{}",
                      headers=tuple(JSON.items())),
    "static: js bundle": Case("GET", "{js}", 200, auth="none"),
    "static: css bundle": Case("GET", "{css}", 200, auth="none"),
    "static: stale bundle": Case("GET", "/static/bundle.0000000000000000.js", 404, auth="none"),
    "healthz": Case("GET", "/healthz", 200, auth="none"),
    "schema page": Case("GET", "/schema", 200, auth="none"),
    "schema json": Case("GET", "/schema/openapi.json", 200, auth="none"),
    "mcp": Case("POST", "/mcp", 200, auth="token", body=MCP_HELLO,
                headers=(*JSON.items(), *MCP_ACCEPT.items())),
}


@pytest.fixture(scope="module")
def places(portal: PortalProcess) -> dict[str, str]:
    """What the case paths name: a pending and an answered question, the bundle URLs."""
    done = ask(portal)
    portal.client().call("POST", f"/api/interactions/{done}/response", {"selected_ids": ["b"]})
    pending = ask(portal)
    page = send(portal, "GET", f"/choice/{pending}", None, signed_in(portal)).text
    js = re.search(r"/static/bundle\.[0-9a-f]+\.js", page)
    css = re.search(r"/static/bundle\.[0-9a-f]+\.css", page)
    assert js and css
    return {"id": pending, "done": done, "js": js.group(), "css": css.group(),
            "token": portal.token}


@pytest.mark.parametrize("name", list(CASES))
def test_every_response_carries_the_protective_headers(portal: PortalProcess,
                                                       places: dict[str, str], name: str) -> None:
    case = CASES[name]
    credentials = {"cookie": signed_in(portal), "token": bearer(portal), "none": {}}[case.auth]
    with attacks("Protective headers") as seen:
        reply = send(portal, case.method, case.path.format(**places), case.body,
                     {**credentials, **dict(case.headers)}, host=case.host)
        policy = reply.headers.get("Content-Security-Policy", "")
        protected = ("frame-ancestors 'none'" in policy and "default-src 'none'" in policy
                     and reply.headers.get("X-Content-Type-Options") == "nosniff"
                     and reply.headers.get("Referrer-Policy") == "no-referrer")
        if case.page:
            # Pages get the fuller policy: scripts only from us, forms only to us.
            protected = (protected and reply.headers.get_content_type() == "text/html"
                         and "script-src 'self'" in policy and "form-action 'self'" in policy
                         and "unsafe-inline" not in policy and "unsafe-eval" not in policy)
        seen.refused_if(protected, (name, reply.status, dict(reply.headers)))
    assert reply.status == case.status, reply.text[:300]  # the case reached what it names


def safe_urls(portal: PortalProcess, interaction_id: str) -> list[str]:
    """Every URL that shows the question, and the action URLs with what a form would post
    put in the query string instead."""
    base, page = f"/api/interactions/{interaction_id}", f"/choice/{interaction_id}"
    return [
        "/", "/?filter=active", page, f"{page}/partial", "/settings",
        f"/partials/interactions?current={interaction_id}",
        base, f"{base}/events", f"{base}/detail", "/api/interactions?status=active",
        "/api/settings",
        f"{page}/submit?selected=a&action=submit", f"{page}/submit?selected=a&action=confirm",
        f"{page}/cancel?global_annotation=prefetched", f"{page}/deadline?minutes_left=1",
        "/settings?timeout_seconds=777&language=zh&notifications=on",
        f"{base}/response?selected_ids=a", f"{base}/cancel", f"{base}/opened?interface=terminal",
        f"{base}/interface?interface=terminal", "/api/login-links?next=/",
        f"/login?token={portal.token}&next={page}",
    ]


PREFETCHES = [
    {},
    {"Sec-Purpose": "prefetch"},
    {"Purpose": "prefetch"},
    {"Sec-Purpose": "prefetch;prerender"},
    {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"},
    {"HX-Request": "true"},
]


def test_get_and_head_change_nothing(portal: PortalProcess) -> None:
    pending = ask(portal)
    credentials = {**signed_in(portal), **bearer(portal)}
    before = state_of(portal, pending)
    shown: dict[str, int] = {}
    with attacks("GET is safe") as seen:
        for method in ("GET", "HEAD"):
            for url in safe_urls(portal, pending):
                for prefetch in PREFETCHES:
                    reply = send(portal, method, url, None, {**credentials, **prefetch})
                    shown.setdefault(f"{method} {url}", reply.status)
                    seen.refused_if(reply.status < 500, (method, url, prefetch, reply.status))
        # the same row, deadline and audit trail, to the millisecond
        after = state_of(portal, pending)
        seen.unchanged(before, after)
    # The reads were real (signed in, rendered), so "nothing changed" means something.
    assert shown[f"GET /choice/{pending}"] == shown[f"GET /api/interactions/{pending}"] == 200
    assert after["interaction"]["detail"]["status"] == "pending"


def test_only_a_connected_socket_audits_the_question_as_opened(portal: PortalProcess) -> None:
    """Page GETs record nothing (above). The page's socket, a same-origin handshake with
    the cookie, records `opened` once: an audit line, not a change of state."""
    pending = ask(portal)
    before = snapshot(portal, pending)
    uri = f"ws://127.0.0.1:{portal.port}/ws/choice/{pending}"
    with connect(uri, origin=Origin(f"http://127.0.0.1:{portal.port}"),
                 additional_headers=signed_in(portal), open_timeout=5) as socket_:
        assert json.loads(socket_.recv(timeout=5))["status"] == "pending"
    deadline = time.monotonic() + 5
    while len((after := snapshot(portal, pending))["events"]) == len(before["events"]):
        assert time.monotonic() < deadline, "the socket never audited the question as opened"
        time.sleep(0.01)
    assert after["detail"] == before["detail"]
    added = after["events"][len(before["events"]):]
    assert [(event["kind"], event["actor"]) for event in added] == [("opened", "human:web")]
