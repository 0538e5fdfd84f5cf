"""Shared by the network half of the security suite: raw HTTP to the real portal (every
header, the `Host` included, is the test's own choice), the signed-in browser cookie, and
what "nothing changed" means (an interaction's row and audit trail, the settings, the count).
"""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from tests.portal_process import PortalProcess
from tests.sign_in import owner_cookie

JSON = {"Content-Type": "application/json"}
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
MCP_ACCEPT = {"Accept": "application/json, text/event-stream"}
Body = bytes | str | Iterable[bytes] | None


@dataclass(frozen=True)
class Reply:
    status: int
    headers: http.client.HTTPMessage
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def text(self) -> str:
        return self.body.decode(errors="replace")


def send(portal: PortalProcess, method: str, path: str, body: Body = None,
         headers: dict[str, str] | None = None, *, host: str | None = None) -> Reply:
    """One request on a fresh connection. `Host` is ours unless `host` says otherwise; a
    body given as an iterator goes chunked, with no Content-Length."""
    sent = {"Host": host if host is not None else f"127.0.0.1:{portal.port}", **(headers or {})}
    chunked = body is not None and not isinstance(body, (bytes, str))
    conn = http.client.HTTPConnection("127.0.0.1", portal.port, timeout=10)
    try:
        conn.request(method, path, body=body, headers=sent, encode_chunked=chunked)
        response = conn.getresponse()
        return Reply(response.status, response.headers, response.read())
    finally:
        conn.close()


def bearer(portal: PortalProcess) -> dict[str, str]:
    return {"Authorization": f"Bearer {portal.token}"}


def signed_in(portal: PortalProcess, host: str | None = None) -> dict[str, str]:
    """The cookie a browser holds after `/login` (on `host`, e.g. the public name)."""
    return owner_cookie(portal.base_url, portal.token, host)


def ask(portal: PortalProcess, **overrides: Any) -> str:
    """A pending web question with options `a` and `b`; returns its id."""
    request = {"title": "Pick one", "prompt": "Context and reason.", "interface": "web",
               "options": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}], **overrides}
    return str(portal.client().create(request)["interaction_id"])


@pytest.fixture(scope="package")
def network_portal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PortalProcess]:
    """One real portal for the four network modules (hosts and origins, credentials,
    headers and safe GETs, bodies and static): each test compares what it touches before
    and after, so they can share it, and the suite pays for one start instead of four.
    Those modules point their `portal` at it; other modules here keep their own."""
    process = PortalProcess(tmp_path_factory.mktemp("network-portal")).start()
    yield process
    process.stop()


@pytest.fixture
def pending(portal: PortalProcess) -> str:
    """A fresh pending question on the module's portal."""
    return ask(portal)


def snapshot(portal: PortalProcess, interaction_id: str) -> dict[str, Any]:
    """Everything a refused request must leave alone: the row (status, deadline, result)
    and the audit trail, timestamps included."""
    client = portal.client()
    return {"detail": client.call("GET", f"/api/interactions/{interaction_id}/detail"),
            "events": client.call("GET", f"/api/interactions/{interaction_id}/events")["events"]}


def interaction_count(portal: PortalProcess) -> int:
    return len(portal.client().call("GET", "/api/interactions?status=all&limit=200")["interactions"])


def settings_of(portal: PortalProcess) -> dict[str, Any]:
    return dict(portal.client().call("GET", "/api/settings"))


def state_of(portal: PortalProcess, interaction_id: str) -> dict[str, Any]:
    """The interaction, how many there are, and the saved settings: what no refused
    request may change."""
    return {"interaction": snapshot(portal, interaction_id), "count": interaction_count(portal),
            "settings": settings_of(portal)}


def field_errors(reply: Reply) -> list[dict[str, str]]:
    """The body of every error the portal answers: `{"errors": [{field, code, message}]}`."""
    assert reply.headers.get_content_type() == "application/json", reply.headers
    errors = reply.json()["errors"]
    assert errors and isinstance(errors, list)
    for error in errors:
        assert set(error) == {"field", "code", "message"}, error
        assert all(isinstance(value, str) and value for value in error.values()), error
    return list(errors)


def first_error(reply: Reply) -> dict[str, str] | None:
    """The first error when the body is the portal's error shape (what `field_errors`
    checks), else None: for counting a refusal without stopping at the first that is not."""
    if reply.headers.get_content_type() != "application/json":
        return None
    try:
        errors = reply.json()["errors"]
    except (ValueError, KeyError, TypeError):
        return None
    if not errors or not isinstance(errors, list) or not all(
            isinstance(error, dict) and set(error) == {"field", "code", "message"}
            and all(isinstance(value, str) and value for value in error.values())
            for error in errors):
        return None
    return dict(errors[0])


def refusal_code(reply: Reply) -> str | None:
    """`first_error`'s code, or None."""
    error = first_error(reply)
    return error["code"] if error else None


def chunks(data: bytes, size: int = 16 * 1024) -> Iterator[bytes]:
    """A body sent with `Transfer-Encoding: chunked`, so the server cannot know its size
    from a Content-Length header."""
    for start in range(0, len(data), size):
        yield data[start:start + size]


def mcp_session(portal: PortalProcess) -> dict[str, str]:
    """The headers of an initialized MCP session (token included), as a client holds them."""
    headers = {**bearer(portal), **JSON, **MCP_ACCEPT}
    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "security-suite", "version": "1"}}}
    reply = send(portal, "POST", "/mcp", json.dumps(hello), headers)
    assert reply.status == 200, reply.text
    headers["mcp-session-id"] = reply.headers["mcp-session-id"]
    ready = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    assert send(portal, "POST", "/mcp", json.dumps(ready), headers).status == 202
    return headers


def mcp_ask(title: str = "Asked over MCP") -> str:
    """A `tools/call` that would create an interaction if it got through. The terminal
    interface makes the tool answer at once instead of waiting for a human."""
    return json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "provide_choice", "arguments": {
            "title": title, "prompt": "Context.", "interface": "terminal",
            "options": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}]}}})
