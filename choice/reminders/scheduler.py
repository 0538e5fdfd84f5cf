"""Reminders (issue 16 §1, seed §4.1): nobody misses a question that waits for them.

- A pending question nobody has opened (no page, no terminal UI) reminds every
  `CHOICE_REMINDER_MINUTES`, counted from when it was asked; only the newest period is
  sent, so a portal that was down for hours does not send a backlog.
- Every pending question reminds once more 60 s before its deadline (again, if the deadline
  moves), unless it was asked less than two minutes before it: then the "new question"
  notification is recent enough.
- A widened question's owner is reminded when the discussion has been idle that long
  (`choice/team/reminders.py`).

One background task scans both every `reminder_scan_seconds`, or sooner when the next
reminder falls due before that, and at once when a question is asked, moved or widened.
A reminder is recorded first (a `reminder_sent` audit event, actor `system`; each once,
across instances: `choice/store/reminders.py`), then published as `interaction.reminder`
with its `reason` (`unopened`, `deadline` or `discussion_idle`): pages notify (and chime),
an open terminal UI shows a line, and the webhook listener queues a message.

Times are the service's clock, so tests move it instead of waiting. Must not decide
anything about a question: it only reminds.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from choice.contract import WaitingReason
from choice.contract.clock import iso
from choice.core.background import BackgroundTask, woken
from choice.core.config import Settings
from choice.core.notifier import Change
from choice.core.replies import listing
from choice.store.records import AuditEvent
from choice.store.reminders import REMINDER_SENT, Waiting, claim_reminder, reminder_detail, waiting
from choice.team.reminders import TeamReminders

if TYPE_CHECKING:
    from choice.core.service import InteractionService

log = logging.getLogger("choice.reminders.scheduler")
DEADLINE_LEAD = 60.0
"""The last reminder comes this many seconds before the deadline."""
SHORT_QUESTION = 120.0
"""A question asked at most this long before its deadline gets no last-minute reminder."""
WAKE_ON = ("interaction.created", "interaction.updated", "interaction.widened")
"""A new question, a moved deadline or a widening may bring a reminder forward."""
MIN_GAP = 0.5
"""Seconds between two scans at least, however many changes wake the scheduler."""


@dataclass(frozen=True)
class Due:
    reason: WaitingReason
    key: str
    """Which reminder: the period's number for `unopened`, the deadline for `deadline`."""


def reminders_of(question: Waiting, every: float, at: float) -> tuple[list[Due], float | None]:
    """The reminders of one waiting question due at `at`, and when its next one falls due
    (None: no more, unless the question changes)."""
    created_at, expires_at = question.created_at, question.expires_at
    last_call = expires_at - DEADLINE_LEAD
    due: list[Due] = []
    upcoming: list[float] = []
    if expires_at - created_at > SHORT_QUESTION:
        if last_call <= at < expires_at:
            due.append(Due("deadline", iso(expires_at)))
        elif at < last_call:
            upcoming.append(last_call)
    if not question.opened and question.interface != "client":  # `client`: its form is open
        period = int((at - created_at) // every)
        if period >= 1 and at < last_call:
            due.append(Due("unopened", str(period)))
        following = created_at + (period + 1) * every
        if following < last_call:
            upcoming.append(following)
    return due, min(upcoming, default=None)


class WaitingReminders:
    """The pending questions' part of the scan."""

    def __init__(self, service: InteractionService, settings: Settings) -> None:
        self.service = service
        self.every = settings.reminder_minutes * 60.0
        self._tried: set[tuple[str, str]] = set()
        """Reminders this instance already claimed or saw claimed: no second write for them."""

    async def scan(self) -> float | None:
        at, soonest = self.service.clock(), None
        questions = await self.service.store.read(waiting, self.service.store.repo)
        still_waiting = {question.interaction_id for question in questions}
        self._tried = {tried for tried in self._tried if tried[0] in still_waiting}
        for question in questions:
            due, upcoming = reminders_of(question, self.every, at)
            for reminder in due:
                await self._remind(question, reminder, at)
            if upcoming is not None:
                soonest = upcoming if soonest is None else min(soonest, upcoming)
        return soonest

    async def _remind(self, question: Waiting, due: Due, at: float) -> None:
        if (question.interaction_id, due.key) in self._tried:
            return
        self._tried.add((question.interaction_id, due.key))
        event = AuditEvent(question.interaction_id, REMINDER_SENT, "system", at,
                           reminder_detail(due.reason, due.key))
        if not await self.service.store.write(claim_reminder, self.service.store.repo, event):
            return  # answered since the scan, or sent before (another instance, a restart)
        row = await self.service.get(question.interaction_id)
        data = {"reason": due.reason, "waiting_minutes": int((at - row.created_at) // 60),
                "seconds_left": max(0, round(row.expires_at - at))}
        self.service.notifier.publish(
            Change("interaction.reminder", row.id, {**listing(row), **data}, row))


class ReminderScheduler:
    def __init__(self, service: InteractionService, settings: Settings) -> None:
        self.service = service
        self.every = settings.reminder_scan_seconds
        self.team = TeamReminders(service, settings)
        self.waiting = WaitingReminders(service, settings)
        self._task = BackgroundTask("choice-reminders", self._run)
        self._changed = asyncio.Event()
        service.notifier.listen(self._heard, remote=True)

    def _heard(self, change: Change) -> None:
        """A reminder may now fall due before the next scan: look again now."""
        if change.kind in WAKE_ON:
            self._changed.set()

    def start(self) -> None:
        self._task.start()

    async def stop(self) -> None:
        await self._task.stop()

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            self._changed.clear()  # before the scan reads: a change after it wakes the wait
            scanned = loop.time()
            try:
                soonest = await self.scan()
            except Exception:  # the database hiccuped: look again at the next scan
                log.exception("the reminder scan failed; trying again in %s s", self.every)
                soonest = None
            wait = self.every if soonest is None else soonest - self.service.clock()
            await woken(self._changed, min(self.every, max(wait, 0.01)))
            # Many questions asked at once wake it as often: one scan per MIN_GAP at most.
            await asyncio.sleep(max(0.0, scanned + MIN_GAP - loop.time()))

    async def scan(self) -> float | None:
        """Send every reminder that is due; returns when the next one could be (None: none
        is in sight)."""
        times = [t for t in (await self.team.scan(), await self.waiting.scan()) if t is not None]
        return min(times, default=None)
