"""Scans: one background task that runs every registered scan (the reminders of waiting
questions, of idle discussions) and sleeps until the soonest time one of them says it has
something due, or `reminder_scan_seconds`, whichever comes first.

It looks again at once when a question is asked, its deadline moves or it is widened (a
reminder may fall due sooner), but scans at most every `MIN_GAP` seconds however many
changes wake it. A scan that fails is logged and tried again at the next round. Times are
the service's clock.

Must not: know what a scan does. Features register theirs (`Scans.add`) before start.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from choice.core.background import BackgroundTask, woken
from choice.core.notifier import Change, LocalNotifier

log = logging.getLogger("choice.core.scans")
Scan = Callable[[], Awaitable[float | None]]
"""Does what is due now; returns when it next has something due (None: nothing in sight)."""
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
        self._task = BackgroundTask("choice-scans", self._run)
        self._changed = asyncio.Event()
        notifier.listen(self._heard, remote=True)

    def add(self, scan: Scan) -> None:
        self._scans.append(scan)

    def _heard(self, change: Change) -> None:
        if change.kind in WAKE_ON:
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
            self._changed.clear()  # before the scan reads: a change after it wakes the wait
            scanned = loop.time()
            try:
                soonest = await self.scan()
            except Exception:  # the database hiccuped: look again at the next scan
                log.exception("a scan failed; trying again in %s s", self.every)
                soonest = None
            wait = self.every if soonest is None else soonest - self.clock()
            await woken(self._changed, min(self.every, max(wait, 0.01)))
            # Many questions asked at once wake it as often: one scan per MIN_GAP at most.
            await asyncio.sleep(max(0.0, scanned + MIN_GAP - loop.time()))
