"""Large bodies (an answer carrying files): only a few are read at once, the rest are told
to come back (503 with `Retry-After`) before their body is read; a body over its route's
limit is refused with 413; a body for a question that is over is refused before it is
read; and the bodies that were let in are answered as if nothing else had happened.
"""

from __future__ import annotations

import base64
import json
import socket
import time

import pytest

from choice.web.api.interactions import ANSWER_BODY_MAX
from choice.web.security.large_bodies import AT_ONCE
from tests.portal_process import PortalProcess
from tests.security.conftest import JSON, Reply, ask, bearer, send

pytestmark = pytest.mark.slow

LARGE = 512 * 1024
"""Above the app's limit (256 KiB), far below the answer route's."""


def answer_with_file(size: int) -> bytes:
    """A valid answer to `ask`'s question carrying one text file: about `size` bytes."""
    data = base64.b64encode(b"x" * (size * 3 // 4)).decode()
    return json.dumps({"selected_ids": ["a"], "attachments": [
        {"name": "notes.txt", "mime_type": "text/plain", "data": data}]}).encode()


class HeldBody:
    """A request whose head and part of its body are sent; the rest waits for `finish`."""

    def __init__(self, portal: PortalProcess, path: str, body: bytes) -> None:
        self.body = body
        self.sock = socket.create_connection(("127.0.0.1", portal.port), timeout=20)
        head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{portal.port}\r\n"
                f"Authorization: Bearer {portal.token}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n")
        self.sock.sendall(head.encode() + body[:1024])

    def finish(self) -> tuple[int, bytes]:
        self.sock.sendall(self.body[1024:])
        received = b""
        while chunk := self.sock.recv(65536):
            received += chunk
        self.sock.close()
        head, _, payload = received.partition(b"\r\n\r\n")
        return int(head.split()[1]), payload


def probe(portal: PortalProcess) -> Reply:
    """A large answer to a question that does not exist: 404 when a place is free (refused
    before its body is read), 503 when every place is taken."""
    return send(portal, "POST", "/api/interactions/no-such-question/response",
                b"{" + b" " * LARGE + b"}", {**JSON, **bearer(portal)})


def wait_for_status(portal: PortalProcess, status: int, within: float = 15.0) -> Reply:
    deadline = time.monotonic() + within
    while True:
        reply = probe(portal)
        if reply.status == status or time.monotonic() > deadline:
            return reply


def test_past_the_places_a_large_body_is_told_to_retry_and_none_is_lost(
        portal: PortalProcess) -> None:
    questions = [ask(portal) for _ in range(AT_ONCE)]
    held = [HeldBody(portal, f"/api/interactions/{iid}/response", answer_with_file(LARGE))
            for iid in questions]
    busy = wait_for_status(portal, 503)
    assert busy.status == 503, busy.text
    assert busy.headers["Retry-After"].isdigit()
    assert busy.json()["errors"][0]["code"] == "busy"
    assert "try again" in busy.json()["errors"][0]["message"]
    # A small body never waits for a place.
    small = send(portal, "GET", f"/api/interactions/{questions[0]}", None, bearer(portal))
    assert small.status == 200

    replies = [body.finish() for body in held]
    assert [status for status, _ in replies] == [200] * AT_ONCE
    client = portal.client()
    for iid in questions:
        result = client.call("GET", f"/api/interactions/{iid}")
        assert result["status"] == "submitted"
        assert [file["name"] for file in result["attachments"]] == ["notes.txt"]
    # The places are free again.
    assert wait_for_status(portal, 404).status == 404


def test_a_body_over_the_answer_limit_is_413_and_the_portal_still_answers(
        portal: PortalProcess) -> None:
    iid = ask(portal)
    sock = socket.create_connection(("127.0.0.1", portal.port), timeout=20)
    head = (f"POST /api/interactions/{iid}/response HTTP/1.1\r\nHost: 127.0.0.1:{portal.port}"
            f"\r\nAuthorization: Bearer {portal.token}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {ANSWER_BODY_MAX + 1}\r\nConnection: close\r\n\r\n")
    sock.sendall(head.encode() + b"{")  # refused on what it announces: nothing more is sent
    received = b""
    while chunk := sock.recv(65536):
        received += chunk
    sock.close()
    assert received.split()[1] == b"413"
    assert b"too large" in received
    assert send(portal, "GET", "/healthz").status == 200
    assert portal.client().call("GET", f"/api/interactions/{iid}")["status"] == "pending"


def test_a_large_answer_to_a_question_that_is_over_is_refused_unread(
        portal: PortalProcess) -> None:
    iid = ask(portal)
    client = portal.client()
    client.call("POST", f"/api/interactions/{iid}/response", {"selected_ids": ["b"]})
    late = HeldBody(portal, f"/api/interactions/{iid}/response", answer_with_file(LARGE))
    # Answered from the head and the first KiB alone: the rest is never needed.
    received = b""
    while chunk := late.sock.recv(65536):
        received += chunk
    late.sock.close()
    assert received.split()[1] == b"409"
    assert client.call("GET", f"/api/interactions/{iid}")["selected_ids"] == ["b"]
