"""Group commit for new interactions.

Creates arriving while the writer thread is busy are written together in one transaction:
one durable commit (fsync) for the batch instead of one each. Every caller still returns
only after its own row is committed. If a batch fails, its rows are retried one by one so
one bad row fails only its own create.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Sequence
from typing import Any

from choice.store.records import AuditEvent, Interaction, StoredFile
from choice.store.repository import New, Repository

Stored = int | None
"""How many interactions are stored, when the count limit was applied."""
Entry = tuple[New, "asyncio.Future[Stored]"]


def _settle(future: asyncio.Future[Stored], outcome: Stored | BaseException) -> None:
    if future.done():
        return
    if isinstance(outcome, BaseException):
        future.set_exception(outcome)
    else:
        future.set_result(outcome)


class InsertBatcher:
    def __init__(self, repo: Repository, submit_to_writer: Callable[..., Any]) -> None:
        self._repo = repo
        self._submit = submit_to_writer
        self._queued: list[Entry] = []
        self._flush_scheduled = False
        self._lock = threading.Lock()

    async def insert(self, row: Interaction, events: Sequence[AuditEvent],
                     max_sessions: int | None, files: Sequence[StoredFile] = ()) -> Stored:
        loop = asyncio.get_running_loop()
        committed: asyncio.Future[Stored] = loop.create_future()
        with self._lock:
            self._queued.append(((row, events, files), committed))
            schedule = not self._flush_scheduled
            self._flush_scheduled = True
        if schedule:  # a flush that has not started yet will take this row too
            self._submit(self._flush, loop, max_sessions)
        return await committed

    def _flush(self, loop: asyncio.AbstractEventLoop, max_sessions: int | None) -> None:
        """On the writer thread: write everything queued so far, then tell each caller."""
        with self._lock:
            batch, self._queued = self._queued, []
            self._flush_scheduled = False
        try:
            stored = self._repo.insert([new for new, _ in batch], max_sessions)
            outcomes: list[Stored | BaseException] = [stored] * len(batch)
        except Exception:
            outcomes = [self._insert_one(new, max_sessions) for new, _ in batch]
        for (_, future), outcome in zip(batch, outcomes, strict=True):
            loop.call_soon_threadsafe(_settle, future, outcome)

    def _insert_one(self, new: New, max_sessions: int | None) -> Stored | BaseException:
        try:
            return self._repo.insert([new], max_sessions)
        except Exception as error:
            return error
