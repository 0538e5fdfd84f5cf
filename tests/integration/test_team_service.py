"""TeamService over a real SQLite file: widening, links, comments, votes, the agent's
waiting call under block and continue, the deadline, restarts and retention."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from choice.contract import PreferencesPatch, Submission, TeamMember
from choice.contract.errors import AlreadyCompleted, AlreadyWidened, NotWidened
from choice.contract.field_errors import InvalidInput
from choice.core.extension import ReplyHints
from choice.core.service import InteractionService
from choice.team.links import secret_hash
from choice.team.models import CommentBody, VoteBody, WidenRequest
from choice.team.rate_limit import COMMENTS_PER_MINUTE, RateLimited
from choice.team.service import UnknownLink
from tests.integration.test_service import Portal, request

TEAM = [TeamMember(name="Alice Johnson", handle="@alice"), TeamMember(name="Bob Smith"),
        TeamMember(name="Carol Lee")]


@pytest.fixture
async def portal(isolated_env: Path) -> AsyncIterator[Portal]:
    portal = Portal(isolated_env)
    service = await portal.start()
    await service.update_preferences(PreferencesPatch(team=TEAM))
    yield portal
    await portal.stop()


def running(portal: Portal) -> InteractionService:
    assert portal.service is not None
    return portal.service


def secret_of(link: str | None) -> str:
    assert link is not None
    return link.rsplit("/d/", 1)[1]


async def widened(service: InteractionService, mode: str = "block", **fields: object
                  ) -> tuple[str, list[str]]:
    """A new question widened to the whole team: its id and each participant's secret."""
    row = (await service.create(request(**fields))).row
    invited = await service.team.widen(row.id, WidenRequest(mode=mode))  # type: ignore[arg-type]
    return row.id, [secret_of(p.link) for p in invited.participants]


async def kinds(service: InteractionService, interaction_id: str) -> list[str]:
    return [e.kind for e in await service.events(interaction_id)]


async def test_widening_invites_the_trimmed_audience_and_audits_each_invitation(
        portal: Portal) -> None:
    service = running(portal)
    row = (await service.create(request())).row
    invited = await service.team.widen(row.id, WidenRequest(
        audience=["alice johnson", "CAROL LEE", "Dana Park"], note="  thoughts?  "))
    assert [p.name for p in invited.participants] == ["Alice Johnson", "Carol Lee", "Dana Park"]
    assert invited.participants[0].handle == "@alice"
    assert invited.warnings == ["not on the team list, invited anyway: Dana Park"]
    assert (invited.row.status, invited.widening.note) == ("widened", "thoughts?")
    assert all(p.link and p.link.startswith(f"{service.settings.link_base}/d/")
               for p in invited.participants)
    assert await kinds(service, row.id) == ["created", "widened"] + ["participant_invited"] * 3


async def test_a_question_is_widened_once(portal: Portal) -> None:
    service = running(portal)
    interaction_id, _ = await widened(service)
    with pytest.raises(AlreadyWidened):
        await service.team.widen(interaction_id, WidenRequest())
    participants = await service.store.read(service.team.repo.participants, interaction_id)
    assert len(participants) == 3
    assert (await kinds(service, interaction_id)).count("widened") == 1


async def test_an_answered_question_cannot_be_widened(portal: Portal) -> None:
    service = running(portal)
    row = (await service.create(request())).row
    await service.submit(row.id, Submission(selected_ids=["a"]))
    with pytest.raises(AlreadyCompleted) as refused:
        await service.team.widen(row.id, WidenRequest())
    assert refused.value.row.status == "submitted"
    assert await service.store.read(service.team.repo.widening, row.id) is None


async def test_widening_after_the_deadline_writes_the_expiry_instead(portal: Portal) -> None:
    service = running(portal)
    row = (await service.create(request(timeout_seconds=30))).row
    portal.clock.advance(31)
    with pytest.raises(AlreadyCompleted) as refused:
        await service.team.widen(row.id, WidenRequest())
    assert refused.value.row.status == "timeout"


async def test_an_empty_team_and_no_names_is_refused_with_the_fix(portal: Portal) -> None:
    service = running(portal)
    await service.update_preferences(PreferencesPatch(team=[]))
    row = (await service.create(request())).row
    with pytest.raises(InvalidInput) as refused:
        await service.team.widen(row.id, WidenRequest())
    assert refused.value.errors[0].field == "audience"
    assert "PUT /api/settings" in refused.value.errors[0].message
    assert (await service.get(row.id)).status == "pending"


async def test_widening_extends_the_deadline_but_never_shortens_it(portal: Portal) -> None:
    service = running(portal)
    row = (await service.create(request(timeout_seconds=600))).row
    longer = await service.team.widen(row.id, WidenRequest(timeout_seconds=7200))
    assert longer.row.expires_at == pytest.approx(portal.clock() + 7200, abs=2)
    assert service.deadlines.deadline_of(row.id) == longer.row.expires_at
    other = (await service.create(request(timeout_seconds=600))).row
    kept = await service.team.widen(other.id, WidenRequest(timeout_seconds=60))
    assert kept.row.expires_at == other.expires_at
    assert "would shorten the deadline" in kept.warnings[0]


async def test_continue_wakes_the_agents_waiting_call_at_once(portal: Portal) -> None:
    service = running(portal)
    row = (await service.create(request())).row
    waiting = asyncio.create_task(service.wait(row.id, 30))
    await asyncio.sleep(0)  # the task's first step registers its waiter
    assert row.id in service.notifier.waited_on()
    await service.team.widen(row.id, WidenRequest(mode="continue"))
    # the widen's own publish woke it: the waiter is taken off the registry and set
    assert row.id not in service.notifier.waited_on()
    woken = await asyncio.wait_for(waiting, 5)
    assert woken.status == "widened"
    reply = (await service.reply(woken, ReplyHints("poll later"))).to_json()
    assert (reply["action_status"], reply["mode"], reply["session_id"]) == (
        "widened", "continue", row.id)
    assert reply["participants"] == ["Alice Johnson", "Bob Smith", "Carol Lee"]


async def test_block_leaves_the_agent_waiting_until_the_owner_answers(portal: Portal) -> None:
    service = running(portal)
    row = (await service.create(request())).row
    waiting = asyncio.create_task(service.wait(row.id, 30))
    await asyncio.sleep(0)  # the task's first step registers its waiter
    assert row.id in service.notifier.waited_on()
    await service.team.widen(row.id, WidenRequest(mode="block"))
    # the widen has published (a `continue` is woken inside that publish, above): the
    # waiter is still registered, so nothing woke it
    assert row.id in service.notifier.waited_on()
    await service.submit(row.id, Submission(selected_ids=["b"]))
    assert (await asyncio.wait_for(waiting, 5)).status == "submitted"


async def test_a_later_poll_of_a_continued_question_waits_for_the_result(portal: Portal) -> None:
    service = running(portal)
    interaction_id, _ = await widened(service, mode="continue")
    # not answered at once again (an agent's loop must not spin): it waits its whole window
    # (a lower bound on the loop's own clock, which the window's timer runs on)
    loop = asyncio.get_running_loop()
    started = loop.time()
    again = await service.wait(interaction_id, 0.2)
    assert again.status == "widened" and loop.time() - started >= 0.2 - 0.001
    polling = asyncio.create_task(service.wait(interaction_id, 30))
    await asyncio.sleep(0)  # the task's first step registers its waiter
    assert interaction_id in service.notifier.waited_on()
    await service.submit(interaction_id, Submission(selected_ids=["a"]))
    assert (await asyncio.wait_for(polling, 5)).status == "submitted"


async def test_participants_comment_and_vote_and_the_owner_sees_it(portal: Portal) -> None:
    service = running(portal)
    interaction_id, secrets = await widened(service, selection_mode="multi", max_selections=2)
    alice, bob = [await service.team.participant(s) for s in secrets[:2]]
    await service.team.comment(interaction_id, CommentBody(text=" Go with A. "), alice)
    await service.team.comment(interaction_id, CommentBody(text="Owner here."))
    assert await service.team.vote(alice, VoteBody(option_ids=["b", "a"])) == ["a", "b"]
    await service.team.vote(bob, VoteBody(option_ids=["b"]))
    await service.team.vote(bob, VoteBody(option_ids=["a"]))  # changed: one vote per person
    discussion = await service.team.discussion(interaction_id)
    assert [(m.author, m.text) for m in discussion.comments] == [
        ("Alice Johnson", "Go with A."), ("Owner", "Owner here.")]
    assert [(t.option_id, t.votes, t.voters) for t in discussion.tally()] == [
        ("a", 2, ["Alice Johnson", "Bob Smith"]), ("b", 1, ["Alice Johnson"])]
    await service.team.vote(bob, VoteBody(option_ids=[]))  # withdrawn
    assert [t.votes for t in (await service.team.discussion(interaction_id)).tally()] == [1, 1]
    votes = [e for e in await service.events(interaction_id) if e.kind == "vote_cast"]
    assert [(e.actor, (e.detail_json or {}).get("option_ids")) for e in votes] == [
        (f"participant:{alice.id}", ["a", "b"]), (f"participant:{bob.id}", [])]
    assert (votes[1].detail_json or {})["changes"] == 3  # within 10 s: one row


async def test_a_vote_names_existing_options_within_the_questions_limit(portal: Portal) -> None:
    service = running(portal)
    interaction_id, secrets = await widened(service)
    alice = await service.team.participant(secrets[0])
    with pytest.raises(InvalidInput) as refused:
        await service.team.vote(alice, VoteBody(option_ids=["a", "b", "zz"]))
    assert {(e.field, e.code) for e in refused.value.errors} == {
        ("option_ids[2]", "unknown_option"), ("option_ids", "too_many")}
    _, text_secrets = await widened(service, selection_mode="text_input", options=[])
    with pytest.raises(InvalidInput, match="no options to vote on"):
        await service.team.vote(await service.team.participant(text_secrets[0]),
                                VoteBody(option_ids=[]))
    assert (await service.team.discussion(interaction_id)).votes == []


async def test_the_owners_answer_closes_the_discussion_for_writing(portal: Portal) -> None:
    service = running(portal)
    interaction_id, secrets = await widened(service)
    alice = await service.team.participant(secrets[0])
    await service.submit(interaction_id, Submission(selected_ids=["a"]))
    with pytest.raises(NotWidened):
        await service.team.comment(interaction_id, CommentBody(text="too late"), alice)
    with pytest.raises(NotWidened):
        await service.team.vote(alice, VoteBody(option_ids=["b"]))
    still = await service.team.open_link(await service.team.participant(secrets[0]))
    assert (still.is_open, still.row.status, still.comments) == (False, "submitted", [])


async def test_a_widened_question_expires_at_its_deadline(portal: Portal) -> None:
    service = running(portal)
    interaction_id, _ = await widened(service, timeout_seconds=30, on_timeout="cancel")
    portal.clock.advance(31)
    await service.expire(interaction_id)
    assert (await service.get(interaction_id)).status == "cancelled"


async def test_links_are_hashed_checked_and_withdrawn(portal: Portal) -> None:
    service = running(portal)
    interaction_id, secrets = await widened(service)
    stored = [row[0] for row in sqlite3.connect(
        service.settings.data_dir / "choice.db").execute("SELECT secret_hash FROM participant")]
    assert sorted(stored) == sorted(secret_hash(s) for s in secrets)
    assert not any(s in stored for s in secrets)
    assert all(len(s) * 6 >= 128 for s in secrets)
    for wrong in ("A" * 32, secrets[0][:-1], secrets[0] + "x", "../../api", ""):
        with pytest.raises(UnknownLink):
            await service.team.participant(wrong)
    carol = await service.team.participant(secrets[2])
    await service.team.revoke(interaction_id, carol.id)
    with pytest.raises(UnknownLink):
        await service.team.participant(secrets[2])
    with pytest.raises(UnknownLink):  # twice, or another interaction's participant
        await service.team.revoke(interaction_id, carol.id)
    assert "participant_revoked" in await kinds(service, interaction_id)


async def test_opening_a_link_is_audited_once(portal: Portal) -> None:
    service = running(portal)
    interaction_id, secrets = await widened(service)
    for _ in range(3):
        await service.team.open_link(await service.team.participant(secrets[1]))
    assert (await kinds(service, interaction_id)).count("participant_opened") == 1
    team = await service.team.discussion(interaction_id)
    assert [p.opened_at is not None for p in team.participants] == [False, True, False]


async def test_comments_are_rate_limited_per_participant(portal: Portal) -> None:
    service = running(portal)
    interaction_id, secrets = await widened(service)
    alice, bob = [await service.team.participant(s) for s in secrets[:2]]
    for n in range(COMMENTS_PER_MINUTE):
        await service.team.comment(interaction_id, CommentBody(text=f"{n}"), alice)
    with pytest.raises(RateLimited) as limited:
        await service.team.comment(interaction_id, CommentBody(text="one more"), alice)
    assert 1 <= limited.value.retry_after <= 60
    await service.team.comment(interaction_id, CommentBody(text="bob is fine"), bob)
    count = await service.store.read(service.team.repo.comment_count, interaction_id)
    assert count == COMMENTS_PER_MINUTE + 1


async def test_discussion_data_carries_the_newest_fifty_messages(portal: Portal) -> None:
    service = running(portal)
    interaction_id, secrets = await widened(service)
    people = [await service.team.participant(s) for s in secrets]
    for n in range(55):
        await service.team.comment(interaction_id, CommentBody(text=f"message {n}"),
                                   people[n % 3])
    data = await service.team.discussion_data(interaction_id)
    assert (data.message_count, len(data.messages), data.truncated) == (55, 50, True)
    assert data.messages[0] == "[Carol Lee] message 5"
    assert data.messages[-1] == "[Alice Johnson] message 54"
    assert data.participants == ["Alice Johnson", "Bob Smith", "Carol Lee"]
    assert data.thread_url == f"{service.settings.link_base}/choice/{interaction_id}"


async def test_a_restart_keeps_the_discussion_and_the_links(portal: Portal) -> None:
    service = running(portal)
    interaction_id, secrets = await widened(service, mode="continue")
    alice = await service.team.participant(secrets[0])
    await service.team.comment(interaction_id, CommentBody(text="before"), alice)
    await service.team.vote(alice, VoteBody(option_ids=["b"]))
    service = await portal.restart()
    assert (await service.get(interaction_id)).status == "widened"
    assert service.deadlines.deadline_of(interaction_id) is not None
    alice = await service.team.participant(secrets[0])
    await service.team.comment(interaction_id, CommentBody(text="after"), alice)
    discussion = await service.team.discussion(interaction_id)
    assert [c.text for c in discussion.comments] == ["before", "after"]
    assert discussion.vote_of(alice.id) == ["b"]
    assert await service.team.mode(interaction_id) == "continue"


async def test_retention_removes_a_discussion_with_its_interaction(portal: Portal) -> None:
    service = running(portal)
    interaction_id, secrets = await widened(service)
    await service.team.comment(interaction_id, CommentBody(text="x"),
                               await service.team.participant(secrets[0]))
    await service.submit(interaction_id, Submission(selected_ids=["a"]))
    portal.clock.advance(31 * 86_400)
    await service.prune()
    with sqlite3.connect(service.settings.data_dir / "choice.db") as conn:
        left = {table: conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
                for table in ("interaction", "widening", "participant", "comment", "vote",
                              "audit_event")}
    assert left == dict.fromkeys(left, 0)


async def test_retention_removes_the_files_shown_with_a_question(portal: Portal) -> None:
    import base64

    service = running(portal)
    created = await service.create({**request(), "attachments": [
        {"name": "a.png", "mime_type": "image/png", "data": base64.b64encode(b"png").decode()}]})
    interaction_id = created.row.id
    from choice.core.attachments import attachment, attachment_bytes

    file = await attachment(service.store, interaction_id, "a1")
    assert (file.size, [chunk async for chunk in attachment_bytes(service.store, file)]) == (
        3, [b"png"])
    await service.submit(interaction_id, Submission(selected_ids=["a"]))
    portal.clock.advance(31 * 86_400)
    await service.prune()
    with sqlite3.connect(service.settings.data_dir / "choice.db") as conn:
        assert conn.execute("SELECT count(*) FROM attachment").fetchone()[0] == 0
