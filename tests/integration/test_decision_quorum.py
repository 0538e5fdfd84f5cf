"""The team's quorum through the service, on a multi-select question: a vote's ids are
stored in option order, so two participants who tick the same options in a different order
back the same set and resolve it; a set that differs by one option does not."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from choice.contract import Quorum
from choice.core.service import InteractionService
from choice.team.models import VoteBody, WidenRequest
from tests.integration.test_service import Portal, request


@pytest.fixture
async def service(isolated_env: Path) -> AsyncIterator[InteractionService]:
    portal = Portal(isolated_env)
    yield await portal.start()
    await portal.stop()


async def test_the_same_options_ticked_in_another_order_reach_the_quorum(
        service: InteractionService) -> None:
    options = [{"id": i, "label": i.upper()} for i in ("a", "b", "c")]
    row = (await service.create(request(selection_mode="multi", options=options,
                                        max_selections=3))).row
    invited = await service.team.widen(row.id, WidenRequest(
        audience=["Alice", "Bob", "Carol"], quorum=Quorum(min_votes=2)))
    people = [await service.team.participant(p.link.rsplit("/d/", 1)[1])  # type: ignore[union-attr]
              for p in invited.participants]

    assert await service.team.vote(people[0], VoteBody(option_ids=["c", "a"])) == ["a", "c"]
    await service.team.vote(people[1], VoteBody(option_ids=["a", "b", "c"]))
    assert (await service.get(row.id)).status == "widened"  # a superset is another answer
    await service.team.vote(people[2], VoteBody(option_ids=["a", "c"]))

    done = await service.get(row.id)
    result = (done.result_json or {})
    assert (done.status, result["decided_by"], result["selected_ids"]) == (
        "submitted", "quorum", ["a", "c"])
    assert result["summary_json"]["source"] == "quorum"
    assert {v["option_id"]: v["voters"] for v in result["votes"]} == {
        "a": ["Alice", "Bob", "Carol"], "b": ["Bob"], "c": ["Alice", "Bob", "Carol"]}
