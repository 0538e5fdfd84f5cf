"""A long discussion through the service: the thread read a page at a time (the newest, the
pages before a cursor, a panel kept from its first comment on), the caps of 500 comments a
question and 100 a link, and votes: 10 changes a minute, quick changes kept as one audit row,
the quorum checked on every change."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from choice.contract import Quorum
from choice.contract.errors import TooManyComments
from choice.core.service import InteractionService
from choice.store.records import Participant
from choice.team.models import CommentBody, VoteBody, WidenRequest
from choice.team.rate_limit import VOTES_PER_MINUTE, RateLimited
from choice.team.thread import (
    COMMENTS_PER_LINK,
    COMMENTS_PER_QUESTION,
    PAGE_API,
    PAGE_SHOWN,
    SHOWN_MAX,
    Window,
)
from tests.integration.test_service import Portal, request

pytestmark = pytest.mark.usefixtures("backend")  # on SQLite and on PostgreSQL


@pytest.fixture
async def portal(isolated_env: Path) -> AsyncIterator[Portal]:
    portal = Portal(isolated_env)
    await portal.start()
    yield portal
    await portal.stop()


def running(portal: Portal) -> InteractionService:
    assert portal.service is not None
    return portal.service


async def team_of(service: InteractionService, names: list[str],
                  **widen: object) -> tuple[str, list[Participant]]:
    """A widened question and its participants; their comments are not rate limited here
    (the limit has its own tests: 500 comments at 20 a minute would take 25 minutes)."""
    row = (await service.create(request())).row
    invited = await service.team.widen(row.id, WidenRequest(audience=names, **widen))  # type: ignore[arg-type]
    service.team._comments.limit = 10**6
    people = [await service.team.participant(p.link.rsplit("/d/", 1)[1])  # type: ignore[union-attr]
              for p in invited.participants]
    return row.id, people


async def say(service: InteractionService, interaction_id: str, count: int,
              who: Participant | None = None, start: int = 0) -> None:
    for n in range(start, start + count):
        await service.team.comment(interaction_id, CommentBody(text=f"c{n}"), who)


def texts(comments: list[object]) -> list[str]:
    return [c.text for c in comments]  # type: ignore[attr-defined]


async def test_a_thread_is_read_a_page_at_a_time_from_the_newest(portal: Portal) -> None:
    service = running(portal)
    interaction_id, _ = await team_of(service, ["Ann"])
    await say(service, interaction_id, 120)

    newest = await service.team.discussion(interaction_id)
    assert texts(newest.comments) == [f"c{n}" for n in range(100, 120)]
    assert (newest.comment_count, newest.comments_before) == (120, newest.comments[0].id)

    pages, before = [], None
    while True:
        page = await service.team.comments(interaction_id, before)
        pages.append(texts(page.comments))
        if page.before is None:
            break
        before = page.before
    assert [len(p) for p in pages] == [PAGE_API, PAGE_API, 20]
    assert [t for p in reversed(pages) for t in p] == [f"c{n}" for n in range(120)]


async def test_a_panel_keeps_what_it_shows_from_its_first_comment_up_to_a_ceiling(
        portal: Portal) -> None:
    service = running(portal)
    interaction_id, _ = await team_of(service, ["Ann"])
    await say(service, interaction_id, 150)
    all_ids = [c.id for c in (await service.team.comments(interaction_id, None, 200)).comments]
    since = all_ids[90]  # the owner brought earlier comments in, back to c90

    kept = await service.team.discussion(interaction_id, window=Window(since=since))
    assert texts(kept.comments) == [f"c{n}" for n in range(90, 150)]
    assert kept.comments_before == since

    far = await service.team.discussion(interaction_id, window=Window(since=all_ids[5]))
    assert len(far.comments) == SHOWN_MAX and texts(far.comments)[-1] == "c149"
    newest = await service.team.discussion(interaction_id, window=Window(since=all_ids[149]))
    assert len(newest.comments) == PAGE_SHOWN  # a panel never shows fewer than a page


async def test_a_link_writes_at_most_100_comments_and_nothing_more_is_stored(
        portal: Portal) -> None:
    service = running(portal)
    interaction_id, (ann, ben) = await team_of(service, ["Ann", "Ben"])
    await say(service, interaction_id, COMMENTS_PER_LINK, ann)
    events_before = len(await service.events(interaction_id))
    with pytest.raises(TooManyComments) as refused:
        await service.team.comment(interaction_id, CommentBody(text="one more"), ann)
    assert (refused.value.per, refused.value.limit) == ("link", COMMENTS_PER_LINK)
    count = await service.store.read(service.team.repo.comment_count, interaction_id)
    assert (count, len(await service.events(interaction_id))) == (COMMENTS_PER_LINK,
                                                                   events_before)
    await service.team.comment(interaction_id, CommentBody(text="mine"), ben)  # theirs only


async def test_a_question_takes_at_most_500_comments_the_owners_included(
        portal: Portal) -> None:
    service = running(portal)
    interaction_id, people = await team_of(service, ["Ann", "Ben", "Cy", "Di", "Ed", "Flo"])
    await say(service, interaction_id, COMMENTS_PER_QUESTION - 1)  # the owner's
    await service.team.comment(interaction_id, CommentBody(text="the last one"), people[0])
    for who in (people[1], None):
        with pytest.raises(TooManyComments) as refused:
            await service.team.comment(interaction_id, CommentBody(text="over"), who)
        assert (refused.value.per, refused.value.limit) == ("question", COMMENTS_PER_QUESTION)
    data = await service.team.discussion_data(interaction_id)
    assert (data.message_count, len(data.messages), data.truncated) == (500, 50, True)
    assert data.messages[-1] == "[Ann] the last one"


async def test_quick_vote_changes_make_one_audit_row_and_a_later_change_another(
        portal: Portal) -> None:
    service = running(portal)
    interaction_id, (ann,) = await team_of(service, ["Ann"])
    for option in ("a", "b", "a", "b"):
        await service.team.vote(ann, VoteBody(option_ids=[option]))
    portal.clock.advance(11)
    await service.team.vote(ann, VoteBody(option_ids=["a"]))
    rows = [(e.detail_json or {}) for e in await service.events(interaction_id)
            if e.kind == "vote_cast"]
    assert [(r["option_ids"], r.get("changes", 1)) for r in rows] == [(["b"], 4), (["a"], 1)]
    assert (await service.team.discussion(interaction_id)).vote_of(ann.id) == ["a"]


async def test_a_vote_change_folded_into_an_earlier_row_still_reaches_the_quorum(
        portal: Portal) -> None:
    service = running(portal)
    interaction_id, (ann, ben) = await team_of(service, ["Ann", "Ben"],
                                               quorum=Quorum(min_votes=2))
    await service.team.vote(ben, VoteBody(option_ids=["b"]))
    await service.team.vote(ann, VoteBody(option_ids=["a"]))
    assert (await service.get(interaction_id)).status == "widened"
    await service.team.vote(ann, VoteBody(option_ids=["b"]))  # folded, and checked
    done = await service.get(interaction_id)
    result = (done.result_json or {})
    assert (done.status, result["decided_by"], result["selected_ids"]) == (
        "submitted", "quorum", ["b"])


async def test_an_eleventh_vote_change_in_a_minute_is_refused_and_changes_nothing(
        portal: Portal) -> None:
    service = running(portal)
    interaction_id, (ann, ben) = await team_of(service, ["Ann", "Ben"])
    for n in range(VOTES_PER_MINUTE):
        await service.team.vote(ann, VoteBody(option_ids=["a" if n % 2 else "b"]))
    with pytest.raises(RateLimited) as limited:
        await service.team.vote(ann, VoteBody(option_ids=["b"]))
    assert limited.value.what == "votes" and 1 <= limited.value.retry_after <= 60
    assert (await service.team.discussion(interaction_id)).vote_of(ann.id) == ["a"]
    await service.team.vote(ben, VoteBody(option_ids=["b"]))  # per link, not per question
