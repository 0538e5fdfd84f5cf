"""Fault injection helpers for the reliability tests against a real portal: requests whose
reply may be lost, requests held on open connections and released together, bounded waits
on another process's state, and reading the audit trail. No fixtures, no assertions.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Callable
from typing import Any

from choice.client.portal_client import PortalClient, PortalUnreachable
from tests.portal_process import PortalProcess

Reply = tuple[int, Any]
TERMINAL_EVENTS = frozenset({"answered", "cancelled", "timed_out"})


class ReplyLost(Exception):
    """The request may or may not have reached the portal: no reply came back."""


def question(title: str, option_ids: tuple[str, ...] = ("a", "b"), **overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"title": title, "prompt": "Fault injection: which one?",
                            "options": [{"id": o, "label": o.upper()} for o in option_ids]}
    body.update(overrides)
    return body


def outcome(result: dict[str, Any]) -> tuple[str, str, tuple[str, ...]]:
    """What identifies an acknowledged ending, in a reply or as stored: the interaction,
    its status and the options chosen (what `Seen.answers` compares)."""
    return str(result["interaction_id"]), str(result["status"]), tuple(result["selected_ids"])


def send(client: PortalClient, method: str, path: str, body: Any = None) -> Reply:
    """`client.request`, with every way of losing the reply turned into `ReplyLost`."""
    try:
        return client.request(method, path, body)
    except (PortalUnreachable, http.client.HTTPException) as exc:
        raise ReplyLost(f"{method} {path}: {exc}") from exc


def wait_until(condition: Callable[[], bool], timeout: float = 10.0, what: str = "condition") -> None:
    """Wait for a state of another process, bounded; every check is a real request."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not met within {timeout} s")
        threading.Event().wait(0.01)


def waiting(client: PortalClient) -> int:
    """How many requests are blocked in the portal waiting for an answer (`/healthz`)."""
    return int(client.call("GET", "/healthz")["waiting"])


def terminal_events(client: PortalClient, interaction_id: str) -> list[dict[str, Any]]:
    events = client.call("GET", f"/api/interactions/{interaction_id}/events")["events"]
    return [event for event in events if event["kind"] in TERMINAL_EVENTS]


class HeldRequest:
    """One HTTP request on a connection opened in advance, so that the request itself goes
    out the moment `fire()` is called (a race or a deadline, not a TCP handshake)."""

    def __init__(self, portal: PortalProcess, method: str, path: str, body: Any = None) -> None:
        self.method, self.path = method, path
        self.payload = json.dumps(body).encode() if body is not None else None
        self.headers = {"Authorization": f"Bearer {portal.token}", "Accept": "application/json"}
        if self.payload is not None:
            self.headers["Content-Type"] = "application/json"
        self.conn = http.client.HTTPConnection("127.0.0.1", portal.port, timeout=30)
        self.conn.connect()

    def fire(self) -> Reply:
        try:
            self.conn.request(self.method, self.path, body=self.payload, headers=self.headers)
            response = self.conn.getresponse()
            raw = response.read()
        finally:
            self.conn.close()
        return response.status, json.loads(raw) if raw else None


def race(requests: list[HeldRequest]) -> list[Reply]:
    """Fire every request at once (one thread each, released by one barrier); replies in
    the order of `requests`."""
    barrier = threading.Barrier(len(requests))
    replies: list[Reply | BaseException] = [RuntimeError("no reply")] * len(requests)

    def run(index: int) -> None:
        barrier.wait(timeout=30)
        try:
            replies[index] = requests[index].fire()
        except BaseException as exc:
            replies[index] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(requests))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    for reply in replies:
        if isinstance(reply, BaseException):
            raise reply
    return [reply for reply in replies if not isinstance(reply, BaseException)]
