"""`AsyncClient.ask` and `ask_async`: the blocking client's calls and loop, awaited, for
asyncio programs (a LangGraph app, an async web handler).

Same body, same replies, same errors and `Deferral`, same decisions between windows
(`watch.Watch`, driven here with awaits). It never blocks the event loop: each call of the
one HTTP client (`PortalClient`, standard library) runs on a daemon thread of its own and
the loop awaits its outcome. Why threads, not an async HTTP stack: one client then knows the
portal's endpoints, headers, token and errors, and the commands that must start fast share
it; a call happens once per wait window (30 s by default), so a thread per call costs
nothing that matters, and with no pool there is no limit on how many questions wait at once.
A daemon thread, not `asyncio.to_thread`: an awaiting task that is cancelled leaves its
thread to finish the window (at most `poll_seconds` plus a margin) without holding up the
interpreter's exit, which `asyncio.run` would otherwise wait for.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Mapping
from types import TracebackType
from typing import Any, TypeVar

from pydantic import BaseModel

from choice.client.connection import Connection, discover, ensure_started
from choice.client.errors import START_HINT, PortalNotRunning
from choice.client.replies import (
    Answer,
    OnWidened,
    check_poll_seconds,
    heard_widened,
    request_body,
    typed,
)
from choice.client.watch import RECONNECT_SECONDS, PollAgain, Settled, Step, Watch

T = TypeVar("T")


async def in_thread(call: Callable[[], T]) -> T:
    """`call()` on a daemon thread of its own, awaited."""
    loop = asyncio.get_running_loop()
    outcome: asyncio.Future[T] = loop.create_future()

    def settle(value: T | None, error: BaseException | None) -> None:
        if outcome.done():  # the awaiting task was cancelled meanwhile
            return
        if error is not None:
            outcome.set_exception(error)
        else:
            outcome.set_result(value)  # type: ignore[arg-type]

    def run() -> None:
        try:
            value, error = call(), None
        except BaseException as exc:  # handed to the awaiting task
            value, error = None, exc
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody awaits it
            loop.call_soon_threadsafe(settle, value, error)

    threading.Thread(target=run, name="choice-client", daemon=True).start()
    return await outcome


class AsyncClient:
    """Create with `await AsyncClient.connect(...)`, or use `async with AsyncClient(...)`
    for an explicit `base_url`/`token` (no start)."""

    def __init__(self, connection: Connection, *, poll_seconds: float = 30.0,
                 reconnect_seconds: float = RECONNECT_SECONDS) -> None:
        self.connection = connection
        self.poll_seconds = check_poll_seconds(poll_seconds)
        self.reconnect_seconds = reconnect_seconds
        self.portal = connection.client(hint=START_HINT)

    @classmethod
    async def connect(cls, base_url: str | None = None, token: str | None = None, *,
                      start_portal: bool = False, poll_seconds: float = 30.0,
                      reconnect_seconds: float = RECONNECT_SECONDS) -> AsyncClient:
        """Discover the portal (reading the token file), starting one only if asked."""
        if start_portal:
            connection = await in_thread(lambda: ensure_started(base_url, token, hint=START_HINT))
        else:
            connection = await in_thread(lambda: discover(base_url, token))
        return cls(connection, poll_seconds=poll_seconds, reconnect_seconds=reconnect_seconds)

    async def ask(self, request: Mapping[str, Any] | BaseModel | None = None, /, *,
                  on_widened: OnWidened | None = None, **fields: Any) -> Answer:
        """See `Client.ask`: a `Result` or a `Deferral`; the same exceptions."""
        body = request_body(request, fields)
        created = await in_thread(lambda: self.portal.create(body, wait=self.poll_seconds))
        return await self._until_settled(str(created["interaction_id"]), created, on_widened)

    async def collect(self, interaction_id: str, *,
                      on_widened: OnWidened | None = None) -> Answer:
        return await self._until_settled(interaction_id, None, on_widened)

    async def _until_settled(self, interaction_id: str, first: dict[str, Any] | None,
                             on_widened: OnWidened | None) -> Answer:
        """`watch.follow`, awaited: the same steps, `asyncio.sleep` for a restart."""
        heard = heard_widened(on_widened)
        watch = Watch(self.reconnect_seconds)
        step: Step = PollAgain() if first is None else watch.replied(first)
        while not isinstance(step, Settled):
            if isinstance(step, PollAgain):
                if step.widened is not None and heard is not None:
                    heard(step.widened)
            else:
                await asyncio.sleep(step.seconds)  # the portal is restarting
            try:
                step = watch.replied(await self._poll(interaction_id))
            except PortalNotRunning as error:
                step = watch.failed(error)
        return typed(step.reply)

    async def _poll(self, interaction_id: str) -> dict[str, Any]:
        return await in_thread(
            lambda: self.portal.poll(interaction_id, self.poll_seconds, candidates=False))

    async def aclose(self) -> None:
        """Nothing stays open between calls; kept for `async with` and older callers."""

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
