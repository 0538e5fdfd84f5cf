"""choice/client/portal_client.py and errors.py: what the one HTTP client sends, and the one
family of errors it raises, against a small stand-in server (standard library)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from typing import Any, ClassVar

import pytest

from choice.client import ClientError, InvalidRequest, PortalNotRunning, PortalRefused
from choice.client.errors import START_HINT
from choice.client.portal_client import (
    PortalClient,
    PortalError,
    PortalGone,
    PortalUnreachable,
)
from tests.portal_process import free_port
from tests.stand_in_server import serving


class StandIn(BaseHTTPRequestHandler):
    """Answers every request with the status and body queued for it; records what came."""

    replies: ClassVar[list[tuple[int, bytes]]] = []  # each test's own: see `stand_in`
    seen: ClassVar[list[dict[str, Any]]] = []

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self.seen.append({"method": self.command, "path": self.path,
                          "authorization": self.headers.get("Authorization"),
                          "body": json.loads(self.rfile.read(length)) if length else None})
        status, body = self.replies.pop(0)
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _answer

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def stand_in() -> Iterator[tuple[str, type[StandIn]]]:
    handler = type("Handler", (StandIn,), {"replies": [], "seen": []})
    with serving(handler) as url:
        yield url, handler


def test_the_token_and_a_path_prefix_go_with_every_call(
        stand_in: tuple[str, type[StandIn]]) -> None:
    base_url, handler = stand_in
    handler.replies.append((201, b'{"interaction_id": "i", "status": "pending"}'))
    handler.replies.append((200, b'{"interaction_id": "i", "status": "submitted"}'))
    client = PortalClient(f"{base_url}/portal/", "secret")
    assert client.create({"title": "t"}, wait=5)["status"] == "pending"
    assert client.poll("i", 5, candidates=False)["status"] == "submitted"
    assert [(s["method"], s["path"]) for s in handler.seen] == [
        ("POST", "/portal/api/interactions?wait=5"),
        ("GET", "/portal/api/interactions/i?wait=5&candidates=0")]
    assert {s["authorization"] for s in handler.seen} == {"Bearer secret"}
    assert handler.seen[0]["body"] == {"title": "t"}


def test_a_422_is_an_invalid_request_with_its_field_errors(
        stand_in: tuple[str, type[StandIn]]) -> None:
    base_url, handler = stand_in
    errors = [{"field": "title", "code": "missing", "message": "give a title"}]
    handler.replies.append((422, json.dumps({"errors": errors}).encode()))
    with pytest.raises(InvalidRequest) as raised:
        PortalClient(base_url, "t").create({})
    assert raised.value.status == 422 and raised.value.fields == ["title"]
    assert isinstance(raised.value, PortalError)  # what the terminal catches
    assert "title: give a title" in str(raised.value)


def test_a_wrong_token_says_where_the_right_one_is(stand_in: tuple[str, type[StandIn]]) -> None:
    base_url, handler = stand_in
    handler.replies.append((401, b'{"errors": [{"field": "authorization", "message": "no"}]}'))
    with pytest.raises(PortalRefused) as raised:
        PortalClient(base_url, "wrong").settings()
    assert raised.value.status == 401 and "choice token" in str(raised.value)
    assert not isinstance(raised.value, InvalidRequest)


def test_a_409_keeps_the_whole_body_for_the_standing_result(
        stand_in: tuple[str, type[StandIn]]) -> None:
    base_url, handler = stand_in
    body = {"errors": [{"field": "interaction_id", "code": "already_completed"}],
            "result": {"action_status": "selected"}}
    handler.replies.append((409, json.dumps(body).encode()))
    with pytest.raises(PortalRefused) as raised:
        PortalClient(base_url, "t").respond("i", {"selected_ids": ["a"]})
    assert raised.value.body == body and raised.value.errors[0]["code"] == "already_completed"


def test_a_reply_that_is_not_an_object_is_refused_not_returned(
        stand_in: tuple[str, type[StandIn]]) -> None:
    base_url, handler = stand_in
    handler.replies.append((200, b"<html>a proxy's page</html>"))
    with pytest.raises(PortalRefused) as raised:
        PortalClient(base_url, "t").poll("i", 1)
    assert raised.value.errors[0]["code"] == "not_json"


def test_nothing_listening_is_portal_not_running_with_the_callers_hint() -> None:
    base_url = f"http://127.0.0.1:{free_port()}"
    with pytest.raises(PortalNotRunning) as raised:
        PortalClient(base_url, None, hint=START_HINT).list()
    assert isinstance(raised.value, ConnectionError) and isinstance(raised.value, ClientError)
    assert raised.value.base_url == base_url
    assert "choice serve" in str(raised.value) and "start_portal=True" in str(raised.value)
    with pytest.raises(PortalNotRunning) as plain:
        PortalClient(base_url, None).list()
    assert "start_portal" not in str(plain.value)  # a command's own words, not Python's


def test_the_older_names_are_the_same_classes() -> None:
    assert PortalUnreachable is PortalNotRunning and PortalGone is PortalNotRunning
    assert PortalError is PortalRefused
    assert PortalRefused(409, [{"field": "f", "message": "m"}]).errors == [
        {"field": "f", "message": "m"}]
