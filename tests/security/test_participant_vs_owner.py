"""A participant's link never buys the owner's access. Holding only a link (and whatever
cookies `/d/<secret>` and `/api/d/<secret>` set), every owner route is tried: every route
the app has, enumerated from the app itself (and checked against the OpenAPI schema), each
with every method it takes and a body that would succeed for the owner, from the portal's
own origin so that only credentials stand in the way; and the secret itself offered as
the bearer token, the session cookie, the stored hash and `?token=`. Each must be refused
(401, 403 or 404), no response may set the owner's cookie, and nothing may change.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from http.cookies import SimpleCookie

import pytest
from litestar.routes import ASGIRoute, HTTPRoute, WebSocketRoute
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Origin

from choice.portal import create_app
from choice.web.security.sessions import COOKIE
from tests.portal_process import PortalProcess
from tests.security.conftest import FORM, JSON, MCP_ACCEPT, Reply, send
from tests.security.team import Invitee, same_origin, team_state, widened
from tests.tally import attacks

pytestmark = pytest.mark.slow

PUBLIC = re.compile(r"^/(healthz|static/|schema|login$)")
"""Routes anyone may call (health, the bundles, the API description, the sign-in form)."""
PARTICIPANT = re.compile(r"^/(api/|ws/)?d/")
"""Routes a link opens: the participant's page, JSON API and socket."""
BODIES = {
    "/api/interactions": {"title": "Sneaked", "prompt": "Context.",
                          "options": [{"id": "a", "label": "A"}]},
    "/api/interactions/{interaction_id}": {"timeout_seconds": 4000},
    "/api/interactions/{interaction_id}/response": {"selected_ids": ["a"]},
    "/api/interactions/{interaction_id}/cancel": {"global_annotation": "sneaked"},
    "/api/interactions/{interaction_id}/interface": {"interface": "terminal"},
    "/api/interactions/{interaction_id}/opened": {"interface": "terminal"},
    "/api/interactions/{interaction_id}/comments": {"text": "as the owner"},
    "/api/interactions/{interaction_id}/widen": {"audience": ["Mallory"], "mode": "continue",
                                                 "timeout_seconds": 86400},
    "/api/settings": {"timeout_seconds": 777, "team": [{"name": "Mallory"}]},
    "/api/login-links": {"next": "/"},
}
FORMS = {
    "/choice/{interaction_id}/submit": "selected=a&action=submit",
    "/choice/{interaction_id}/cancel": "global_annotation=sneaked",
    "/choice/{interaction_id}/deadline": "minutes_left=999",
    "/settings": "timeout_seconds=777&language=zh",
    "/login": "token={secret}&next=/",
}


@pytest.fixture(scope="module")
def portal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PortalProcess]:
    process = PortalProcess(tmp_path_factory.mktemp("owner-routes-portal")).start()
    yield process
    process.stop()


def template(path: str) -> str:
    """`/choice/{interaction_id:str}` -> `/choice/{interaction_id}`."""
    return re.sub(r"\{(\w+):\w+\}", r"{\1}", path)


def routes() -> list[tuple[str, str]]:
    """(method, path template) of every route of the app, sockets and the MCP mount as
    `WS` and `MCP`."""
    found: list[tuple[str, str]] = []
    for route in create_app().routes:
        path = template(route.path)
        if isinstance(route, HTTPRoute):
            found += [(method, path) for method in sorted(route.methods)]
        elif isinstance(route, WebSocketRoute):
            found.append(("WS", path))
        elif isinstance(route, ASGIRoute):
            found.append(("MCP", path))
    return found


def owner_routes() -> list[tuple[str, str]]:
    return [(m, p) for m, p in routes() if not PUBLIC.match(p) and not PARTICIPANT.match(p)]


def fill(path: str, who: Invitee) -> str:
    return path.format(interaction_id=who.interaction_id, participant_id=who.participant_id,
                       secret=who.secret, attachment_id="a1", file_id="f1")


def cookies_set(reply: Reply) -> dict[str, str]:
    jar: SimpleCookie = SimpleCookie()
    for header in reply.headers.get_all("set-cookie") or []:
        jar.load(header)
    return {name: morsel.value for name, morsel in jar.items()}


def participant_cookies(portal: PortalProcess, who: Invitee) -> dict[str, str]:
    """Whatever the participant's routes set, gathered as a browser would."""
    jar: dict[str, str] = {}
    for path in (f"/d/{who.secret}", f"/api/d/{who.secret}"):
        reply = send(portal, "GET", path, headers=same_origin(portal))
        assert reply.status < 500, (path, reply.status)
        assert COOKIE not in cookies_set(reply), path
        jar.update(cookies_set(reply))
    return jar


def disguises(who: Invitee, jar: dict[str, str]) -> dict[str, tuple[dict[str, str], str]]:
    """Each way to come with the link alone: (headers, query string)."""
    held = "; ".join(f"{name}={value}" for name, value in jar.items())
    with_jar = {"Cookie": held} if held else {}
    return {
        "the participant's cookies": (with_jar, ""),
        "the secret as the bearer token": ({**with_jar, "Authorization": f"Bearer {who.secret}"},
                                           ""),
        "the secret as the owner's cookie": ({"Cookie": f"{COOKIE}={who.secret}"}, ""),
        "the stored hash as the owner's cookie": ({"Cookie": f"{COOKIE}={who.stored_hash}"}, ""),
        "the secret in the query": (with_jar, f"token={who.secret}"),
    }


def with_query(path: str, query: str) -> str:
    return f"{path}{'&' if '?' in path else '?'}{query}" if query else path


def request(portal: PortalProcess, method: str, path: str, who: Invitee,
            headers: dict[str, str]) -> Reply:
    body: str | None = None
    extra = dict(same_origin(portal))
    plain = path.split("?")[0]
    shape = next((t for t in (*BODIES, *FORMS) if fill(t, who) == plain), None)
    if method in ("POST", "PUT", "PATCH"):
        if shape in FORMS:
            body, extra = fill(FORMS[shape], who), {**extra, **FORM}
        else:
            body, extra = json.dumps(BODIES.get(shape or "", {})), {**extra, **JSON}
    return send(portal, method, path, body, {**extra, **headers})


def handshake(portal: PortalProcess, path: str, headers: dict[str, str]) -> str:
    """`refused <status>`, `closed <code>` before any message, or `heard` (a message came)."""
    uri = f"ws://127.0.0.1:{portal.port}{path}"
    try:
        with connect(uri, origin=Origin(f"http://127.0.0.1:{portal.port}"),
                     additional_headers=headers, open_timeout=5) as socket_:
            try:
                socket_.recv(timeout=5)
            except ConnectionClosed as closed:
                return f"closed {closed.rcvd.code if closed.rcvd else None}"
            return "heard"
    except InvalidStatus as refused:
        return f"refused {refused.response.status_code}"


def test_the_enumeration_covers_every_documented_operation(portal: PortalProcess) -> None:
    schema = send(portal, "GET", "/schema/openapi.json").json()
    documented = {(method.upper(), path) for path, item in schema["paths"].items()
                  for method in item if method in ("get", "post", "put", "patch", "delete")}
    assert documented <= set(routes())
    assert {("WS", "/ws/choice/{interaction_id}"), ("MCP", "/mcp")} <= set(routes())


def test_no_owner_route_answers_a_participant(portal: PortalProcess) -> None:
    who, other = widened(portal, ["Ann", "Ben"])
    jar = participant_cookies(portal, who)
    before = team_state(portal, who.interaction_id)
    statuses = set()
    with attacks("Team: link vs owner routes") as seen:
        for name, (headers, query) in disguises(who, jar).items():
            for method, path in owner_routes():
                target = with_query(
                    fill(path, who if "{participant_id}" not in path else other), query)
                if method == "WS":
                    outcome = handshake(portal, target, headers)
                    seen.refused_if(outcome in ("refused 401", "refused 403", "closed 4401"),
                                    (name, target, outcome))
                    continue
                if method == "MCP":
                    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                        "protocolVersion": "2025-06-18", "capabilities": {},
                        "clientInfo": {"name": "participant", "version": "1"}}}
                    reply = send(portal, "POST", target, json.dumps(hello),
                                 {**same_origin(portal), **JSON, **MCP_ACCEPT, **headers})
                else:
                    reply = request(portal, method, target, who, headers)
                if method == "OPTIONS" and reply.status == 204:
                    # Litestar's automatic answer where the guard is on the handler, not the
                    # route: which methods exist, no body; nothing an anonymous caller lacks.
                    refused = reply.body == b"" and "allow" in reply.headers
                else:
                    refused = reply.status in (401, 403, 404)
                refused = refused and COOKIE not in cookies_set(reply)
                seen.refused_if(refused, (name, method, target, reply.status, reply.text[:200]))
                statuses.add(reply.status)
        seen.unchanged(before, team_state(portal, who.interaction_id))
    assert 401 in statuses


def test_the_sign_in_never_takes_a_link_for_the_token(portal: PortalProcess) -> None:
    (who,) = widened(portal, ["Ann"])
    attempts = [("GET", f"/login?token={who.secret}&next=/"),
                ("GET", f"/login?code={who.secret}&next=/"),
                ("GET", f"/login?token={who.stored_hash}&next=/"),
                ("POST", "/login")]
    with attacks("Team: link vs owner routes") as seen:
        for method, path in attempts:
            reply = request(portal, method, path, who, {})
            seen.refused_if(reply.status == 401 and COOKIE not in cookies_set(reply)
                            and "location" not in reply.headers, (path, reply.status))
