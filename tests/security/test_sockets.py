"""What one socket, one link and one session can hold: the portal's sockets take no message
over 4 KiB (1009; the server had buffered up to 16 MiB a frame, and 60 sockets of one link
took it from 336 MB to 2 GB), one participant link keeps at most 8 pages live and one
signed-in session its cap (the oldest closes with 4409), and a participant's socket lives
no longer than its question or its link (4410, 4404).
"""

from __future__ import annotations

import base64
import json
import os
import socket
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from litestar.exceptions import WebSocketDisconnect
from litestar.testing import TestClient
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from choice.portal import create_app
from choice.web.live.socket_limits import (
    INBOUND_BYTES,
    LINK_HANDSHAKES,
    LINK_SOCKETS,
    TOO_BIG,
)
from tests.portal_process import PortalProcess
from tests.security.conftest import JSON, bearer, send, signed_in
from tests.security.team import Invitee, comment, same_origin, widened
from tests.sign_in import client_cookie
from tests.tally import attacks

pytestmark = pytest.mark.slow

STILL_OPEN = "still open"
WAIT = 10.0
"""How long a socket that should be closed is given before it counts as left open."""
OVERSIZED: list[tuple[str, Any]] = [
    ("text, one byte over", "x" * (INBOUND_BYTES + 1)),
    ("binary, 64 KiB", b"\0" * 65_536),
    ("text, 1 MiB", "x" * 2**20),
    ("16 fragments of 1 KiB", ["x" * 1024] * 16),
    ("2,100 two-byte characters", "\u00e9" * 2_100),  # fewer characters than the limit
]


@pytest.fixture(scope="module")
def portal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PortalProcess]:
    process = PortalProcess(tmp_path_factory.mktemp("sockets-portal")).start()
    yield process
    process.stop()


@pytest.fixture
def sockets() -> Iterator[ExitStack]:
    """Closes every socket a test opened, whatever happened."""
    with ExitStack() as stack:
        yield stack


def opened(sockets: ExitStack, portal: PortalProcess, path: str,
           headers: dict[str, str] | None = None) -> ClientConnection:
    return sockets.enter_context(connect(
        f"ws://127.0.0.1:{portal.port}{path}", origin=Origin(f"http://127.0.0.1:{portal.port}"),
        additional_headers=headers or {}, open_timeout=5))


def handshake(portal: PortalProcess, path: str) -> bytes:
    """A WebSocket opening handshake for `path`, from the portal's own origin."""
    key = base64.b64encode(os.urandom(16)).decode()
    return (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{portal.port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"Origin: http://127.0.0.1:{portal.port}\r\n\r\n").encode()


def server_frames(data: bytes) -> list[tuple[int, bytes]]:
    """The (opcode, payload) of each unmasked frame in `data`, as a server sends them."""
    frames = []
    while data:
        opcode, length, start = data[0] & 0x0F, data[1] & 0x7F, 2
        if length >= 126:
            start = 4 if length == 126 else 10
            length = int.from_bytes(data[2:start], "big")
        frames.append((opcode, data[start:start + length]))
        data = data[start + length:]
    return frames


def participant_page(sockets: ExitStack, portal: PortalProcess, who: Invitee) -> ClientConnection:
    """A participant's page's socket, past its first message (the deadline)."""
    socket = opened(sockets, portal, f"/ws/d/{who.secret}")
    assert json.loads(socket.recv(timeout=5))["type"] == "deadline"
    return socket


def owner_tab(sockets: ExitStack, portal: PortalProcess, interaction_id: str) -> ClientConnection:
    socket = opened(sockets, portal, f"/ws/choice/{interaction_id}", signed_in(portal))
    assert json.loads(socket.recv(timeout=5))["type"] == "deadline"
    return socket


def closing(socket: ClientConnection, timeout: float = WAIT) -> tuple[object, list[Any]]:
    """The code the server closes `socket` with (reading what comes before it), or
    `STILL_OPEN` if nothing closes it within `timeout`; and what it heard first."""
    heard: list[Any] = []
    try:
        while True:
            heard.append(json.loads(socket.recv(timeout=timeout)))
    except ConnectionClosed as closed:
        return (closed.rcvd.code if closed.rcvd is not None else None), heard
    except TimeoutError:
        return STILL_OPEN, heard


def test_a_message_over_4_kib_closes_either_socket_with_1009(portal: PortalProcess,
                                                             sockets: ExitStack) -> None:
    (who,) = widened(portal, ["Ann"])
    with attacks("Sockets") as seen:
        for name, message in OVERSIZED:
            for kind, socket in (("participant", participant_page(sockets, portal, who)),
                                 ("owner", owner_tab(sockets, portal, who.interaction_id))):
                try:
                    socket.send(message)
                except ConnectionClosed as closed:  # closed while the message was going out
                    # The server ends the connection right after its close frame; a client
                    # still writing may meet the reset before it reads that frame.
                    code: object = closed.rcvd.code if closed.rcvd is not None else "reset"
                    seen.refused_if(code in (1009, "reset"), (kind, name, "sending", code))
                else:
                    code, _heard = closing(socket)
                    seen.refused_if(code == 1009, (kind, name, code))


def test_a_refused_message_is_answered_with_1009_and_the_connection_ends(
        portal: PortalProcess) -> None:
    """The server's side of the close, on a raw socket whose frame says it is 1 MiB: the
    server refuses it from its header, sends a close frame (1009) and ends the connection
    without waiting for the rest of the message."""
    (who,) = widened(portal, ["Ann"])
    with socket.create_connection(("127.0.0.1", portal.port), timeout=WAIT) as raw:
        raw.sendall(handshake(portal, f"/ws/d/{who.secret}"))
        received = b""
        while b"\r\n\r\n" not in received:
            received += raw.recv(4096)
        assert received.startswith(b"HTTP/1.1 101"), received[:40]
        raw.sendall(bytes([0x81, 0x80 | 127]) + (2**20).to_bytes(8, "big") + b"mask"
                    + b"x" * 1024)
        received = received.split(b"\r\n\r\n", 1)[1]
        while chunk := raw.recv(4096):  # up to the server's end of the connection
            received += chunk
        *_before, (opcode, payload) = server_frames(received)
        assert (opcode, int.from_bytes(payload[:2], "big")) == (0x8, TOO_BIG), (opcode, payload)


def test_a_small_message_is_ignored_and_the_page_stays_live(portal: PortalProcess,
                                                            sockets: ExitStack) -> None:
    """The control: what a proxy's or an extension's ping might send changes nothing."""
    (who,) = widened(portal, ["Ann"])
    socket = participant_page(sockets, portal, who)
    socket.send("x" * 100)
    assert comment(portal, who, "still here", same_origin(portal)).status == 201
    heard = json.loads(socket.recv(timeout=WAIT))
    assert heard["type"] == "discussion"


def test_a_link_keeps_at_most_8_pages_live_and_the_oldest_close_first(
        portal: PortalProcess, sockets: ExitStack) -> None:
    ann, ben = widened(portal, ["Ann", "Ben"])
    extra = 3
    pages = [participant_page(sockets, portal, ann) for _ in range(LINK_SOCKETS + extra)]
    bens = participant_page(sockets, portal, ben)
    with attacks("Sockets") as seen:
        seen.fact("extra_pages", extra)
        for page in pages[:extra]:
            code, heard = closing(page)
            seen.refused_if(code == 4409 and not heard, ("oldest page", code, heard))
        assert comment(portal, ben, "who hears this?", same_origin(portal)).status == 201
        for page in [*pages[extra:], bens]:  # the newest 8, and another link's page
            message = json.loads(page.recv(timeout=WAIT))
            assert message["type"] == "discussion", message


def test_a_link_reconnecting_in_a_loop_is_refused_before_it_is_looked_up(
        portal: PortalProcess, sockets: ExitStack) -> None:
    """A script whose oversized message closes its socket reconnects at once, again and
    again: each handshake used to cost the link's lookup and a page's worth of work. Past
    `LINK_HANDSHAKES` in 10 s a link's handshakes are refused unread, and another
    link's page still opens."""
    ann, ben = widened(portal, ["Ann", "Ben"])
    url = f"ws://127.0.0.1:{portal.port}/ws/d/{ann.secret}"
    origin = Origin(f"http://127.0.0.1:{portal.port}")
    with attacks("Sockets") as seen:
        seen.fact("handshakes", LINK_HANDSHAKES)
        for _ in range(LINK_HANDSHAKES):  # within the window: each one opens
            with connect(url, origin=origin, open_timeout=5) as page:
                assert json.loads(page.recv(timeout=5))["type"] == "deadline"
        try:
            with connect(url, origin=origin, open_timeout=5):
                refused: object = "opened"
        except InvalidStatus as refusal:
            refused = refusal.response.status_code
        seen.refused_if(refused == 403, ("one handshake too many", refused))
    participant_page(sockets, portal, ben)  # another link is not held back


def test_a_participants_socket_closes_when_its_question_ends(portal: PortalProcess,
                                                             sockets: ExitStack) -> None:
    ann, ben = widened(portal, ["Ann", "Ben"])
    live = participant_page(sockets, portal, ann)
    with attacks("Sockets") as seen:
        cancelled = send(portal, "POST", f"/api/interactions/{ann.interaction_id}/cancel",
                         "{}", {**bearer(portal), **JSON})
        assert cancelled.status == 200, cancelled.text
        code, heard = closing(live)
        told = [message["type"] for message in heard]
        seen.refused_if(code == 4410 and told[-1:] == ["closed"], ("live page", code, told))
        late = opened(sockets, portal, f"/ws/d/{ben.secret}")
        code, heard = closing(late)
        statuses = [message.get("status") for message in heard]
        seen.refused_if(code == 4410 and statuses == ["cancelled"], ("after the end", code, heard))


def test_a_participants_socket_closes_when_the_link_is_withdrawn(portal: PortalProcess,
                                                                 sockets: ExitStack) -> None:
    ann, _ben = widened(portal, ["Ann", "Ben"])
    live = participant_page(sockets, portal, ann)
    with attacks("Sockets") as seen:
        withdrawn = send(portal, "DELETE", f"/api/interactions/{ann.interaction_id}"
                         f"/participants/{ann.participant_id}", None, bearer(portal))
        assert withdrawn.status == 204, withdrawn.text
        code, _heard = closing(live)
        seen.refused_if(code == 4404, ("live page", code))
        late = opened(sockets, portal, f"/ws/d/{ann.secret}")
        code, heard = closing(late)
        seen.refused_if(code == 4404 and not heard, ("after the withdrawal", code, heard))


def test_a_session_past_its_cap_loses_its_oldest_tab() -> None:
    """The owner's cap (`SESSION_SOCKETS`, 1,024) is lowered to 3 here: the rule, not the
    figure, is under test (the reliability suite holds 1,000 on one session)."""
    app = create_app()
    tabs = app.dependencies["tabs"].dependency()
    tabs.sessions.most = 3
    base = "http://127.0.0.1:8765"
    with TestClient(app, base_url=base) as client, attacks("Sockets") as seen:
        token = client.app.dependencies["credentials"].dependency().token
        iid = client.post("/api/interactions", headers={"Authorization": f"Bearer {token}"},
                          json={"title": "T", "prompt": "P.", "interface": "web",
                                "options": [{"id": "a", "label": "A"}]}).json()["interaction_id"]
        cookie = client_cookie(client, token)
        headers = {**cookie, "Origin": base}
        with ExitStack() as stack:
            tabs_open = [stack.enter_context(client.websocket_connect(f"/ws/choice/{iid}",
                                                                      headers=headers))
                         for _ in range(4)]
            assert all(tab.receive_json()["type"] == "deadline" for tab in tabs_open)
            try:
                heard: object = tabs_open[0].receive(timeout=WAIT)
            except WebSocketDisconnect as closed:
                heard = closed.code
            seen.refused_if(heard == 4409, ("oldest tab", heard))
            assert tabs.sessions.count(cookie["Cookie"].split("=", 1)[1]) == 3
