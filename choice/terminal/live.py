"""Listening to the portal while the terminal UI is open: a deadline moved elsewhere, the
interaction was answered, cancelled or timed out in another window, or (once widened) the
discussion moved: a comment, a vote, a link opened or withdrawn, a reminder that nothing
has happened for a while; its last minute began, or another question still waits for
somebody to open it (a reminder, shown as a line); or the write-back moved: the review was
asked for, the agent's candidate came (or its time ran out), the question was deferred or
taken up again.

A daemon thread reads `GET /api/stream` (server-sent events) and queues what concerns our
interaction; the UI loop takes from the queue between keys. Each time the stream (re)connects
it queues `connected`: whatever happened before the stream was listening (an answer given in
the browser a moment after the UI loaded, a moved deadline) is not in the stream, so the UI
then reads the interaction once to catch up. A stream that ends is opened again.

The stream is read where the UI's `PortalClient` talks: its host and port, over https when
its address is https (a team server behind its proxy), under its path prefix, with its
token. On a team server the portal sends a member only what concerns their own questions
(and those widened to them); this module trusts nothing more than the id it filters by.
"""

from __future__ import annotations

import http.client
import json
import queue
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from choice.contract import WAITING_REASONS
from choice.contract.clock import parse_iso

if TYPE_CHECKING:
    from choice.client.portal_client import PortalClient

RECONNECT_SECONDS = 1.0


@dataclass(frozen=True)
class LiveEvent:
    kind: Literal["connected", "deadline", "completed", "team", "reminder", "deferred",
                  "resumed", "review"]
    expires_at: float | None = None
    status: str | None = None
    change: str | None = None
    """For `team`: comment, vote, opened, revoked, or widened (here or in another window).
    For `review`: review_requested, candidate_submitted, candidate_timed_out or quorum."""
    rationale: str | None = None
    """For `deferred`: why (the owner's words; made safe where it is shown)."""
    other: tuple[str, str] | None = None
    """For a `reminder` of another question still waiting: its id and title (unsafe)."""
    seconds_left: int | None = None


class Live:
    def __init__(self, client: PortalClient, interaction_id: str) -> None:
        self.events: queue.Queue[LiveEvent] = queue.Queue()
        self._client = client
        self._interaction_id = interaction_id
        self.connected = threading.Event()
        threading.Thread(target=self._listen, name="choice-live", daemon=True).start()

    def _listen(self) -> None:
        while True:
            self._stream()
            time.sleep(RECONNECT_SECONDS)  # ended or unreachable: try again at a gentle pace

    def _stream(self) -> None:
        client, interaction_id = self._client, self._interaction_id
        kind_of = http.client.HTTPSConnection if client.https else http.client.HTTPConnection
        conn = kind_of(client.host, client.port, timeout=60)
        try:
            conn.request("GET", client.prefix + "/api/stream", headers={
                "Authorization": f"Bearer {client.token}", "Accept": "text/event-stream"})
            response = conn.getresponse()
            if response.status != 200:
                return
            self.connected.set()
            self.events.put(LiveEvent("connected"))
            kind = ""
            for raw in iter(response.readline, b""):
                line = raw.decode(errors="replace").rstrip("\r\n")
                if line.startswith("event:"):
                    kind = line[6:].strip()
                elif line.startswith("data:"):
                    self._take(kind, line[5:].strip(), interaction_id)
        except OSError:
            return  # the portal went away: the UI notices when it next talks to it
        finally:
            conn.close()

    def _take(self, kind: str, data: str, interaction_id: str) -> None:
        try:
            change = json.loads(data)
        except ValueError:
            return
        if change.get("interaction_id") != interaction_id:
            if kind == "interaction.reminder" and change.get("reason") in WAITING_REASONS:
                self.events.put(LiveEvent(
                    "reminder", change=change["reason"], seconds_left=change.get("seconds_left"),
                    other=(str(change["interaction_id"]), str(change.get("title") or ""))))
            return
        if kind == "interaction.completed":
            self.events.put(LiveEvent("completed", status=change.get("status")))
        elif kind == "interaction.updated" and change.get("expires_at"):
            self.events.put(LiveEvent("deadline", expires_at=parse_iso(change["expires_at"])))
        elif kind == "interaction.widened":
            self.events.put(LiveEvent("team", change="widened"))
        elif kind == "discussion.changed":
            self.events.put(LiveEvent("team", change=str(change.get("change") or "")))
        elif kind == "interaction.reminder":
            self.events.put(LiveEvent("reminder", change=change.get("reason"),
                                      seconds_left=change.get("seconds_left")))
        elif kind == "interaction.deferred":
            self.events.put(LiveEvent("deferred", rationale=str(change.get("rationale") or "")))
        elif kind == "interaction.resumed":
            self.events.put(LiveEvent("resumed"))
        elif kind == "decision.changed":
            self.events.put(LiveEvent("review", change=str(change.get("change") or "")))
