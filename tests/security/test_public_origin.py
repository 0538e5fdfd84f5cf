"""Team mode behind a TLS proxy (`CHOICE_PUBLIC_URL=https://choice.example`): the proxy
forwards `Host: choice.example` to the portal's plain-HTTP port, and the browser says
`Origin: https://choice.example`. That origin must be accepted on writes and socket
handshakes (the port comparison alone would refuse it), every other one still refused,
and every link the portal hands out must start with the public URL.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator

import pytest
from websockets.sync.client import connect
from websockets.typing import Origin

from tests.portal_process import PortalProcess
from tests.security.conftest import (
    JSON,
    MCP_ACCEPT,
    ask,
    bearer,
    send,
    signed_in,
)
from tests.security.team import team_state, widened
from tests.security.writes import handshake, refused_write, writes
from tests.tally import attacks

pytestmark = pytest.mark.slow

PUBLIC = "https://choice.example"
HOST = "choice.example"


@pytest.fixture(scope="module")
def portal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PortalProcess]:
    process = PortalProcess(tmp_path_factory.mktemp("public-portal"),
                            CHOICE_PUBLIC_URL=PUBLIC).start()
    yield process
    process.stop()


FOREIGN = ["https://evil.example", "http://choice.example:1234", "https://choice.example.evil",
           "http://choice.example", "https://choice.example:8443", "https://evil.example:443",
           "https://choice.example@evil.example", "null"]
"""Origins that must stay foreign: other sites, the public name on another scheme or port,
names that start like it."""
MALFORMED = ["https://choice.example/", "https://choice.example:0443", "https://choice.example:443/",
             "HTTPS://choice.example", "https://Choice.example", "https://choice.example.",
             "wss://choice.example", "https://user@choice.example", "https://choice.example/d/x"]
"""The public origin written as no browser writes it (RFC 6454 §6.1): foreign too."""


def question() -> str:
    return json.dumps({"title": "Through the proxy", "prompt": "Context.",
                       "options": [{"id": "a", "label": "A"}]})


def test_the_public_origin_may_write_through_the_proxy(portal: PortalProcess) -> None:
    iid = ask(portal)
    headers = {**bearer(portal), **signed_in(portal, HOST), **JSON, "Origin": PUBLIC,
               "Sec-Fetch-Site": "same-origin"}
    created = send(portal, "POST", "/api/interactions", question(), headers, host=HOST)
    assert created.status == 201, created.text
    assert created.json()["url"].startswith(f"{PUBLIC}/choice/")
    answered = send(portal, "POST", f"/api/interactions/{iid}/response",
                    '{"selected_ids": ["a"]}', headers, host=HOST)
    assert answered.status == 200, answered.text
    # A proxy that forwards its upstream's name as the Host (nginx's default) still works.
    moved = send(portal, "POST", "/api/interactions", question(), headers)
    assert moved.status == 201, moved.text


def test_the_public_origin_may_open_a_socket(portal: PortalProcess) -> None:
    """The owner's tabs and a participant's page, through the proxy: the participant's
    socket hears its question's deadline."""
    (who,) = widened(portal, ["Ann"])
    for path in (f"/ws/choice/{who.interaction_id}", "/ws/portal", f"/ws/d/{who.secret}"):
        assert handshake(portal, path, host=HOST, origin=PUBLIC,
                         headers=signed_in(portal, HOST) if "/d/" not in path else {}) == 101, path
    sock = socket.create_connection(("127.0.0.1", portal.port), timeout=5)
    with connect(f"ws://{HOST}/ws/d/{who.secret}", sock=sock, origin=Origin(PUBLIC),
                 open_timeout=5) as live:
        assert json.loads(live.recv(timeout=5))["type"] == "deadline"


def test_the_mcp_guard_agrees_on_the_public_origin(portal: PortalProcess) -> None:
    hello = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "public", "version": "1"}}})
    headers = {**bearer(portal), **JSON, **MCP_ACCEPT}
    ours = send(portal, "POST", "/mcp", hello, {**headers, "Origin": PUBLIC}, host=HOST)
    assert ours.status == 200, ours.text
    with attacks("Team: public origin") as seen:
        foreign = send(portal, "POST", "/mcp", hello, {**headers, "Origin": FOREIGN[0]},
                       host=HOST)
        seen.refused_if(foreign.status == 403, (FOREIGN[0], foreign.status))


def test_every_other_origin_is_still_refused(portal: PortalProcess) -> None:
    """Every write route and socket of the app (`writes`), for the public name and for the
    portal's own address, from other sites and from the public origin written as no
    browser writes it."""
    who, _other = widened(portal, ["Ann", "Ben"])
    hosts = (HOST, f"127.0.0.1:{portal.port}")
    credentials = {host: {**bearer(portal), **signed_in(portal, host)} for host in hosts}
    targets = writes(portal, who)
    before = team_state(portal, who.interaction_id)
    with attacks("Team: public origin") as seen:
        for origin in FOREIGN + MALFORMED:
            for host in hosts:
                for method, path, body, headers in targets:
                    refused, answer = refused_write(
                        portal, method, path, body,
                        {**credentials[host], **headers, "Origin": origin, "Host": host})
                    seen.refused_if(refused, (origin, host, method, path, answer))
        seen.unchanged(before, team_state(portal, who.interaction_id))


def test_links_handed_out_start_with_the_public_url(portal: PortalProcess) -> None:
    client = portal.client()
    iid = ask(portal)
    polled = client.call("GET", f"/api/interactions/{iid}")
    widened = client.call("POST", f"/api/interactions/{iid}/widen",
                          {"audience": ["Alice"], "mode": "continue"})
    discussion = client.call("GET", f"/api/interactions/{iid}/discussion")
    after = client.call("GET", f"/api/interactions/{iid}")
    assert polled["url"] == f"{PUBLIC}/choice/{iid}"
    assert widened["participants"][0]["link"].startswith(f"{PUBLIC}/d/")
    assert discussion["thread_url"] == f"{PUBLIC}/choice/{iid}"
    assert after["status"] == "widened" and after["url"] == f"{PUBLIC}/choice/{iid}"
