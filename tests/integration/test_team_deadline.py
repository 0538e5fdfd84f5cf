"""A widened question's deadline: widening with `timeout_seconds` moves it later (never
earlier), the one scheduler expires it at the new deadline and not the old one, the
ending follows `on_timeout` as for any question, and a participant's JSON shows it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from choice.team.models import WidenRequest
from choice.team.payloads import participant_payload
from tests.integration.test_service import Portal, request


@pytest.fixture
async def portal(isolated_env: Path) -> AsyncIterator[Portal]:
    portal = Portal(isolated_env)
    await portal.start()
    yield portal
    await portal.stop()


@pytest.mark.parametrize(("on_timeout", "status", "selected"), [
    ("timeout", "timeout", []),
    ("cancel", "cancelled", []),
    ("submit_defaults", "auto_submitted", ["b"]),
])
async def test_a_widened_question_expires_at_its_new_deadline_as_on_timeout_says(
        portal: Portal, on_timeout: str, status: str, selected: list[str]) -> None:
    service = portal.service
    assert service is not None
    row = (await service.create(request(timeout_seconds=60, on_timeout=on_timeout,
                                        default_selection_ids=["b"]))).row
    invited = await service.team.widen(
        row.id, WidenRequest(audience=["Alice"], mode="continue", timeout_seconds=600))
    assert invited.row.expires_at == pytest.approx(row.created_at + 600, abs=5)
    assert not any("deadline" in warning for warning in invited.warnings)
    assert service.deadlines.deadline_of(row.id) == invited.row.expires_at
    secret = invited.participants[0].link.rsplit("/d/", 1)[1]  # type: ignore[union-attr]

    portal.clock.advance(120)  # past the old deadline
    service.deadlines.recheck()
    assert (await service.wait(row.id, 0.3)).status == "widened"

    portal.clock.advance(600)  # past the new one
    service.deadlines.recheck()
    done = await service.wait(row.id, 5)
    result = (done.result_json or {})
    assert (done.status, result["selected_ids"]) == (status, selected)
    kinds = [event.kind for event in await service.events(row.id)]
    assert kinds.count("deadline_changed") == 1 and kinds[-1] in ("timed_out", "cancelled",
                                                                  "answered")

    participant = await service.team.participant(secret)
    seen = participant_payload(await service.team.open_link(participant), participant)
    assert seen["status"] == status and seen["open"] is False
    assert seen["outcome"]["status"] == status and seen["outcome"]["selected_ids"] == selected


async def test_a_shorter_timeout_keeps_the_deadline_with_a_warning(portal: Portal) -> None:
    service = portal.service
    assert service is not None
    row = (await service.create(request(timeout_seconds=3600))).row
    invited = await service.team.widen(
        row.id, WidenRequest(audience=["Alice"], timeout_seconds=60))
    assert invited.row.expires_at == row.expires_at
    assert any("shorten the deadline" in warning for warning in invited.warnings)
    assert "deadline_changed" not in [e.kind for e in await service.events(row.id)]
    portal.clock.advance(120)  # where the refused, shorter deadline would have been
    service.deadlines.recheck()
    assert (await service.wait(row.id, 0.3)).status == "widened"

