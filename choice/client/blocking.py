"""`Client.ask` and `ask`: ask a human and block until the decision, through as many poll
windows as it takes.

The question is created with `?wait=`, then polled with `GET /api/interactions/{id}?wait=`
and `candidates=0` (a library caller cannot write the discussion summary an owner may ask
an agent for; the owner then writes the answer by hand). A widened question keeps waiting
(`on_widened` hears it once); a deferred one returns a `Deferral`. If the portal goes away
while waiting (a restart), polling retries for `reconnect_seconds`: pending questions
survive restarts. The async twin is `choice.client.aio`.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from types import TracebackType
from typing import Any

import httpx
from pydantic import BaseModel

from choice.client.connection import Connection, Outage, discover, ensure_started
from choice.client.replies import (
    Answer,
    OnWidened,
    Watch,
    check_poll_seconds,
    checked,
    request_body,
)

RETRY_PACE = 1.0
"""Seconds between tries while the portal restarts (a gentle pace, not a busy loop)."""


class Client:
    """A connection to one portal. `poll_seconds` is each wait window (1 to 60 s): a call
    never blocks on the network for longer than that plus a margin, whatever the
    question's own deadline."""

    def __init__(self, base_url: str | None = None, token: str | None = None, *,
                 start_portal: bool = False, poll_seconds: float = 30.0,
                 reconnect_seconds: float = 30.0) -> None:
        self.connection: Connection = (ensure_started(base_url, token) if start_portal
                                       else discover(base_url, token))
        self.poll_seconds = check_poll_seconds(poll_seconds)
        self.reconnect_seconds = reconnect_seconds
        self._http = httpx.Client(base_url=self.connection.base_url,
                                  headers=self.connection.headers)

    def ask(self, request: Mapping[str, Any] | BaseModel | None = None, /, *,
            on_widened: OnWidened | None = None, **fields: Any) -> Answer:
        """Ask and wait for the decision: a `Result` (answered, cancelled or timed out:
        read `action_status`) or a `Deferral`. Raises `InvalidRequest` (422, with the field
        errors), `PortalNotRunning`, `PortalRefused`."""
        body = request_body(request, fields)
        reply = self._call("POST", "/api/interactions", body, retry=False)
        return self._until_settled(reply, on_widened)

    def collect(self, interaction_id: str, *, on_widened: OnWidened | None = None) -> Answer:
        """Wait for the decision on a question asked earlier (one deferred, or asked by
        another process)."""
        return self._until_settled(self._poll(interaction_id), on_widened)

    def _until_settled(self, reply: dict[str, Any], on_widened: OnWidened | None) -> Answer:
        watch = Watch(on_widened)
        while (answer := watch.answer(reply)) is None:
            reply = self._poll(str(reply["interaction_id"]))
        return answer

    def _poll(self, interaction_id: str) -> dict[str, Any]:
        return self._call("GET", f"/api/interactions/{interaction_id}", None, retry=True,
                          candidates=0)

    def _call(self, method: str, path: str, body: Any, *, retry: bool,
              **params: Any) -> dict[str, Any]:
        outage = Outage(self.connection.base_url, self.reconnect_seconds, retry)
        while True:
            try:
                response = self._http.request(
                    method, path, json=body, params={"wait": self.poll_seconds, **params},
                    timeout=self.poll_seconds + 15)
                break
            except httpx.TransportError as exc:
                outage.give_up_or_go_on(exc)
                time.sleep(RETRY_PACE)  # the portal is restarting: nothing else to wait on
        return checked(response.status_code, response.text)

    def close(self) -> None:
        self._http.close()

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
