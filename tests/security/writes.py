"""Every write the app has, and the socket handshake, for the Origin tests
(`test_hosts_and_origins.py`, `test_public_origin.py`): the write routes come from the app's
own route table (`test_participant_vs_owner.routes`: every method but GET, HEAD and OPTIONS,
every socket as `WS`, `/mcp`), so a write route added later is attacked without a test
naming it.
"""

from __future__ import annotations

import json
import socket
from typing import Any

from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Origin

from tests.portal_process import PortalProcess
from tests.security.conftest import FORM, JSON, mcp_ask, mcp_session, refusal_code, send
from tests.security.team import Invitee
from tests.security.test_participant_vs_owner import BODIES, FORMS, routes

SAFE = ("GET", "HEAD", "OPTIONS")


def handshake(portal: PortalProcess, path: str, *, host: str | None = None,
              origin: str | None = None, headers: dict[str, str] | None = None) -> int:
    """The status of a WebSocket upgrade: 101 if the portal accepted it. The connection
    goes to our port whatever name the URI (and so the Host header) carries."""
    sock = socket.create_connection(("127.0.0.1", portal.port), timeout=5)
    uri = f"ws://{host or f'127.0.0.1:{portal.port}'}{path}"
    try:
        with connect(uri, sock=sock, origin=Origin(origin) if origin else None,
                     additional_headers=headers or {}, open_timeout=5):
            return 101
    except InvalidStatus as refused:
        return refused.response.status_code
    finally:
        sock.close()


WRITE_BODIES: dict[str, dict[str, Any]] = {
    **BODIES,
    "/api/interactions/{interaction_id}/candidate": {"candidate_summary": "forged"},
    "/api/interactions/{interaction_id}/defer": {"rationale": "forged"},
    "/api/interactions/{interaction_id}/quorum": {"min_votes": 1},
    "/api/interactions/{interaction_id}/resolve": {"final_answer": "forged"},
    "/api/interactions/{interaction_id}/draft": {"tab": "forged", "selected_ids": ["a"]},
    "/api/d/{secret}/comments": {"text": "forged"},
    "/api/d/{secret}/vote": {"option_ids": ["a"]},
}
"""What each JSON write takes, so that without the guard it would do what it says (a route
missing here still gets `{}`: the Origin check comes before the body is read)."""
WRITE_FORMS: dict[str, str] = {
    **FORMS,
    "/login": "token={token}&next=/",
    "/choice/{interaction_id}/comment": "text=forged",
    "/choice/{interaction_id}/widen": "audience=Mallory&mode=continue",
    "/choice/{interaction_id}/defer": "rationale=forged",
    "/choice/{interaction_id}/quorum": "min_votes=1",
    "/choice/{interaction_id}/resolve": "final_answer=forged",
    "/settings/team": "team=Mallory",
    "/choice/{interaction_id}/default-time": "minutes=99",
    "/d/{secret}/comment": "text=forged",
    "/d/{secret}/vote": "option_ids=a",
}
"""The same for the pages' form posts."""


def writes(portal: PortalProcess, who: Invitee) -> list[tuple[str, str, str | None, dict[str, str]]]:
    """Every state-changing request the app has, filled in for one widened question (`who`
    is a participant of it)."""
    found: list[tuple[str, str, str | None, dict[str, str]]] = []
    for method, template in routes():
        if method in SAFE:
            continue
        path = fill(template, who)
        if method == "WS":
            found.append(("WS", path, None, {}))
        elif method == "MCP":
            found.append(("POST", path, mcp_ask("Forged over MCP"), mcp_session(portal)))
        elif template in WRITE_FORMS:
            found.append((method, path, fill(WRITE_FORMS[template], who, token=portal.token),
                          FORM))
        else:
            found.append((method, path, json.dumps(WRITE_BODIES.get(template, {})), JSON))
    return found


def fill(template: str, who: Invitee, **more: str) -> str:
    return template.format(interaction_id=who.interaction_id,
                           participant_id=who.participant_id, secret=who.secret,
                           attachment_id="a1", file_id="f1", **more)


def refused_write(portal: PortalProcess, method: str, path: str, body: str | None,
                  headers: dict[str, str]) -> tuple[bool, object]:
    """Whether the write was refused for where it came from (403 before anything ran, a
    socket's handshake refused before accept), and what came back. A `Host` among the
    headers is the name the request is for."""
    host = headers.get("Host")
    extra = {k: v for k, v in headers.items() if k not in ("Host", "Origin")}
    if method == "WS":
        status = handshake(portal, path, host=host, origin=headers.get("Origin"), headers=extra)
        return status == 403, status
    if "Origin" in headers:
        extra["Origin"] = headers["Origin"]
    reply = send(portal, method, path, body, extra, host=host)
    refused = reply.status == 403 and refusal_code(reply) in ("origin_not_allowed", "cross_site")
    return refused, (reply.status, reply.text[:200])


