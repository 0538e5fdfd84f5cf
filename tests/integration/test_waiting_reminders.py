"""Reminders of questions still waiting for their person
(docs/guides/browser.md#reminders-of-a-waiting-question), on a moved clock: every
`CHOICE_REMINDER_MINUTES` while nobody has opened the question, once more 60 s before its
deadline; each recorded once in the audit trail (across instances and restarts) and
published as `interaction.reminder` with its reason. On SQLite and PostgreSQL.

The scan is called step by step (so "no reminder now" is a fact, not a wait); the last test
runs the real scheduler in the app, which wakes itself when the next reminder falls due.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from litestar.testing import TestClient

from choice.contract import DeadlineChange, Submission
from choice.contract.clock import iso
from choice.core.actors import Actor
from choice.core.config import Settings
from choice.core.notifier import Change
from choice.core.service import InteractionService
from choice.portal import create_app
from tests.integration.test_service import Clock, Portal, request
from tests.integration.test_webhooks import BASE_URL, Owner
from tests.webhook_receiver import WebhookReceiver

pytestmark = pytest.mark.usefixtures("backend")
MINUTE = 60.0


@pytest.fixture
async def portal(isolated_env: Path) -> AsyncIterator[Portal]:
    portal = Portal(isolated_env, CHOICE_REMINDER_MINUTES="15")
    await portal.start()
    yield portal
    await portal.stop()


def service_of(portal: Portal) -> InteractionService:
    assert portal.service is not None
    return portal.service


async def sent(service: InteractionService, interaction_id: str) -> list[dict[str, str]]:
    """The reminders recorded for the question: their reason and key."""
    return [(e.detail_json or {}) for e in await service.events(interaction_id)
            if e.kind == "reminder_sent"]


def heard(queue: asyncio.Queue[Change | None]) -> list[dict[str, object]]:
    found = []
    while not queue.empty():
        change = queue.get_nowait()
        assert change is not None and change.kind == "interaction.reminder"
        found.append({k: change.data[k] for k in ("interaction_id", "reason", "waiting_minutes",
                                                   "seconds_left")})
    return found


async def test_an_unopened_question_reminds_every_period_and_once_in_its_last_minute(
        portal: Portal) -> None:
    service, clock = service_of(portal), portal.clock
    scheduler = service.scans  # scanned by hand (the harness stops its task)
    row = (await service.create(request(timeout_seconds=3600))).row
    with service.notifier.subscribe(["interaction.reminder"]) as subscription:
        clock.advance(14 * MINUTE)
        assert await scheduler.scan() == pytest.approx(row.created_at + 15 * MINUTE)
        assert await sent(service, row.id) == [] and subscription.queue.empty()

        clock.advance(MINUTE + 1)  # 15 min: the first period
        assert await scheduler.scan() == pytest.approx(row.created_at + 30 * MINUTE)
        assert heard(subscription.queue) == [{"interaction_id": row.id, "reason": "unopened",
                                              "waiting_minutes": 15, "seconds_left": 2699}]
        await scheduler.scan()  # the same period again: nothing more
        assert subscription.queue.empty()

        clock.advance(15 * MINUTE)  # 30 min: the second
        await scheduler.scan()
        assert [h["reason"] for h in heard(subscription.queue)] == ["unopened"]

        clock.advance(29 * MINUTE)  # 59 min + 1 s: the last minute; the 3rd period (45) passed
        await scheduler.scan()      # unsent, and the 4th falls in the last minute: not sent
        [last] = heard(subscription.queue)
        assert last["reason"] == "deadline" and last["seconds_left"] == 59
        assert await scheduler.scan() is None and subscription.queue.empty()

    assert await sent(service, row.id) == [
        {"reason": "unopened", "key": "1"}, {"reason": "unopened", "key": "2"},
        {"reason": "deadline", "key": iso(row.expires_at)}]
    assert {e.actor for e in await service.events(row.id) if e.kind == "reminder_sent"} == \
        {"system"}


async def test_an_opened_question_reminds_only_in_its_last_minute_and_again_when_it_moves(
        portal: Portal) -> None:
    service, clock = service_of(portal), portal.clock
    scheduler = service.scans
    row = (await service.create(request(timeout_seconds=1800))).row
    await service.mark_opened(row.id, "web", Actor.owner("web"))
    clock.advance(20 * MINUTE)
    assert await scheduler.scan() == pytest.approx(row.expires_at - MINUTE)
    assert await sent(service, row.id) == []

    clock.advance(9 * MINUTE + 30)  # 30 s left
    await scheduler.scan()
    assert [s["reason"] for s in await sent(service, row.id)] == ["deadline"]

    await service.set_deadline(row.id, DeadlineChange(expires_at=iso(clock() + 10 * MINUTE)),
                               Actor.owner("web"))  # more time: a new last minute, a new reminder
    assert await scheduler.scan() == pytest.approx(clock() + 9 * MINUTE, abs=1)
    clock.advance(9 * MINUTE + 5)
    await scheduler.scan()
    assert [s["reason"] for s in await sent(service, row.id)] == ["deadline", "deadline"]


async def test_short_answered_and_client_questions_are_not_reminded_and_no_backlog_is_sent(
        portal: Portal) -> None:
    service, clock = service_of(portal), portal.clock
    scheduler = service.scans
    short = (await service.create(request(timeout_seconds=100))).row
    answered = (await service.create(request(timeout_seconds=7200))).row
    await service.submit(answered.id, Submission(selected_ids=["a"]))
    day = (await service.create(request(timeout_seconds=86_400))).row
    clock.advance(60)  # the short one's last minute: asked under two minutes before it
    await scheduler.scan()
    assert await sent(service, short.id) == []

    clock.advance(3 * 3600)  # the portal was away for hours: one reminder, the newest period
    await scheduler.scan()
    assert await sent(service, answered.id) == []
    assert await sent(service, day.id) == [{"reason": "unopened", "key": "12"}]


async def test_two_instances_send_each_reminder_once(isolated_env: Path) -> None:
    first, second = (Portal(isolated_env, CHOICE_REMINDER_MINUTES="15") for _ in range(2))
    one, other = await first.start(), await second.start()
    try:
        row = (await one.create(request(timeout_seconds=3600))).row
        for portal in (first, second):
            portal.clock.advance(16 * MINUTE)
        a, b = one.scans, other.scans
        published: list[Change] = []  # by either instance itself (not heard from the other)
        for service in (one, other):
            service.notifier.listen(
                lambda change: published.append(change)
                if change.kind == "interaction.reminder" else None)
        await asyncio.gather(a.scan(), b.scan())
        assert await sent(one, row.id) == [{"reason": "unopened", "key": "1"}]
        assert len(published) == 1
    finally:
        await first.stop()
        await second.stop()


def test_the_running_app_reminds_pages_and_the_webhook_when_the_period_passes(
        isolated_env: Path) -> None:
    """With `CHOICE_WEBHOOK_CREATED` the webhook hears of personal questions, so of their
    reminders too; a page's socket gets the reminder with its reason."""
    clock = Clock()
    with WebhookReceiver() as receiver:
        settings = dataclasses.replace(Settings.from_env(), webhook_url=receiver.url,
                                       webhook_created=True, reminder_minutes=0.05,
                                       webhook_retry_seconds=0.2)
        with TestClient(create_app(settings, clock=clock), base_url=BASE_URL) as client:
            token = (settings.data_dir / "token").read_text().strip()
            owner = Owner(client, token)
            assert client.get(f"/login?token={token}&next=/", follow_redirects=False) \
                .status_code == 303
            with client.websocket_connect("/ws/portal") as socket:
                iid = owner.ask()
                messages = [socket.receive_json(timeout=5)]
                while messages[-1]["type"] != "reminder" and len(messages) < 10:
                    messages.append(socket.receive_json(timeout=5))
                receiver.wait_until(
                    lambda got: receiver.delivered("interaction.reminder") != [],
                    what="the reminder")
    [delivered, *_] = receiver.delivered("interaction.reminder")
    assert delivered.json["reason"] == "unopened" and delivered.json["waiting_minutes"] == 0
    assert delivered.json["question"]["url"] == f"{BASE_URL}/choice/{iid}"
    reminder = messages[-1]
    assert reminder["type"] == "reminder" and reminder["interaction_id"] == iid
    assert reminder["reason"] == "unopened" and reminder["path"] == f"/choice/{iid}"
