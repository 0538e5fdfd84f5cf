"""Reminders: nobody misses a question that waits for them.

- A pending question nobody has opened (no page, no terminal UI) reminds every
  `CHOICE_REMINDER_MINUTES`, counted from when it was asked; only the newest period is
  sent, so a portal that was down for hours does not send a backlog.
- Every pending question reminds once more 60 s before its deadline (again, if the deadline
  moves), unless it was asked less than two minutes before it: then the "new question"
  notification is recent enough.
- (A widened question's owner is reminded when its discussion has been idle that long: the
  team's own scan, `choice/team/reminders.py`.)

The core's scans (`choice/core/scans.py`) run this scan every `reminder_scan_seconds`, or
sooner when the next reminder falls due before that; a question asked or moved brings the
next scan forward to its own next reminder (`wakes_for`), without a scan of every question.
A reminder is recorded first (a `reminder_sent` audit event, actor `system`; each once,
across instances: `choice/store/reminders.py`), then published as `interaction.reminder`
with its `reason` (`unopened`, `deadline` or `discussion_idle`): pages notify (and chime),
an open terminal UI shows a line, and the webhook listener queues a message.

Times are the service's clock, so tests move it instead of waiting. Must not decide
anything about a question: it only reminds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec import Struct

from choice.contract import WaitingReason
from choice.contract.clock import iso
from choice.core.actors import SYSTEM
from choice.core.extension import Extension
from choice.core.notifier import Change
from choice.core.replies import listing
from choice.store.records import AuditEvent, Interaction
from choice.store.reminders import REMINDER_SENT, Waiting, claim_reminder, reminder_detail, waiting

if TYPE_CHECKING:
    from choice.core.service import InteractionService

DEADLINE_LEAD = 60.0
"""The last reminder comes this many seconds before the deadline."""
SHORT_QUESTION = 120.0
"""A question asked at most this long before its deadline gets no last-minute reminder."""


class Due(Struct, frozen=True):
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


class WaitingReminders(Extension):
    """The waiting questions' reminders: a scan registered on the core's scans."""

    def __init__(self, service: InteractionService) -> None:
        self.service = service
        self.every = service.settings.reminder_minutes * 60.0
        service.scans.add(self.scan, self.wakes_for)
        self._tried: set[tuple[str, str]] = set()
        """Reminders this instance already claimed or saw claimed: no second write for them."""

    def wakes_for(self, change: Change) -> float | None:
        """A question asked, or its deadline moved: its own next reminder, taken as if
        nobody had opened it (at worst one scan too early). A widened one waits on its
        team, not here: nothing sooner."""
        row, now = change.row, self.service.clock()
        if not isinstance(row, Interaction):
            return None if change.kind == "interaction.widened" else now
        if row.status != "pending":
            return None
        question = Waiting(row.id, row.created_at, row.expires_at, row.interface, opened=False)
        due, upcoming = reminders_of(question, self.every, now)
        return now if due else upcoming

    async def scan(self) -> float | None:
        at, soonest = self.service.clock(), None
        questions = await self.service.store.scan(waiting, self.service.store.repo)
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
        event = AuditEvent(question.interaction_id, REMINDER_SENT, SYSTEM.stored, at,
                           reminder_detail(due.reason, due.key))
        if not await self.service.store.write(claim_reminder, self.service.store.repo, event):
            return  # answered since the scan, or sent before (another instance, a restart)
        row = await self.service.get(question.interaction_id)
        data = {"reason": due.reason, "waiting_minutes": int((at - row.created_at) // 60),
                "seconds_left": max(0, round(row.expires_at - at))}
        self.service.notifier.publish(
            Change("interaction.reminder", row.id, {**listing(row), **data}, row))
