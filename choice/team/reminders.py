"""Reminders: when a widened question has had no activity (the widening, a
comment, a vote) for `CHOICE_REMINDER_MINUTES`, remind the owner once per idle period.

The core's scan scheduler (`choice/core/scans.py`) runs this scan of the open widenings (a
handful; one indexed query) every `reminder_scan_seconds`, or sooner when the next reminder
falls due before that. A reminder is written first (`widening.reminded_at` with a `reminder_sent` audit
event, actor `system`), then published as `interaction.reminder`: the owner's pages show a
browser notification, the terminal a line, and the webhook listener queues a message. The
next reminder waits for new activity and another full idle period.

Times are the service's clock, so tests move it instead of waiting an hour. Must not decide
anything about the interaction itself: it only reminds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from choice.contract.clock import iso
from choice.core.actors import SYSTEM
from choice.core.endings import audit
from choice.core.notifier import Change
from choice.core.replies import listing
from choice.store.records import Widening
from choice.store.team import TeamRepository

if TYPE_CHECKING:
    from choice.core.service import InteractionService


def is_due(widening: Widening, idle_seconds: float, at: float) -> bool:
    """Idle long enough, and not yet reminded since the last activity."""
    reminded = widening.reminded_at is not None and widening.reminded_at >= widening.last_activity_at
    return not reminded and widening.last_activity_at + idle_seconds <= at


class TeamReminders:
    """The widened questions' reminder scan (registered on the core's scans)."""

    def __init__(self, service: InteractionService, repo: TeamRepository) -> None:
        self.service = service
        self.repo = repo
        self.idle_seconds = service.settings.reminder_minutes * 60.0

    def wakes_for(self, change: Change) -> float | None:
        """A question just widened is idle from now; nothing else brings a reminder here
        sooner (a deadline does not count: idleness does)."""
        if change.kind == "interaction.widened":
            return self.service.clock() + self.idle_seconds
        return None

    async def scan(self) -> float | None:
        """Send every reminder that is due; returns when the next one could be (None: no
        widened question is waiting for one)."""
        store = self.service.store
        at, soonest = self.service.clock(), None
        for widening in await store.scan(self.repo.open_widenings):
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
        idle = {"reason": "discussion_idle",
                "idle_minutes": int((at - widening.last_activity_at) // 60),
                "idle_since": iso(widening.last_activity_at)}
        event = audit(row.id, "reminder_sent", SYSTEM, idle, at)
        if not await self.service.store.write(self.repo.mark_reminded, row.id,
                                              widening.last_activity_at, at, [event]):
            return  # activity since the scan, or another instance reminded first
        self.service.notifier.publish(
            Change("interaction.reminder", row.id, {**listing(row), **idle}, row))
