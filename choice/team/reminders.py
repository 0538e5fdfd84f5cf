"""Reminders (seed §4.1): when a widened question has had no activity (the widening, a
comment, a vote) for `CHOICE_REMINDER_MINUTES`, remind the owner once per idle period.

One task for every widened question: it scans the open widenings (a handful; one indexed
query) every `reminder_scan_seconds`, or sooner when the next reminder falls due before
that. A reminder is written first (`widening.reminded_at` with a `reminder_sent` audit
event, actor `system`), then published as `interaction.reminder`: the owner's pages show a
browser notification, the terminal a line, and the webhook listener queues a message. The
next reminder waits for new activity and another full idle period.

Times are the service's clock, so tests move it instead of waiting an hour. Must not decide
anything about the interaction itself: it only reminds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from choice.background import BackgroundTask
from choice.clock import iso
from choice.config import Settings
from choice.endings import audit
from choice.notifier import Change
from choice.replies import listing
from choice.store.records import Widening

if TYPE_CHECKING:
    from choice.service import InteractionService

log = logging.getLogger("choice.reminders")


def is_due(widening: Widening, idle_seconds: float, at: float) -> bool:
    """Idle long enough, and not yet reminded since the last activity."""
    reminded = widening.reminded_at is not None and widening.reminded_at >= widening.last_activity_at
    return not reminded and widening.last_activity_at + idle_seconds <= at


class ReminderScheduler:
    def __init__(self, service: InteractionService, settings: Settings) -> None:
        self.service = service
        self.idle_seconds = settings.reminder_minutes * 60.0
        self.every = settings.reminder_scan_seconds
        self._task = BackgroundTask("choice-reminders", self._run)
        self._widened = asyncio.Event()
        service.notifier.listen(self._heard)

    def _heard(self, change: Change) -> None:
        """A new widening: its reminder may fall due before the next scan (a short
        CHOICE_REMINDER_MINUTES), so the scheduler looks again now."""
        if change.kind == "interaction.widened":
            self._widened.set()

    def start(self) -> None:
        self._task.start()

    async def stop(self) -> None:
        await self._task.stop()

    async def _run(self) -> None:
        while True:
            self._widened.clear()  # before the scan reads: a widening after it wakes the wait
            try:
                soonest = await self.scan()
            except Exception:  # the database hiccuped: look again at the next scan
                log.exception("the reminder scan failed; trying again in %s s", self.every)
                soonest = None
            wait = self.every if soonest is None else soonest - self.service.clock()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._widened.wait(), min(self.every, max(wait, 0.01)))

    async def scan(self) -> float | None:
        """Send every reminder that is due; returns when the next one could be (None: no
        widened question is waiting for one)."""
        store, team = self.service.store, self.service.team
        at, soonest = self.service.clock(), None
        for widening in await store.read(team.repo.open_widenings):
            if is_due(widening, self.idle_seconds, at):
                await self._remind(widening, at)
            elif widening.reminded_at is None or widening.reminded_at < widening.last_activity_at:
                due = widening.last_activity_at + self.idle_seconds
                soonest = due if soonest is None else min(soonest, due)
        return soonest

    async def _remind(self, widening: Widening, at: float) -> None:
        row = await self.service.get(widening.interaction_id)
        if row.status != "widened":  # decided since the scan read it
            return
        idle = {"idle_minutes": int((at - widening.last_activity_at) // 60),
                "idle_since": iso(widening.last_activity_at)}
        event = audit(row.id, "reminder_sent", "system", idle, at)
        if not await self.service.store.write(self.service.team.repo.mark_reminded, row.id,
                                              widening.last_activity_at, at, [event]):
            return  # activity since the scan, or another instance reminded first
        self.service.notifier.publish(
            Change("interaction.reminder", row.id, {**listing(row), **idle}, row))
