"""InteractionService over a real store (a SQLite file, a PostgreSQL database): lifecycle,
restarts, deadlines, retention."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from choice.contract import DeadlineChange, Submission
from choice.contract.errors import AlreadyCompleted
from choice.core.config import Settings
from tests.pg_cluster import chosen_database
from tests.running import Running, built

pytestmark = pytest.mark.usefixtures("backend")


class Clock:
    """Real time plus an offset the test can move forward."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


def request(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"title": "Pick", "prompt": "Context and reason.",
                            "options": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}]}
    body.update(overrides)
    return body


class Portal:
    """Start and restart services on the same database, as the server process would."""

    def __init__(self, data_dir: Path, **env: str) -> None:
        self.settings = Settings.from_env({"CHOICE_DATA_DIR": str(data_dir),
                                           "CHOICE_DB_URL": chosen_database(data_dir), **env})
        self.settings.prepare_data_dir()
        self.clock = Clock()
        self.service: Running | None = None

    async def start(self) -> Running:
        self.service = built(self.settings, self.clock)
        await self.service.start()
        # Reminders are scanned by hand, on the test's clock: no background scan races them.
        await self.service.scans.stop()
        return self.service

    async def stop(self) -> None:
        if self.service is not None:
            await self.service.stop()
            self.service.store.close()
            self.service = None

    async def restart(self) -> Running:
        await self.stop()
        return await self.start()


@pytest.fixture
async def portal(isolated_env: Path) -> AsyncIterator[Portal]:
    portal = Portal(isolated_env)
    await portal.start()
    yield portal
    await portal.stop()


async def test_a_blocked_wait_is_woken_by_a_submit(portal: Portal) -> None:
    service = portal.service
    assert service is not None
    row = (await service.create(request())).row
    waiter = asyncio.create_task(service.wait(row.id, 10))
    await service.submit(row.id, Submission(selected_ids=["b"]))
    done = await asyncio.wait_for(waiter, 5)
    assert done.status == "submitted"
    assert (done.result_json or {})["selected_ids"] == ["b"]


async def test_wait_returns_pending_when_the_window_ends(portal: Portal) -> None:
    assert portal.service is not None
    row = (await portal.service.create(request())).row
    assert (await portal.service.wait(row.id, 0.05)).status == "pending"
    assert portal.service.notifier.waiting == 0


async def test_concurrent_submits_have_exactly_one_winner(portal: Portal) -> None:
    service = portal.service
    assert service is not None
    row = (await service.create(request())).row
    outcomes = await asyncio.gather(
        *(service.submit(row.id, Submission(selected_ids=["a" if i % 2 else "b"]))
          for i in range(20)), return_exceptions=True)
    winners = [o for o in outcomes if not isinstance(o, BaseException)]
    assert len(winners) == 1
    assert all(isinstance(o, AlreadyCompleted) for o in outcomes if o not in winners)
    stored = await service.get(row.id)
    assert stored.result_json == winners[0].result_json
    answered = [e for e in await service.events(row.id) if e.kind == "answered"]
    assert len(answered) == 1


async def test_pending_interaction_survives_a_restart_with_its_deadline(portal: Portal) -> None:
    assert portal.service is not None
    row = (await portal.service.create(request(timeout_seconds=300))).row
    service = await portal.restart()
    back = await service.get(row.id)
    assert back.status == "pending"
    assert back.expires_at == row.expires_at
    assert service.deadlines.deadline_of(row.id) == row.expires_at


async def test_an_answer_after_a_restart_reaches_a_poll_after_the_restart(portal: Portal) -> None:
    assert portal.service is not None
    row = (await portal.service.create(request())).row
    service = await portal.restart()
    waiter = asyncio.create_task(service.wait(row.id, 10))
    await service.submit(row.id, Submission(selected_ids=["a"]))
    assert (await asyncio.wait_for(waiter, 5)).status == "submitted"


async def test_deadline_that_passed_while_down_becomes_timeout(portal: Portal) -> None:
    assert portal.service is not None
    row = (await portal.service.create(request(timeout_seconds=60))).row
    await portal.stop()
    portal.clock.advance(120)
    service = await portal.start()
    done = await service.wait(row.id, 5)
    assert done.status == "timeout"
    result = (done.result_json or {})
    assert result["action_status"] == "timeout" and result["selected_ids"] == []
    assert [e.kind for e in await service.events(row.id)][-1] == "timed_out"


@pytest.mark.parametrize(("on_timeout", "status", "action", "selected"), [
    ("timeout", "timeout", "timeout", []),
    ("cancel", "cancelled", "cancelled", []),
    ("submit_defaults", "auto_submitted", "selected", ["b"]),
])
async def test_on_timeout_is_honoured(portal: Portal, on_timeout: str, status: str, action: str,
                                      selected: list[str]) -> None:
    service = portal.service
    assert service is not None
    row = (await service.create(request(timeout_seconds=10, on_timeout=on_timeout,
                                        default_selection_ids=["b"]))).row
    portal.clock.advance(11)
    service.deadlines.recheck()
    done = await service.wait(row.id, 5)
    result = (done.result_json or {})
    assert (done.status, result["action_status"], result["selected_ids"]) == (status, action, selected)
    if on_timeout == "submit_defaults":
        assert result["submission"] == "timeout_default"


async def test_an_extended_deadline_does_not_expire_at_the_old_one(portal: Portal) -> None:
    service = portal.service
    assert service is not None
    row = (await service.create(request(timeout_seconds=10))).row
    await service.set_deadline(row.id, DeadlineChange(timeout_seconds=600))
    portal.clock.advance(20)
    service.deadlines.recheck()
    assert (await service.wait(row.id, 0.2)).status == "pending"


async def test_a_deadline_moved_after_it_passed_does_not_bring_the_question_back(
        portal: Portal) -> None:
    service = portal.service
    assert service is not None
    row = (await service.create(request(timeout_seconds=10))).row
    portal.clock.advance(11)  # past the deadline, before the scheduler has run
    with pytest.raises(AlreadyCompleted) as late:
        await service.set_deadline(row.id, DeadlineChange(timeout_seconds=600))
    assert late.value.row.status == "timeout"
    assert (await service.get(row.id)).status == "timeout"
    kinds = [event.kind for event in await service.events(row.id)]
    assert "deadline_changed" not in kinds and kinds.count("timed_out") == 1


async def test_a_check_past_the_deadline_is_refused_like_a_submit_and_writes_nothing(
        portal: Portal) -> None:
    service = portal.service
    assert service is not None
    row = (await service.create(request(timeout_seconds=10))).row
    answer = Submission(selected_ids=["a"])
    assert (await service.check(row.id, answer)).status == "submitted"  # in time: it would do
    portal.clock.advance(11)  # past the deadline, before the scheduler has run
    with pytest.raises(AlreadyCompleted) as checked:
        await service.check(row.id, answer)
    assert checked.value.row.status == "timeout"
    # The check wrote nothing. The scheduler may expire it meanwhile (its own `system`
    # event): on a loaded machine it ran between these lines once.
    assert (await service.get(row.id)).status in ("pending", "timeout")
    assert [event.kind for event in await service.events(row.id)
            if event.actor != "system"] == ["created"]
    with pytest.raises(AlreadyCompleted) as submitted:
        await service.submit(row.id, answer)
    assert submitted.value.row.status == checked.value.row.status
    assert (submitted.value.row.result_json or {})["action_status"] == (
        checked.value.row.result_json or {})["action_status"] == "timeout"


async def test_count_limit_drops_the_oldest_completed_first(isolated_env: Path) -> None:
    portal = Portal(isolated_env, CHOICE_MAX_SESSIONS="10")
    service = await portal.start()
    try:
        ids = []
        for index in range(10):
            row = (await service.create(request(title=f"t{index}"))).row
            await service.cancel(row.id)
            ids.append(row.id)
            portal.clock.advance(1)
        newest = [(await service.create(request(title=f"n{i}"))).row.id for i in range(2)]
        kept = {row.id for row in await service.recent("all", 100)}
        assert kept == set(ids[2:]) | set(newest)
    finally:
        await portal.stop()


async def test_in_team_mode_the_count_limit_is_each_members(isolated_env: Path) -> None:
    team = {"CHOICE_AUTH": "oidc", "CHOICE_OIDC_ISSUER": "http://127.0.0.1:9",
            "CHOICE_OIDC_CLIENT_ID": "portal", "CHOICE_OIDC_CLIENT_SECRET": "s",
            "CHOICE_PUBLIC_URL": "http://127.0.0.1:8765"}
    portal = Portal(isolated_env, CHOICE_MAX_SESSIONS="20", **team)
    service = await portal.start()
    ids: dict[str, list[str]] = {"ann": [], "bob": []}
    try:
        for index in range(12):
            for member, made in ids.items():
                row = (await service.create(request(title=f"{member}{index}"),
                                            member_id=member)).row
                await service.cancel(row.id)
                made.append(row.id)
                portal.clock.advance(1)
    finally:
        await portal.stop()
    # Started again with a lower limit: the pruning at start applies it to each member apart.
    portal = Portal(isolated_env, CHOICE_MAX_SESSIONS="10", **team)
    service = await portal.start()
    try:
        for member, made in ids.items():
            kept = {row.id for row in await service.recent("all", 100, member)}
            assert kept == set(made[2:]), member
    finally:
        await portal.stop()


async def test_pending_interactions_are_never_dropped(isolated_env: Path) -> None:
    portal = Portal(isolated_env, CHOICE_MAX_SESSIONS="10", CHOICE_RETENTION_DAYS="1")
    service = await portal.start()
    try:
        ids = {(await service.create(request(timeout_seconds=86_400))).row.id for _ in range(12)}
        portal.clock.advance(3 * 86_400 - 60)
        await service.prune()
        assert {row.id for row in await service.recent("all", 100)} == ids
    finally:
        await portal.stop()


async def test_retention_days_removes_old_completed_on_start(isolated_env: Path) -> None:
    portal = Portal(isolated_env, CHOICE_RETENTION_DAYS="30")
    service = await portal.start()
    old = (await service.create(request())).row
    await service.cancel(old.id)
    await portal.stop()
    portal.clock.advance(31 * 86_400)
    service = await portal.start()
    try:
        fresh = (await service.create(request())).row
        assert [row.id for row in await service.recent("all", 10)] == [fresh.id]
        assert await service.store.read(service.store.repo.events, old.id) == []
    finally:
        await portal.stop()


async def test_preferences_survive_a_restart(portal: Portal) -> None:
    from choice.contract import PreferencesPatch

    assert portal.service is not None
    await portal.service.update_preferences(PreferencesPatch(timeout_seconds=90, language="zh"))
    service = await portal.restart()
    prefs = await service.preferences()
    assert (prefs.timeout_seconds, prefs.language) == (90, "zh")
