"""Retention: what is older than `CHOICE_RETENTION_DAYS`, and the oldest beyond
`CHOICE_MAX_SESSIONS` (in team mode: beyond that many of one member's), goes (undecided
questions never do). Applied on start, hourly, and
on insert once the count may have passed the limit.

Must not: decide anything about a question. The store does the deleting.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from choice.core.background import BackgroundTask
from choice.core.config import Settings
from choice.store import Store

log = logging.getLogger("choice.core.retention")
RETENTION_EVERY = 3600.0


class Retention:
    def __init__(self, store: Store, settings: Settings, clock: Callable[[], float]) -> None:
        self.store, self.settings, self.clock = store, settings, clock
        self.stored = 0
        """How many interactions are stored, give or take other processes: the count limit
        is checked in the database only when this passes it."""
        self._task = BackgroundTask("choice-retention", self._periodically)

    def start(self) -> None:
        self._task.start()

    async def stop(self) -> None:
        await self._task.stop()

    async def prune(self) -> int:
        """Apply retention now; returns how many interactions are stored."""
        s = self.settings
        self.stored = await self.store.write(self.store.repo.prune, self.clock(),
                                             s.retention_days, s.max_sessions)
        return self.stored

    def limit_for_one_more(self) -> int | None:
        """The count limit an insert of one more question must apply, or None while the
        count is surely below it. In team mode the limit is the asking member's, which this
        count of everyone's cannot tell: every insert applies it (a count of that member's
        questions, on its index)."""
        self.stored += 1
        if self.settings.team_mode or self.stored > self.settings.max_sessions:
            return self.settings.max_sessions
        return None

    def counted(self, stored: int | None) -> None:
        """What the insert found (None: it did not count)."""
        if stored is not None:
            self.stored = stored

    async def _periodically(self) -> None:
        while True:
            await asyncio.sleep(RETENTION_EVERY)
            try:
                await self.prune()
            except Exception:
                log.exception("retention failed; will try again in an hour")
