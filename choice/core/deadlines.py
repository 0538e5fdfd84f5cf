"""Deadlines: the one scheduler (a heap of (deadline, id), one task, no polling), and the
rules for moving a deadline.

Moving a deadline pushes a new heap entry and forgets the old one lazily (entries whose
deadline no longer matches are skipped when they surface). The task sleeps until the
earliest deadline or until an earlier one is scheduled.
"""

from __future__ import annotations

import asyncio
import heapq
import logging
from collections.abc import Awaitable, Callable

from choice.contract import TIMEOUT_MAX, DeadlineChange, FieldError
from choice.contract.clock import now, parse_iso
from choice.contract.field_errors import InvalidInput
from choice.core.background import BackgroundTask, woken

log = logging.getLogger("choice.core.deadlines")
RETRY = 1.0


class DeadlineScheduler:
    def __init__(self, on_deadline: Callable[[str], Awaitable[None]],
                 clock: Callable[[], float] = now) -> None:
        self._on_deadline = on_deadline
        self._clock = clock
        self._heap: list[tuple[float, str]] = []
        self._deadlines: dict[str, float] = {}
        self._changed = asyncio.Event()
        self._task = BackgroundTask("choice-deadlines", self._run)

    def schedule(self, interaction_id: str, deadline: float) -> None:
        self._deadlines[interaction_id] = deadline
        heapq.heappush(self._heap, (deadline, interaction_id))
        if self._heap[0] == (deadline, interaction_id):
            self._changed.set()

    def forget(self, interaction_id: str) -> None:
        self._deadlines.pop(interaction_id, None)

    def recheck(self) -> None:
        """Look at the earliest deadline again now (after the clock jumped, e.g. on resume)."""
        self._changed.set()

    def deadline_of(self, interaction_id: str) -> float | None:
        return self._deadlines.get(interaction_id)

    def __len__(self) -> int:
        return len(self._deadlines)

    def start(self) -> None:
        self._task.start()

    async def stop(self) -> None:
        await self._task.stop()

    def _pop_due(self) -> list[str]:
        due, current = [], self._clock()
        while self._heap and self._heap[0][0] <= current:
            deadline, interaction_id = heapq.heappop(self._heap)
            if self._deadlines.get(interaction_id) == deadline:
                del self._deadlines[interaction_id]
                due.append(interaction_id)
        return due

    async def _run(self) -> None:
        while True:
            for interaction_id in self._pop_due():
                try:
                    await self._on_deadline(interaction_id)
                except Exception:  # one bad row must not stop every other deadline
                    log.exception("expiring %s failed; retrying in %s s", interaction_id, RETRY)
                    self.schedule(interaction_id, self._clock() + RETRY)
            self._changed.clear()
            delay = self._heap[0][0] - self._clock() if self._heap else None
            if delay is not None and delay <= 0:
                continue
            await woken(self._changed, delay)


def new_deadline(created_at: float, change: DeadlineChange, current: float) -> float:
    """The deadline a `DeadlineChange` asks for, or `InvalidInput` saying how to fix it."""
    given = [name for name in ("timeout_seconds", "expires_at") if getattr(change, name)]
    if len(given) != 1:
        raise InvalidInput([FieldError(
            field="body", code="one_of",
            message="send exactly one of timeout_seconds (total, counted from creation) "
                    "or expires_at (ISO 8601 with a timezone).")])
    if change.timeout_seconds is not None:
        deadline, field = created_at + change.timeout_seconds, "timeout_seconds"
    else:
        field = "expires_at"
        try:
            deadline = parse_iso(change.expires_at or "")
        except ValueError:
            raise InvalidInput([FieldError(
                field=field, code="invalid_format",
                message="expires_at must be ISO 8601 with a timezone, "
                        "e.g. 2030-01-01T12:00:00Z.")]) from None
    if deadline <= current + 1:
        raise InvalidInput([FieldError(
            field=field, code="in_the_past",
            message="that deadline has already passed: choose a later one.")])
    if deadline > current + TIMEOUT_MAX:
        raise InvalidInput([FieldError(
            field=field, code="out_of_range",
            message=f"a deadline may be at most {TIMEOUT_MAX} s from now: choose an earlier one.")])
    return deadline
