"""Reminders on a moved clock: once per idle period of a widened question, audited, published
for the owner's pages and terminal, and sent to the webhook.

The scan itself is called step by step on a service (so "no reminder now" is a fact, not a
wait); one test runs the real scheduler inside the app, started by its lifespan.
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from litestar.testing import TestClient

from choice.contract import PreferencesPatch, Submission, TeamMember
from choice.core.config import Settings
from choice.core.notifier import Change
from choice.core.service import InteractionService
from choice.portal import create_app
from choice.team.models import CommentBody, WidenRequest
from choice.team.reminders import TeamReminders
from tests.integration.test_service import Clock, request
from tests.integration.test_webhooks import BASE_URL, Owner, secret_of
from tests.reliability.faults import wait_until
from tests.running import built
from tests.webhook_receiver import WebhookReceiver

HOUR = 3600.0


@pytest.fixture
async def service(isolated_env: Path) -> AsyncIterator[InteractionService]:
    settings = Settings.from_env({"CHOICE_DATA_DIR": str(isolated_env),
                                  "CHOICE_REMINDER_MINUTES": "60"})
    settings.prepare_data_dir()
    service = built(settings, Clock())
    await service.start()
    await service.scans.stop()  # the tests scan by hand, on their clock
    await service.update_preferences(PreferencesPatch(team=[TeamMember(name="Alice"),
                                                            TeamMember(name="Bob")]))
    yield service
    await service.stop()
    service.store.close()


async def reminders_sent(service: InteractionService, interaction_id: str) -> list[dict[str, float]]:
    return [(e.detail_json or {}) | {"at": e.at}
            for e in await service.events(interaction_id) if e.kind == "reminder_sent"]


async def test_a_widened_question_idle_for_the_period_is_reminded_once_per_idle_period(
        service: InteractionService) -> None:
    clock = service.clock
    assert isinstance(clock, Clock)
    scheduler = service.scans  # scanned by hand: the fixture stopped its task
    row = (await service.create(request(timeout_seconds=600))).row
    invited = await service.team.widen(row.id, WidenRequest(timeout_seconds=86_400))
    widened_at = invited.widening.widened_at
    heard: list[Change] = []
    with service.notifier.subscribe(["interaction.reminder"]) as subscription:
        clock.advance(HOUR - 60)
        assert await scheduler.scan() == pytest.approx(widened_at + HOUR)
        assert await reminders_sent(service, row.id) == []

        clock.advance(120)
        await scheduler.scan()
        heard.append(subscription.queue.get_nowait())  # type: ignore[arg-type]
        [first] = await reminders_sent(service, row.id)
        assert first["idle_minutes"] == 61

        clock.advance(5 * HOUR)  # still idle: the same idle period, no second reminder
        assert await scheduler.scan() is None
        assert len(await reminders_sent(service, row.id)) == 1 and subscription.queue.empty()

        alice = (await service.store.read(service.team.repo.participants, row.id))[0]
        await service.team.comment(row.id, CommentBody(text="back to it"), alice)
        commented_at = clock()
        clock.advance(HOUR - 1)
        await scheduler.scan()
        assert len(await reminders_sent(service, row.id)) == 1
        clock.advance(2)
        await scheduler.scan()
        heard.append(subscription.queue.get_nowait())  # type: ignore[arg-type]

    second = (await reminders_sent(service, row.id))[1]
    assert second["at"] == pytest.approx(commented_at + HOUR + 1, abs=0.5)
    assert [(c.kind, c.interaction_id, c.data["status"]) for c in heard] == \
        [("interaction.reminder", row.id, "widened")] * 2
    widening = await service.store.read(service.team.repo.widening, row.id)
    assert widening is not None and widening.reminded_at == pytest.approx(second["at"])


async def test_a_decided_question_is_not_reminded(service: InteractionService) -> None:
    clock = service.clock
    assert isinstance(clock, Clock)
    scheduler = service.scans
    row = (await service.create(request())).row
    await service.team.widen(row.id, WidenRequest(timeout_seconds=86_400))
    await service.submit(row.id, Submission(selected_ids=["a"]))
    clock.advance(2 * HOUR)
    assert await scheduler.scan() is None
    assert await reminders_sent(service, row.id) == []


def test_the_running_app_reminds_through_the_webhook_when_the_clock_moves(
        isolated_env: Path) -> None:
    clock = Clock()
    with WebhookReceiver() as receiver:
        settings = dataclasses.replace(Settings.from_env(), webhook_url=receiver.url,
                                       reminder_minutes=60.0, reminder_scan_seconds=0.05,
                                       webhook_retry_seconds=0.2)
        with TestClient(create_app(settings, clock=clock), base_url=BASE_URL) as client:
            owner = Owner(client, (settings.data_dir / "token").read_text().strip())
            owner.call("PUT", "/api/settings", {"team": [{"name": "Alice"}, {"name": "Bob"}]})
            iid = owner.ask()
            links = owner.widen(iid, timeout_seconds=86_400)
            secret = secret_of(links["Bob"])
            assert client.get(f"/api/d/{secret}").status_code == 200
            assert client.put(f"/api/d/{secret}/vote", json={"option_ids": ["pg"]}).status_code == 200
            clock.advance(HOUR + 60)
            receiver.wait_until(lambda got: receiver.delivered("interaction.reminder") != [],
                                what="the reminder")
            [reminder] = receiver.delivered("interaction.reminder")
            wait_until(lambda: owner.events(iid, "reminder_sent") != [], what="reminder audited")
            [audited] = owner.events(iid, "reminder_sent")

    event = reminder.json
    assert reminder.event_type == "interaction.reminder" and event["question"]["interaction_id"] == iid
    assert event["idle_minutes"] == 61 and event["participants"] == 2
    assert event["opened"] == 1 and event["voted"] == 1 and event["comments"] == 0
    assert event["question"]["url"] == f"{BASE_URL}/choice/{iid}"
    assert audited["actor"] == "system" and audited["detail"]["idle_minutes"] == 61


async def test_two_instances_remind_an_idle_period_once_and_activity_since_the_scan_wins(
        service: InteractionService) -> None:
    clock = service.clock
    assert isinstance(clock, Clock)
    first, second = (TeamReminders(service, service.team.repo) for _ in range(2))
    row = (await service.create(request(timeout_seconds=600))).row
    await service.team.widen(row.id, WidenRequest(timeout_seconds=86_400))
    clock.advance(HOUR + 60)
    [widening] = await service.store.read(service.team.repo.open_widenings)
    await first._remind(widening, clock())
    await second._remind(widening, clock())  # read the same idle period: too late
    assert len(await reminders_sent(service, row.id)) == 1

    clock.advance(2 * HOUR)
    [stale] = await service.store.read(service.team.repo.open_widenings)
    alice = (await service.store.read(service.team.repo.participants, row.id))[0]
    await service.team.comment(row.id, CommentBody(text="still here"), alice)
    clock.advance(2 * HOUR)
    await first._remind(stale, clock())  # its scan predates the comment: no reminder
    assert len(await reminders_sent(service, row.id)) == 1
