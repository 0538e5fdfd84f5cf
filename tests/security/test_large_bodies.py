"""Large bodies (an answer carrying files): only a few are read at once, and only as many
bytes as one answer of the largest size, the rest are told to come back (503 with
`Retry-After`) before their body is read; a body over its route's limit is refused with 413;
a body for a question that is over is refused before it is read; an answer that breaks a
rule on the way is refused there, before the rest of it is sent; and the bodies that were
let in are answered as if nothing else had happened.
"""

from __future__ import annotations

import base64
import json
import socket
import time

import pytest

from choice.contract.attachments import ANSWER_BODY_MAX
from choice.web.security.large_bodies import AT_ONCE
from tests.portal_process import PortalProcess
from tests.security.conftest import JSON, ask, bearer, send

pytestmark = pytest.mark.slow

LARGE = 512 * 1024
"""Above the app's limit (256 KiB), far below the answer route's."""


def answer_with_file(size: int) -> bytes:
    """A valid answer to `ask`'s question carrying one text file: about `size` bytes."""
    data = base64.b64encode(b"x" * (size * 3 // 4)).decode()
    return json.dumps({"selected_ids": ["a"], "attachments": [
        {"name": "notes.txt", "mime_type": "text/plain", "data": data}]}).encode()


class HeldBody:
    """A request whose head and the first `sent` bytes of its body are sent (announcing
    `announced` bytes, default the body's); the rest waits for `finish`."""

    def __init__(self, portal: PortalProcess, path: str, body: bytes, sent: int = 1024,
                 announced: int | None = None) -> None:
        self.body = body
        self.sent = sent
        self.sock = socket.create_connection(("127.0.0.1", portal.port), timeout=20)
        head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{portal.port}\r\n"
                f"Authorization: Bearer {portal.token}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {announced or len(body)}\r\nConnection: close\r\n\r\n")
        self.sock.sendall(head.encode() + body[:sent])

    def finish(self) -> tuple[int, bytes]:
        self.sock.sendall(self.body[self.sent:])
        return self.reply()

    def reply(self) -> tuple[int, bytes]:
        """The portal's answer, without sending more of the body."""
        received = b""
        while chunk := self.sock.recv(65536):
            received += chunk
        self.sock.close()
        head, _, payload = received.partition(b"\r\n\r\n")
        return int(head.split()[1]), payload


def probe(portal: PortalProcess, size: int = LARGE) -> int:
    """A large answer (announcing `size` bytes) to a question that does not exist: 404 when
    a place is free (refused before its body is read), 503 when none is."""
    if size == LARGE:
        return send(portal, "POST", "/api/interactions/no-such-question/response",
                    b"{" + b" " * LARGE + b"}", {**JSON, **bearer(portal)}).status
    return HeldBody(portal, "/api/interactions/no-such-question/response", b"{",
                    announced=size).reply()[0]


def wait_for_status(portal: PortalProcess, status: int, size: int = LARGE,
                    within: float = 15.0) -> int:
    deadline = time.monotonic() + within
    while True:
        got = probe(portal, size)
        if got == status or time.monotonic() > deadline:
            return got


def test_past_the_places_a_large_body_is_told_to_retry_and_none_is_lost(
        portal: PortalProcess) -> None:
    questions = [ask(portal) for _ in range(AT_ONCE)]
    held = [HeldBody(portal, f"/api/interactions/{iid}/response", answer_with_file(LARGE))
            for iid in questions]
    assert wait_for_status(portal, 503) == 503
    busy = send(portal, "POST", "/api/interactions/no-such-question/response",
                b"{" + b" " * LARGE + b"}", {**JSON, **bearer(portal)})
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
    assert wait_for_status(portal, 404) == 404


def test_two_answers_of_the_largest_size_are_never_read_at_once(portal: PortalProcess) -> None:
    iid = ask(portal)
    size = ANSWER_BODY_MAX * 2 // 3  # two of them are more than one answer of the largest size
    held = HeldBody(portal, f"/api/interactions/{iid}/response", b'{"selected_ids": ["a"]',
                    sent=22, announced=size)
    assert wait_for_status(portal, 503, size) == 503
    # A place is still free for a body that fits beside it.
    assert probe(portal) == 404
    held.sock.close()  # the sender gives up: its place and its bytes come back
    assert wait_for_status(portal, 404, size) == 404
    assert portal.client().call("GET", f"/api/interactions/{iid}")["status"] == "pending"


@pytest.mark.parametrize(("start", "field", "code"), [
    (b'{"selected_ids": ["a"], "attachments": [{}, {}, {}, {}, {}, {}, ', "attachments",
     "too_many"),
    (b'{"selected_ids": ["a"], "global_annotation": "' + b"x" * LARGE + b'", ', "body",
     "too_large"),
    (b'{"selected_ids": ["a"], "x": ' + b"[" * 100, "body", "invalid_json"),
])
def test_an_answer_that_breaks_a_rule_on_the_way_is_refused_there(
        portal: PortalProcess, start: bytes, field: str, code: str) -> None:
    iid = ask(portal)
    held = HeldBody(portal, f"/api/interactions/{iid}/response", start, sent=len(start),
                    announced=ANSWER_BODY_MAX)
    status, payload = held.reply()  # what was sent is all it needs: the rest never comes
    assert status == 422, payload
    error = json.loads(payload)["errors"][0]
    assert (error["field"], error["code"]) == (field, code)
    assert error["message"]
    assert portal.client().call("GET", f"/api/interactions/{iid}")["status"] == "pending"


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
