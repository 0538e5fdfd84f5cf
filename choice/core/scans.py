"""Scans: one background task that runs every registered scan (the reminders of waiting
questions, of idle discussions) and sleeps until the soonest time one of them says it has
something due, or `reminder_scan_seconds`, whichever comes first.

A question asked, its deadline moved or a widening may bring a reminder sooner. A scan that
can say when from the change alone (`wakes_for`: a new question's first reminder is its own
creation plus a period) moves the next scan forward to that time, if it is sooner; the
others run at once. Either way, at most one scan per `MIN_GAP` seconds, however many changes
come: a full scan reads every waiting question, which a busy team must not pay for each
question its agents ask. A scan that fails is logged and tried again at the next round.
Times are the service's clock.

Must not: know what a scan does. Features register theirs (`Scans.add`) before start.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Awaitable, Callable

from choice.core.background import BackgroundTask, woken
from choice.core.notifier import Change, LocalNotifier

log = logging.getLogger("choice.core.scans")
Scan = Callable[[], Awaitable[float | None]]
"""Does what is due now; returns when it next has something due (None: nothing in sight)."""
WakesFor = Callable[[Change], float | None]
"""When `change` may bring a scan something due, read from the change alone (None: nothing
sooner than the scan already knew of)."""
WAKE_ON = ("interaction.created", "interaction.updated", "interaction.widened")
"""A new question, a moved deadline or a widening may bring something forward."""
MIN_GAP = 0.5
"""Seconds between two scans at least, however many changes wake the scheduler."""


class Scans:
    def __init__(self, notifier: LocalNotifier, clock: Callable[[], float],
                 every: float) -> None:
        self.clock = clock
        self.every = every
        self._scans: list[Scan] = []
        self._wakes_for: list[WakesFor | None] = []
        self._task = BackgroundTask("choice-scans", self._run)
        self._changed = asyncio.Event()
        self._wake_at = math.inf
        """When the next scan runs (the service's clock): lowered by a change that brings
        something sooner."""
        notifier.listen(self._heard, remote=True)

    def add(self, scan: Scan, wakes_for: WakesFor | None = None) -> None:
        """`wakes_for`: when a question asked, moved or widened may bring `scan` something
        due; without it, such a change runs every scan at once."""
        self._scans.append(scan)
        self._wakes_for.append(wakes_for)

    def _heard(self, change: Change) -> None:
        if change.kind not in WAKE_ON:
            return
        times = [self.clock() if wakes_for is None else wakes_for(change)
                 for wakes_for in self._wakes_for]
        sooner = min((t for t in times if t is not None), default=math.inf)
        if sooner < self._wake_at:
            self._wake_at = sooner
            self._changed.set()

    def start(self) -> None:
        if self._scans:
            self._task.start()

    async def stop(self) -> None:
        await self._task.stop()

    async def scan(self) -> float | None:
        """Run every scan once; the soonest time one has something due (None: none)."""
        times = [due for scan in self._scans if (due := await scan()) is not None]
        return min(times, default=None)

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            self._wake_at = math.inf  # before the scan reads: a change after it lowers it
            scanned = loop.time()
            try:
                soonest = await self.scan()
            except Exception:  # the database hiccuped: look again at the next scan
                log.exception("a scan failed; trying again in %s s", self.every)
                soonest = None
            self._wake_at = min(self._wake_at, self.clock() + self.every,
                                math.inf if soonest is None else soonest)
            while (wait := self._wake_at - self.clock()) > 0:
                self._changed.clear()
                await woken(self._changed, max(wait, 0.01))
            # Many questions asked at once wake it as often: one scan per MIN_GAP at most.
            await asyncio.sleep(max(0.0, scanned + MIN_GAP - loop.time()))
