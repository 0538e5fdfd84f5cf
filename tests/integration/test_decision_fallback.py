"""The review's fallback (no candidate in time: docs/guides/write-back.md#on-the-page) on a
fake clock: `InteractionService` gets a clock the test moves forward, and
`DecisionService`'s scheduler reads the same clock, so the `CHOICE_SUMMARY_SECONDS` period
(the default 30 s here) passes in no real time. No candidate by `requested_at + 30 s`: the
review times out once (`llm_timed_out`, an empty `manual` candidate) and the agent is no
longer asked; a candidate in time stops the timer; a restart sets the timer again from the
database; asking again starts a new period."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from choice.core.extension import ReplyHints
from choice.core.notifier import Subscription
from choice.core.service import InteractionService
from choice.decision.models import CandidateBody
from choice.team.models import CommentBody, WidenRequest
from tests.integration.test_service import Portal, request

PERIOD = 30.0
HEARD = 5.0
"""Bound on hearing a change the scheduler makes once the clock has passed its time."""
QUIET = 0.3
"""How long nothing must be heard, to say the scheduler did not fire."""
CANDIDATE = CandidateBody(candidate_summary="Everyone wants B.", candidate_answer="B")


@pytest.fixture
async def portal(isolated_env: Path) -> AsyncIterator[Portal]:
    portal = Portal(isolated_env)  # CHOICE_SUMMARY_SECONDS unset: the default 30 s
    service = await portal.start()
    assert service.settings.summary_seconds == PERIOD
    yield portal
    await portal.stop()


async def in_review(service: InteractionService) -> str:
    row = (await service.create(request(timeout_seconds=3600))).row
    await service.team.widen(row.id, WidenRequest(audience=["Alice"], mode="block"))
    await service.team.comment(row.id, CommentBody(text="B, clearly."))
    review = await service.decision.request_review(row.id)
    assert review.state == "awaiting_candidate"
    return row.id


async def fallback_heard(subscription: Subscription, timeout: float) -> bool:
    """Whether a `candidate_timed_out` change is published within `timeout`."""
    try:
        async with asyncio.timeout(timeout):
            while True:
                change = await subscription.queue.get()
                if change is not None and change.data.get("change") == "candidate_timed_out":
                    return True
    except TimeoutError:
        return False


def advance(portal: Portal, seconds: float) -> None:
    assert portal.service is not None
    portal.clock.advance(seconds)
    portal.service.decision.reviews.recheck()  # the scheduler sleeps on real time


async def test_no_candidate_in_the_period_falls_back_to_the_owner_once(portal: Portal) -> None:
    service = portal.service
    assert service is not None
    with service.notifier.subscribe(["decision.changed"]) as heard:
        iid = await in_review(service)
        assert await service.decision.agent_turn(await service.get(iid))

        advance(portal, PERIOD - 1)
        assert not await fallback_heard(heard, QUIET), "fired before the period ended"
        assert (await service.decision.review(iid)).state == "awaiting_candidate"

        advance(portal, 2)
        assert await fallback_heard(heard, HEARD)
        review = await service.decision.review(iid)
        assert (review.state, review.llm_timed_out, review.source_hint) == (
            "timed_out", True, "manual")
        assert (review.candidate_summary, review.candidate_answer) == ("", "")
        assert not await service.decision.agent_turn(await service.get(iid))
        reply = (await service.reply(await service.get(iid), ReplyHints("poll again"))).to_json()
        assert reply["action_status"] == "widened"  # no summary asked of the agent now

        advance(portal, PERIOD * 3)
        assert not await fallback_heard(heard, QUIET), "the fallback fires once"
    kinds = [event.kind for event in await service.events(iid)]
    assert kinds.count("candidate_timed_out") == 1

    late = await service.decision.submit_candidate(iid, CANDIDATE)  # still welcome
    assert (late.state, late.llm_timed_out, late.candidate_answer) == ("candidate_ready", False,
                                                                       "B")
    submitted = [e for e in await service.events(iid) if e.kind == "candidate_submitted"]
    assert (submitted[-1].detail_json or {})["late"] is True


async def test_a_candidate_in_time_stops_the_timer(portal: Portal) -> None:
    service = portal.service
    assert service is not None
    with service.notifier.subscribe(["decision.changed"]) as heard:
        iid = await in_review(service)
        advance(portal, PERIOD / 2)
        await service.decision.submit_candidate(iid, CANDIDATE)
        assert service.decision.reviews.deadline_of(iid) is None
        advance(portal, PERIOD)
        assert not await fallback_heard(heard, QUIET)
    assert (await service.decision.review(iid)).state == "candidate_ready"


async def test_asking_again_starts_a_new_period(portal: Portal) -> None:
    service = portal.service
    assert service is not None
    with service.notifier.subscribe(["decision.changed"]) as heard:
        iid = await in_review(service)
        advance(portal, PERIOD + 1)
        assert await fallback_heard(heard, HEARD)
        again = await service.decision.request_review(iid)
        assert (again.state, again.llm_timed_out) == ("awaiting_candidate", False)
        advance(portal, PERIOD - 1)
        assert not await fallback_heard(heard, QUIET)
        advance(portal, 2)
        assert await fallback_heard(heard, HEARD)
    assert [e.kind for e in await service.events(iid)].count("candidate_timed_out") == 2


async def test_a_restart_sets_the_timer_again_from_the_database(portal: Portal) -> None:
    service = portal.service
    assert service is not None
    iid = await in_review(service)
    requested = (await service.decision.review(iid)).requested_at
    advance(portal, PERIOD - 5)
    service = await portal.restart()
    due = service.decision.reviews.deadline_of(iid)
    decision = await service.decision.decision(iid)
    assert decision is not None and decision.review_requested_at is not None
    assert due == decision.review_requested_at + PERIOD  # the original period, not a new one
    assert (await service.decision.review(iid)).requested_at == requested
    with service.notifier.subscribe(["decision.changed"]) as heard:
        advance(portal, 3)
        assert not await fallback_heard(heard, QUIET)
        advance(portal, 3)
        assert await fallback_heard(heard, HEARD)
    assert (await service.decision.review(iid)).state == "timed_out"


async def test_a_review_already_due_at_start_falls_back_at_once(portal: Portal) -> None:
    service = portal.service
    assert service is not None
    iid = await in_review(service)
    await portal.stop()
    portal.clock.advance(PERIOD * 10)  # the portal was down past the period
    service = await portal.start()
    review = service.decision.review
    for _ in range(int(HEARD / 0.01)):  # the start fires it from its own task
        if (await review(iid)).state == "timed_out":
            break
        await asyncio.sleep(0.01)
    assert (await review(iid)).state == "timed_out"


async def test_resolving_or_deferring_forgets_the_timer(portal: Portal) -> None:
    from choice.decision.models import DeferBody, ResolveBody

    service = portal.service
    assert service is not None
    resolved = await in_review(service)
    deferred = await in_review(service)
    await service.decision.resolve(resolved, ResolveBody(final_answer="B", selected_ids=["b"]))
    await service.decision.defer(deferred, DeferBody(rationale="Later."))
    assert service.decision.reviews.deadline_of(resolved) is None
    assert service.decision.reviews.deadline_of(deferred) is None
    with service.notifier.subscribe(["decision.changed"]) as heard:
        advance(portal, PERIOD * 2)
        assert not await fallback_heard(heard, QUIET)
    assert "candidate_timed_out" not in [e.kind for e in await service.events(deferred)]
