"""A Hypothesis state machine over the core: create, answer, race, cancel, extend, expire and
restart `InteractionService` on one SQLite file, checked against a model after every step.

Owns the lifecycle invariants: every interaction has the status the model says; a terminal
state never changes again (a later answer or cancel gets `AlreadyCompleted` and the stored
result stays as it was); an acknowledged answer survives every restart; a finished
interaction's audit trail holds exactly one terminal event (none while pending); and the
deadline scheduler tracks exactly the pending interactions, with their stored deadlines.
"""

from __future__ import annotations

import asyncio
import math
import tempfile
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    invariant,
    rule,
    run_state_machine_as_test,
)

from choice.contract import TIMEOUT_MAX, DeadlineChange, Submission
from choice.contract.errors import AlreadyCompleted
from choice.contract.field_errors import InvalidInput
from choice.core.config import Settings
from choice.core.service import InteractionService
from choice.store.records import Interaction
from tests.running import built
from tests.tally import faults

T = TypeVar("T")
TERMINAL_EVENTS = {"answered", "cancelled", "timed_out"}
AFTER_TIMEOUT = {"timeout": "timeout", "cancel": "cancelled", "submit_defaults": "auto_submitted"}
ANSWERS = [["a"], ["b"], None, ["nope"]]  # None accepts the defaults; "nope" is no option
SHORTEST = 30
"""The shortest timeout asked for, and the least time any pending interaction has left after
the machine moves the clock: no deadline passes in real time while an example runs, so
nothing expires behind the model's back."""
SETTLE_SECONDS = 2.0
SCRATCH = "/dev/shm" if Path("/dev/shm").is_dir() else None


class Clock:
    """Real time plus an offset the machine moves forward (expiry, time spent down)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


@dataclass
class Expected:
    status: str
    expires_at: float
    created_at: float
    on_timeout: str
    result_json: dict[str, Any] | None = None
    acknowledged: bool = False
    """`submit` returned this answer: from then on it must be stored, across restarts."""


@dataclass
class Counts:
    steps: int = 0
    acknowledged: int = 0
    examples: int = 0
    lost: list[str] = field(default_factory=list)
    """Acknowledged answers an invariant check found missing or changed."""


COUNTS = Counts()


class Lifecycle(RuleBasedStateMachine):
    interactions = Bundle("interactions")

    def __init__(self) -> None:
        super().__init__()
        COUNTS.examples += 1
        # Memory-backed when the system has it: these invariants are about the logic across
        # restarts, not the disk (the kill -9 tests cover durability), and fsync would be
        # most of the run time.
        self.folder = tempfile.TemporaryDirectory(prefix="choice-state-", dir=SCRATCH)
        self.settings = Settings.from_env({"CHOICE_DATA_DIR": self.folder.name})
        self.settings.prepare_data_dir()
        self.clock = Clock()
        self.loop = asyncio.new_event_loop()
        self.model: dict[str, Expected] = {}
        self.service = self.run(self._start())

    # -- plumbing ------------------------------------------------------------------------
    def run(self, work: Coroutine[Any, Any, T]) -> T:
        return self.loop.run_until_complete(work)

    async def _start(self) -> InteractionService:
        service = built(self.settings, self.clock)
        await service.start()
        return service

    async def _stop(self) -> None:
        await self.service.stop()
        self.service.store.close()

    def teardown(self) -> None:
        try:
            self.run(self._stop())
        finally:
            self.loop.close()
            self.folder.cleanup()

    def settle(self) -> None:
        """Move past any deadline closer than `SHORTEST`, wait (bounded) for the scheduler to
        finish every interaction whose deadline has passed, and expect what each one's
        `on_timeout` says."""
        pending = [e.expires_at for e in self.model.values() if e.status == "pending"]
        while close := [d for d in pending if 0 < d - self.clock() <= SHORTEST]:
            self.clock.offset += max(close) - self.clock() + 0.5
        now = self.clock()
        due = [i for i, e in self.model.items() if e.status == "pending" and e.expires_at <= now]
        self.service.deadlines.recheck()
        for interaction_id in due:
            row = self.run(self.service.wait(interaction_id, SETTLE_SECONDS))
            expected = self.model[interaction_id]
            assert row.status == AFTER_TIMEOUT[expected.on_timeout], (interaction_id, row.status)
            expected.status, expected.result_json = row.status, row.result_json

    def refused_after_the_end(self, interaction_id: str, exc: AlreadyCompleted) -> None:
        expected = self.model[interaction_id]
        assert expected.status != "pending", "a pending interaction was refused as completed"
        assert (exc.row.status, exc.row.result_json) == (expected.status, expected.result_json)

    # -- rules -----------------------------------------------------------------------------
    @rule(target=interactions, timeout=st.integers(SHORTEST, 600),
          on_timeout=st.sampled_from(sorted(AFTER_TIMEOUT)))
    def create(self, timeout: int, on_timeout: str) -> str:
        COUNTS.steps += 1
        row = self.run(self.service.create({
            "title": "Pick", "prompt": "The state machine asks.", "timeout_seconds": timeout,
            "options": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}],
            "default_selection_ids": ["a"], "on_timeout": on_timeout,
        })).row
        self.model[row.id] = Expected("pending", row.expires_at, row.created_at, on_timeout)
        return row.id

    @rule(interaction_id=interactions, answer=st.sampled_from(ANSWERS))
    def answer(self, interaction_id: str, answer: list[str] | None) -> None:
        COUNTS.steps += 1
        expected = self.model[interaction_id]
        try:
            row = self.run(self.service.submit(interaction_id, Submission(selected_ids=answer)))
        except AlreadyCompleted as exc:
            self.refused_after_the_end(interaction_id, exc)
            return
        except InvalidInput:
            assert expected.status == "pending" and answer == ["nope"]
            return
        assert expected.status == "pending" and answer != ["nope"]
        assert row.status == "submitted"
        assert (row.result_json or {})["selected_ids"] == (answer or ["a"])
        expected.status, expected.result_json = row.status, row.result_json
        expected.acknowledged = True
        COUNTS.acknowledged += 1

    @rule(interaction_id=interactions, note=st.none() | st.just("changed my mind"))
    def cancel(self, interaction_id: str, note: str | None) -> None:
        COUNTS.steps += 1
        expected = self.model[interaction_id]
        try:
            row = self.run(self.service.cancel(interaction_id, note))
        except AlreadyCompleted as exc:
            self.refused_after_the_end(interaction_id, exc)
            return
        assert expected.status == "pending" and row.status == "cancelled"
        expected.status, expected.result_json = row.status, row.result_json

    @rule(interaction_id=interactions)
    def race(self, interaction_id: str) -> None:
        """An answer and a cancel at the same moment: exactly one wins if it was pending."""
        COUNTS.steps += 1
        expected = self.model[interaction_id]

        async def both() -> list[Any]:
            return await asyncio.gather(
                self.service.submit(interaction_id, Submission(selected_ids=["b"])),
                self.service.cancel(interaction_id, "raced"), return_exceptions=True)

        outcomes = self.run(both())
        winners = [o for o in outcomes if not isinstance(o, BaseException)]
        losers = [o for o in outcomes if isinstance(o, BaseException)]
        assert all(isinstance(loser, AlreadyCompleted) for loser in losers), losers
        assert len(winners) == (1 if expected.status == "pending" else 0), outcomes
        for winner in winners:
            expected.status, expected.result_json = winner.status, winner.result_json
            expected.acknowledged = winner.status == "submitted"
            COUNTS.acknowledged += winner.status == "submitted"
        for loser in losers:
            self.refused_after_the_end(interaction_id, loser)

    @rule(interaction_id=interactions, extra=st.integers(30, 3600))
    def extend(self, interaction_id: str, extra: int) -> None:
        """Move the deadline later (counted from creation, as the API does)."""
        COUNTS.steps += 1
        expected = self.model[interaction_id]
        total = math.ceil(self.clock() - expected.created_at) + extra
        if total > TIMEOUT_MAX:
            return
        try:
            row = self.run(self.service.set_deadline(interaction_id,
                                                     DeadlineChange(timeout_seconds=total)))
        except AlreadyCompleted as exc:
            self.refused_after_the_end(interaction_id, exc)
            return
        assert expected.status == "pending"
        assert row.expires_at == expected.created_at + total
        expected.expires_at = row.expires_at

    @rule(interaction_id=interactions)
    def expire(self, interaction_id: str) -> None:
        """Time passes beyond this interaction's deadline (and maybe others')."""
        COUNTS.steps += 1
        expected = self.model[interaction_id]
        if expected.status == "pending":
            self.clock.offset += expected.expires_at - self.clock() + 0.5
        self.settle()

    @rule(down_for=st.sampled_from([0, 0, 60, 700]))
    def restart(self, down_for: int) -> None:
        """Stop, maybe stay down a while, and start a new service on the same file:
        what was pending comes back, what expired meanwhile times out at once."""
        COUNTS.steps += 1
        self.run(self._stop())
        self.clock.offset += down_for
        self.service = self.run(self._start())
        self.settle()

    # -- invariants ------------------------------------------------------------------------
    def stored(self) -> dict[str, tuple[Interaction, list[str]]]:
        """Every stored interaction with the kinds of its audit events, read in one go."""
        repo = self.service.store.repo

        def read() -> dict[str, tuple[Interaction, list[str]]]:
            return {row.id: (row, [e.kind for e in repo.events(row.id)])
                    for row in repo.recent("all", len(self.model) + 1)}

        return self.run(self.service.store.read(read))

    @invariant()
    def stored_state_and_audit_trail_match_the_model(self) -> None:
        stored = self.stored()
        COUNTS.lost += [f"{interaction_id}: {expected.result_json} stored as "
                        f"{stored[interaction_id][0].result_json if interaction_id in stored else None}"
                        for interaction_id, expected in self.model.items()
                        if expected.acknowledged and (interaction_id not in stored or (
                            stored[interaction_id][0].result_json != expected.result_json))]
        assert stored.keys() == self.model.keys()
        for interaction_id, expected in self.model.items():
            row, events = stored[interaction_id]
            assert row.status == expected.status, (interaction_id, row.status, expected.status)
            if expected.status != "pending":
                assert row.result_json == expected.result_json, interaction_id
            terminal = [kind for kind in events if kind in TERMINAL_EVENTS]
            assert len(terminal) == (expected.status != "pending"), (interaction_id, events)

    @invariant()
    def scheduler_tracks_exactly_the_pending(self) -> None:
        pending = {i: e.expires_at for i, e in self.model.items() if e.status == "pending"}
        assert len(self.service.deadlines) == len(pending)
        for interaction_id, deadline in pending.items():
            assert self.service.deadlines.deadline_of(interaction_id) == deadline


def test_lifecycle_invariants_hold_across_restarts() -> None:
    before = Counts(COUNTS.steps, COUNTS.acknowledged, COUNTS.examples, list(COUNTS.lost))
    with faults("State machine") as seen:
        try:
            run_state_machine_as_test(Lifecycle, settings=settings(
                max_examples=40, stateful_step_count=20, deadline=None, derandomize=True,
                database=None))
        finally:
            seen.tries(COUNTS.steps - before.steps)
            seen.fact("examples", COUNTS.examples - before.examples)
            seen.checked(COUNTS.acknowledged - before.acknowledged,
                         COUNTS.lost[len(before.lost):])
    assert seen.tried > 0 and seen.acknowledged > 0
