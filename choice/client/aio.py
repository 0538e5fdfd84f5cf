"""`AsyncClient.ask` and `ask_async`: the blocking client's loop on `httpx.AsyncClient`,
for asyncio programs (a LangGraph app, an async web handler). Same body, same replies,
same errors and `Deferral` (`choice.client.replies`); it never blocks the event loop (the
portal is found and, with `start_portal=True`, started on a worker thread).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from types import TracebackType
from typing import Any

import httpx
from pydantic import BaseModel

from choice.client.blocking import RETRY_PACE
from choice.client.connection import Connection, Outage, discover, ensure_started
from choice.client.replies import (
    Answer,
    OnWidened,
    Watch,
    check_poll_seconds,
    checked,
    request_body,
)


class AsyncClient:
    """Create with `await AsyncClient.connect(...)`, or use `async with AsyncClient(...)`
    for an explicit `base_url`/`token` (no start)."""

    def __init__(self, connection: Connection, *, poll_seconds: float = 30.0,
                 reconnect_seconds: float = 30.0) -> None:
        self.connection = connection
        self.poll_seconds = check_poll_seconds(poll_seconds)
        self.reconnect_seconds = reconnect_seconds
        self._http = httpx.AsyncClient(base_url=connection.base_url, headers=connection.headers)

    @classmethod
    async def connect(cls, base_url: str | None = None, token: str | None = None, *,
                      start_portal: bool = False, poll_seconds: float = 30.0,
                      reconnect_seconds: float = 30.0) -> AsyncClient:
        """Discover the portal (reading the token file), starting one only if asked."""
        find = ensure_started if start_portal else discover
        connection = await asyncio.to_thread(find, base_url, token)
        return cls(connection, poll_seconds=poll_seconds, reconnect_seconds=reconnect_seconds)

    async def ask(self, request: Mapping[str, Any] | BaseModel | None = None, /, *,
                  on_widened: OnWidened | None = None, **fields: Any) -> Answer:
        """See `Client.ask`: a `Result` or a `Deferral`; the same exceptions."""
        body = request_body(request, fields)
        reply = await self._call("POST", "/api/interactions", body, retry=False)
        return await self._until_settled(reply, on_widened)

    async def collect(self, interaction_id: str, *,
                      on_widened: OnWidened | None = None) -> Answer:
        return await self._until_settled(await self._poll(interaction_id), on_widened)

    async def _until_settled(self, reply: dict[str, Any],
                             on_widened: OnWidened | None) -> Answer:
        watch = Watch(on_widened)
        while (answer := watch.answer(reply)) is None:
            reply = await self._poll(str(reply["interaction_id"]))
        return answer

    async def _poll(self, interaction_id: str) -> dict[str, Any]:
        return await self._call("GET", f"/api/interactions/{interaction_id}", None,
                                retry=True, candidates=0)

    async def _call(self, method: str, path: str, body: Any, *, retry: bool,
                    **params: Any) -> dict[str, Any]:
        outage = Outage(self.connection.base_url, self.reconnect_seconds, retry)
        while True:
            try:
                response = await self._http.request(
                    method, path, json=body, params={"wait": self.poll_seconds, **params},
                    timeout=self.poll_seconds + 15)
                break
            except httpx.TransportError as exc:
                outage.give_up_or_go_on(exc)
                await asyncio.sleep(RETRY_PACE)  # the portal is restarting
        return checked(response.status_code, response.text)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: TracebackType | None) -> None:
        await self.aclose()


async def ask_async(request: Mapping[str, Any] | BaseModel | None = None, /, *,
                    base_url: str | None = None, token: str | None = None,
                    start_portal: bool = False, poll_seconds: float = 30.0,
                    on_widened: OnWidened | None = None, **fields: Any) -> Answer:
    """Ask a human and await the decision (see `Client.ask`)."""
    client = await AsyncClient.connect(base_url, token, start_portal=start_portal,
                                       poll_seconds=poll_seconds)
    async with client:
        return await client.ask(request, on_widened=on_widened, **fields)
