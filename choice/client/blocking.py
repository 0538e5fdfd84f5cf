"""`Client.ask` and `ask`: ask a human and block until the decision, through as many poll
windows as it takes.

The question is created with `?wait=`, then polled with `GET /api/interactions/{id}?wait=`
and `candidates=0` (a library caller cannot write the discussion summary an owner may ask
an agent for; the owner then writes the answer by hand). A widened question keeps waiting
(`on_widened` hears it once); a deferred one returns a `Deferral`. If the portal goes away
while waiting (a restart), polling retries for `reconnect_seconds`: pending questions
survive restarts. The HTTP is `PortalClient`'s and the loop's decisions are `watch.Watch`'s,
shared with `choice ask`; this module adds the Python API's shape: typed requests and
replies, and the start of a portal on request. The async twin is `choice.client.aio`.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import TracebackType
from typing import Any

from pydantic import BaseModel

from choice.client.connection import Connection, discover, ensure_started
from choice.client.errors import START_HINT
from choice.client.portal_client import PortalClient
from choice.client.replies import (
    Answer,
    OnWidened,
    check_poll_seconds,
    heard_widened,
    request_body,
    typed,
)
from choice.client.watch import RECONNECT_SECONDS, follow


class Client:
    """A connection to one portal. `poll_seconds` is each wait window (1 to 60 s): a call
    never blocks on the network for longer than that plus a margin, whatever the
    question's own deadline."""

    def __init__(self, base_url: str | None = None, token: str | None = None, *,
                 start_portal: bool = False, poll_seconds: float = 30.0,
                 reconnect_seconds: float = RECONNECT_SECONDS) -> None:
        self.connection: Connection = (
            ensure_started(base_url, token, hint=START_HINT) if start_portal
            else discover(base_url, token))
        self.poll_seconds = check_poll_seconds(poll_seconds)
        self.reconnect_seconds = reconnect_seconds
        self.portal: PortalClient = self.connection.client(hint=START_HINT)

    def ask(self, request: Mapping[str, Any] | BaseModel | None = None, /, *,
            on_widened: OnWidened | None = None, **fields: Any) -> Answer:
        """Ask and wait for the decision: a `Result` (answered, cancelled or timed out:
        read `action_status`) or a `Deferral`. Raises `InvalidRequest` (422, with the field
        errors), `PortalNotRunning`, `PortalRefused`."""
        created = self.portal.create(request_body(request, fields), wait=self.poll_seconds)
        return self._until_settled(str(created["interaction_id"]), created, on_widened)

    def collect(self, interaction_id: str, *, on_widened: OnWidened | None = None) -> Answer:
        """Wait for the decision on a question asked earlier (one deferred, or asked by
        another process)."""
        return self._until_settled(interaction_id, None, on_widened)

    def _until_settled(self, interaction_id: str, first: dict[str, Any] | None,
                       on_widened: OnWidened | None) -> Answer:
        return typed(follow(lambda: self._poll(interaction_id), first,
                            on_widened=heard_widened(on_widened),
                            reconnect_seconds=self.reconnect_seconds))

    def _poll(self, interaction_id: str) -> dict[str, Any]:
        """One wait window."""
        return self.portal.poll(interaction_id, self.poll_seconds, candidates=False)

    def close(self) -> None:
        """Nothing stays open between calls (a connection per request); kept so that a
        `Client` is a context manager, as it always was."""

    def __enter__(self) -> Client:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


def ask(request: Mapping[str, Any] | BaseModel | None = None, /, *,
        base_url: str | None = None, token: str | None = None, start_portal: bool = False,
        poll_seconds: float = 30.0, on_widened: OnWidened | None = None,
        **fields: Any) -> Answer:
    """Ask a human and wait for the decision (see `Client.ask`)."""
    with Client(base_url, token, start_portal=start_portal, poll_seconds=poll_seconds) as client:
        return client.ask(request, on_widened=on_widened, **fields)
