"""Persistence: tables, the repository, retention and preferences, behind an async facade.

No database work runs on the event loop. `Store` runs writes on one dedicated thread
(SQLite has one writer anyway, and one thread means no lock waits inside this process); new
interactions are group-committed (`batching.py`). Reads (`read`: a few rows found by an
index; `scan`: rows that grow with the data) run on a small pool of reader threads, on
every database: in WAL mode a SQLite reader never waits for the writer, and a read that
takes long (a cold page cache, a slow disk, a busy checkpoint) holds one reader thread, not
every request the portal serves. A read started after a write has returned sees that write:
the write is committed before `write` returns, and each read is a transaction of its own.
The repository below it is plain synchronous SQLAlchemy. Making a `Store` touches nothing
on disk; `open()` brings its database to the newest schema (`schema.py`, under a lock
shared with other processes).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from choice.store.batching import InsertBatcher
from choice.store.engine import make_engine
from choice.store.records import AuditEvent, Interaction, StoredFile
from choice.store.repository import Repository
from choice.store.schema import upgrade

T = TypeVar("T")
READERS = 4
"""Reader threads: each holds one pooled connection while it reads."""

__all__ = ["AuditEvent", "Interaction", "Repository", "Store"]


class Store:
    def __init__(self, url: str) -> None:
        self.engine = make_engine(url)
        self._opened = False
        self.repo = Repository(self.engine)
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="choice-db-write")
        self._readers = ThreadPoolExecutor(READERS, thread_name_prefix="choice-db-read")
        self._batcher = InsertBatcher(self.repo, self._writer.submit)

    @property
    def shared(self) -> bool:
        """Several portal instances may use this database (PostgreSQL): they tell each
        other of their changes (`remote_changes.py`)."""
        return self.engine.dialect.name == "postgresql"

    def open(self) -> Store:
        """Create or upgrade the database (a no-op once done); before any other call."""
        if not self._opened:
            upgrade(self.engine)
            self._opened = True
        return self

    async def write(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return await self._run(self._writer, fn, *args, **kwargs)

    async def insert(self, row: Interaction, events: Sequence[AuditEvent],
                     max_sessions: int | None = None,
                     files: Sequence[StoredFile] = ()) -> int | None:
        """Store a new interaction (and the files shown with it), group-committed with any
        others arriving meanwhile. With `max_sessions`, apply the count limit and return
        how many are stored."""
        return await self._batcher.insert(row, events, max_sessions, files)

    async def read(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """A read of a few rows found by an index, on a reader thread."""
        return await self._run(self._readers, fn, *args, **kwargs)

    async def scan(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """A read whose rows grow with the data, on a reader thread."""
        return await self._run(self._readers, fn, *args, **kwargs)

    @staticmethod
    async def _run(pool: ThreadPoolExecutor, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(pool, functools.partial(fn, *args, **kwargs))

    def close(self) -> None:
        self._writer.shutdown(wait=True)
        self._readers.shutdown(wait=True)
        self.repo.close()
        self.engine.dispose()
