"""Changes shared between portal instances on one PostgreSQL database (LISTEN/NOTIFY).

Every change an instance publishes (after it is committed) is announced on the channel
`choice_changes` as a small JSON note: which instance, which kind, which interaction, and
the change's extra data when it fits in PostgreSQL's 8000-byte payload limit. The other
instances hear it on a dedicated listening connection and hand it to `on_remote`, which
reads the row itself (the database, not the note, is the truth). When the listening
connection drops, the relay reconnects with a backoff and calls `on_resync` once listening
again, so the owner re-reads what may have changed unheard: a dropped listener loses no
wake-up. Notes are sent on a second connection, in the order they were published, and a
reply waits for them (`flush`): what a client was told is done, the other instances hear.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

import psycopg
from sqlalchemy import make_url

from choice.core.background import BackgroundTask
from choice.core.notifier import Change

log = logging.getLogger("choice.relay")
CHANNEL = "choice_changes"
PAYLOAD_MAX = 7_900
"""PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; above this the data is left out."""
RECONNECT_FIRST, RECONNECT_MAX = 0.05, 2.0
SEND_QUEUE = 10_000
FLUSH_WAIT = 2.0

RemoteHandler = Callable[[str, str, dict[str, Any]], Awaitable[None]]
"""`(kind, interaction_id, data)` of a change another instance published."""


def libpq_url(sqlalchemy_url: str) -> str:
    """`postgresql+psycopg://...` as libpq takes it (`postgresql://...`)."""
    return make_url(sqlalchemy_url).set(drivername="postgresql").render_as_string(
        hide_password=False)


def note(instance: str, change: Change) -> str:
    """The NOTIFY payload of a change: its data only if the whole note fits."""
    whole = json.dumps({"from": instance, "kind": change.kind, "id": change.interaction_id,
                        "data": change.data}, separators=(",", ":"), default=str)
    if len(whole.encode()) <= PAYLOAD_MAX:
        return whole
    return json.dumps({"from": instance, "kind": change.kind, "id": change.interaction_id,
                       "data": {}}, separators=(",", ":"))


class ChangeRelay:
    def __init__(self, db_url: str, on_remote: RemoteHandler,
                 on_resync: Callable[[], Awaitable[None]]) -> None:
        self.instance = secrets.token_hex(6)
        self._conninfo = libpq_url(db_url)
        self._on_remote = on_remote
        self._on_resync = on_resync
        self._outbox: asyncio.Queue[str] = asyncio.Queue(SEND_QUEUE)
        self._listening = asyncio.Event()
        self._listener = BackgroundTask("choice-relay-listen", self._listen_forever)
        self._sender = BackgroundTask("choice-relay-send", self._send_forever)
        self.reconnects = 0
        self._queued = 0
        self._sent = 0
        self._progress = asyncio.Condition()
        self.lost_at: float | None = None
        """When the listening connection was last found down (None: never)."""

    @property
    def listening(self) -> bool:
        """The listening connection is up (`/healthz` reports it)."""
        return self._listening.is_set()

    def start(self) -> None:
        self._listener.start()
        self._sender.start()

    async def stop(self) -> None:
        await self._listener.stop()
        await self._sender.stop()

    async def until_listening(self, seconds: float) -> None:
        await asyncio.wait_for(self._listening.wait(), seconds)

    def publish(self, change: Change) -> None:
        """Announce a change this instance committed (never blocks the caller)."""
        try:
            self._outbox.put_nowait(note(self.instance, change))
            self._queued += 1
        except asyncio.QueueFull:  # the database is unreachable: resyncs will catch up
            log.warning("change relay queue full: dropping the note of %s", change.kind)

    async def flush(self, seconds: float = FLUSH_WAIT) -> None:
        """Return once every change published so far is announced (bounded: a database
        that does not answer must not hold a reply forever). Called before a reply goes
        out, so an acknowledged change is one the other instances hear of, even if this
        instance dies right after replying."""
        target = self._queued
        if self._sent >= target:
            return
        try:
            async with asyncio.timeout(seconds), self._progress:
                await self._progress.wait_for(lambda: self._sent >= target)
        except TimeoutError:
            log.warning("change relay: %d note(s) not sent after %.1f s; replying anyway",
                        target - self._sent, seconds)

    async def _listen_forever(self) -> None:
        pause = RECONNECT_FIRST
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                        self._conninfo, autocommit=True,
                        application_name=f"choice-listen-{self.instance}") as connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    self._listening.set()
                    pause = RECONNECT_FIRST
                    await self._on_resync()
                    async for notify in connection.notifies():
                        await self._heard(notify.payload)
            except (psycopg.Error, OSError) as error:
                if self._listening.is_set():
                    self.lost_at = time.time()
                self._listening.clear()
                self.reconnects += 1
                log.warning("change relay: listening connection lost (%s); reconnecting in "
                            "%.2f s", error, pause)
            await asyncio.sleep(pause)
            pause = min(pause * 2, RECONNECT_MAX)

    async def _heard(self, payload: str) -> None:
        try:
            message = json.loads(payload)
            if message.get("from") == self.instance:
                return
            await self._on_remote(str(message["kind"]), str(message["id"]),
                                  dict(message.get("data") or {}))
        except Exception:  # one bad note must not stop the listener
            log.exception("change relay: could not act on %.200s", payload)

    async def _send_forever(self) -> None:
        pause = RECONNECT_FIRST
        pending: str | None = None
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                        self._conninfo, autocommit=True) as connection:
                    pause = RECONNECT_FIRST
                    while True:
                        pending = pending or await self._outbox.get()
                        await connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, pending))
                        pending = None
                        self._sent += 1
                        async with self._progress:
                            self._progress.notify_all()
            except (psycopg.Error, OSError) as error:
                log.warning("change relay: sending connection lost (%s); reconnecting", error)
            await asyncio.sleep(pause)
            pause = min(pause * 2, RECONNECT_MAX)
