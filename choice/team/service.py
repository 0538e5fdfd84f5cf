"""TeamService: widening a pending interaction to teammates, and what they do with it
(open their link, comment, vote), the owner's side of it (who opened, revoke), and what an
agent or the write-back step reads back (the widened reply, DiscussionData).

A feature: it plugs into the core (`choice.core.extension`) and shares the service's store,
clock, deadlines and notifier, with the same order of work: persist (one transaction, with
its audit events), then publish. It adds the teammates and their votes to every result of
a widened question, answers a waiting agent while the question is widened, and resolves it
when the team's quorum is reached (`quorum.py`). Answering, cancelling and expiring a widened
interaction are the core's (an answer from the owner ends the discussion).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection
from typing import TYPE_CHECKING, Any

from msgspec import Struct

from choice.contract import FieldError
from choice.contract.errors import DeadlinePassed, NotFound
from choice.contract.field_errors import InvalidInput
from choice.contract.result import DISCUSSION_MESSAGES_MAX, DiscussionData
from choice.core.actors import OWNER_TEAM, SYSTEM, Actor, Channel
from choice.core.attachments import attachment
from choice.core.endings import audit, request_of
from choice.core.extension import NO_FACTS, CompletionFacts, Extension, ReplyHints
from choice.core.notifier import Change
from choice.core.replies import AgentReply, interaction_url, listing
from choice.store import Store
from choice.store.members import Member, member_directory, members_by_email
from choice.store.records import (
    Comment,
    Decision,
    Interaction,
    Participant,
    StoredFile,
    Vote,
    Widening,
)
from choice.store.team import TeamRepository
from choice.team.discussion import (
    VOTE_MERGE_SECONDS,
    Discussion,
    checked_vote,
    merged_vote,
    participant_out,
)
from choice.team.links import (
    member_path,
    participant_path,
    same_hash,
    secret_hash,
    well_formed,
)
from choice.team.models import CommentBody, ParticipantOut, VoteBody, WidenRequest
from choice.team.payloads import widened_reply
from choice.team.quorum import QuorumKeeper
from choice.team.rate_limit import COMMENTS_PER_MINUTE, VOTES_PER_MINUTE, PerMinute
from choice.team.reminders import TeamReminders
from choice.team.thread import (
    COMMENTS_PER_LINK,
    COMMENTS_PER_QUESTION,
    NEWEST,
    PAGE_API,
    ThreadPage,
    Window,
    read_page,
)
from choice.team.widening import member_detail, plan_widening

if TYPE_CHECKING:
    from choice.core.service import InteractionService

OWNER = "owner"
DIRECTORY_MAX = 1000
"""The most members a widen dialog offers (a team server's whole staff fits; the list is
read for each dialog opened)."""


class UnknownLink(LookupError):
    """No participant has this link, or the owner withdrew it: answered as a 404."""


class UnknownFile(LookupError):
    """The question has no file by this id that its participants may see: answered as a
    404 that says nothing more (an answer's file and a missing one are alike)."""

    def __init__(self, attachment_id: str) -> None:
        self.attachment_id = attachment_id
        super().__init__(attachment_id)


class Invited(Struct, frozen=True):
    """What widening returns to the owner: the row, each participant with their link
    (shown this once: only its hash is stored), and any warnings."""

    row: Interaction
    widening: Widening
    participants: list[ParticipantOut]
    warnings: list[str]


def _error(field: str, code: str, message: str) -> InvalidInput:
    return InvalidInput([FieldError(field=field, code=code, message=message)])


async def _no_decision(_interaction_id: str) -> Decision | None:
    return None


class TeamService(Extension):
    def __init__(self, interactions: InteractionService) -> None:
        self.interactions = interactions
        self.repo = TeamRepository(interactions.store.repo)
        self.quorum = QuorumKeeper(interactions, self.repo)
        self.reminders = TeamReminders(interactions, self.repo)
        interactions.scans.add(self.reminders.scan, self.reminders.wakes_for)
        self._comments = PerMinute(COMMENTS_PER_MINUTE)
        self._votes = PerMinute(VOTES_PER_MINUTE, "votes")
        self.read_decision: Callable[[str], Awaitable[Decision | None]] = _no_decision
        """The decision feature's state of a question (a deferral and its rationale, shown
        in the discussion): set by the composition root (`choice/portal.py`), since a
        feature never builds another's repository."""
        self.on_widened: list[Callable[[Invited], Awaitable[None]]] = []
        """Told of each widening once stored, with the participants' links (only their
        hashes are stored, so this is the one chance): the webhook outbox queues the
        invitation, awaited so the owner's reply comes after it is stored. A hook must be
        quick and must not raise (the widening is done; the links must reach the owner)."""

    @property
    def _store(self) -> Store:
        return self.interactions.store

    def _publish(self, kind: Any, row: Interaction, **data: Any) -> None:
        self.interactions.notifier.publish(Change(kind, row.id, {**listing(row), **data}, row))

    # -- the owner -------------------------------------------------------------------------
    async def widen(self, interaction_id: str, asked: WidenRequest,
                    actor: Actor = OWNER_TEAM) -> Invited:
        """Invite the audience to a pending interaction. `InvalidInput` for a bad audience,
        `AlreadyWidened` / `AlreadyCompleted` / `NotFound` otherwise; nothing changes then."""
        row = await self.interactions.get(interaction_id)  # NotFound before input errors
        if request_of(row).several:
            raise _error("questions", "not_widenable",
                         "teammates discuss and vote on one question's options, and this "
                         "interaction asks several: answer it yourself, or ask the agent to "
                         "send the question to widen on its own.")
        members = await self._named_members(row, asked.members)
        prefs = await self.interactions.owners_preferences(row)
        at = self.interactions.clock()
        plan = plan_widening(row, asked, prefs.team, at, actor, self.link, members,
                             self.member_link)
        try:
            row = await self._store.write(self.repo.widen, plan.widening, plan.participants,
                                          plan.events, plan.expires_at, at, plan.quorum)
        except DeadlinePassed:  # as for a late answer: the expiry is what ends it
            raise await self.interactions.expire_late(interaction_id) from None
        self.interactions.deadlines.schedule(row.id, row.expires_at)
        self._publish("interaction.widened", row, mode=asked.mode,
                      wakes_agent=asked.mode == "continue")
        invited = Invited(row, plan.widening,
                          [participant_out(p, plan.links[p.id]) for p in plan.participants],
                          plan.warnings)
        for announce in self.on_widened:
            await announce(invited)
        return invited

    def link(self, secret: str) -> str:
        return f"{self.interactions.settings.link_base}{participant_path(secret)}"

    def member_link(self, interaction_id: str) -> str:
        """Where a member takes part in a question widened to them, signed in."""
        return f"{self.interactions.settings.link_base}{member_path(interaction_id)}"

    async def _named_members(self, row: Interaction, emails: list[str] | None) -> list[Member]:
        """The members `emails` names (team mode), in order, each once; `InvalidInput` naming
        each email no member signed in with, or the owner's own."""
        if not emails:
            return []
        if not self.interactions.settings.team_mode:
            raise _error("members", "team_mode_only",
                         "members are named by email on a team server only (CHOICE_AUTH=oidc): "
                         "name the people in audience instead.")
        found = await self._store.read(members_by_email, self._store.engine, emails)
        errors, members, seen = [], [], set()
        for index, email in enumerate(emails):
            member = found.get(email.strip().lower())
            if member is None:
                errors.append(FieldError(
                    field=f"members[{index}]", code="unknown_member",
                    message=f"no member has signed in with {email[:254]!r}: check the "
                            "spelling, ask them to sign in here once, or invite them as a "
                            "guest by name in audience."))
            elif member.id == row.member_id:
                errors.append(FieldError(
                    field=f"members[{index}]", code="owner",
                    message="that is the question's owner, who takes part already: leave "
                            "them out."))
            elif member.id not in seen:
                seen.add(member.id)
                members.append(member)
        if errors:
            raise InvalidInput(errors)
        return members

    async def members_to_name(self, owner_id: str | None) -> list[Member]:
        """Team mode: the members an owner may name when widening (everyone who has signed
        in, but the owner), by name; empty in local mode."""
        if not self.interactions.settings.team_mode:
            return []
        listed = await self._store.read(member_directory, self._store.engine, DIRECTORY_MAX)
        return [member for member in listed if member.id != owner_id]

    async def revoke(self, interaction_id: str, participant_id: str,
                     actor: Actor = OWNER_TEAM) -> None:
        """Withdraw one participant's link; `UnknownLink` if not theirs or already gone."""
        row = await self.interactions.get(interaction_id)
        at = self.interactions.clock()
        event = audit(row.id, "participant_revoked", actor, {"participant_id": participant_id}, at)
        if not await self._store.write(self.repo.revoke, row.id, participant_id, at, [event]):
            raise UnknownLink(participant_id)
        self._publish("discussion.changed", row, change="revoked", participant_id=participant_id)

    async def discussion(self, interaction_id: str, comment_ids: Collection[int] | None = None,
                         window: Window = NEWEST) -> Discussion:
        """The discussion with one page of its thread (`window`: the newest 20 unless it says
        otherwise); with `comment_ids`, only those comments (a live update's new ones)."""
        row = await self.interactions.get(interaction_id)
        read = self._store.read
        widening = await read(self.repo.widening, row.id)
        participants = await read(self.repo.participants, row.id)
        if comment_ids is None:
            page = await read(read_page, self.repo, row.id, window)
        else:
            page = ThreadPage(await read(self.repo.comments_by_id, row.id, comment_ids))
        votes = await read(self.repo.votes, row.id)
        decision = await self.read_decision(row.id)
        quorum = await read(self.repo.quorum, row.id)
        count = await read(self.repo.comment_count, row.id)
        return Discussion(row, request_of(row), widening, participants, page.comments, votes,
                          decision, quorum, page.before, count)

    async def comments(self, interaction_id: str, before: int | None = None,
                       limit: int = PAGE_API) -> ThreadPage:
        """A page of the thread: the newest `limit`, or the `limit` before `before`."""
        row = await self.interactions.get(interaction_id)
        return await self._store.read(read_page, self.repo, row.id,
                                      Window(limit=limit, before=before))

    async def discussion_data(self, interaction_id: str) -> DiscussionData:
        """The discussion as `DiscussionData`, for the write-back step (and agents)."""
        row = await self.interactions.get(interaction_id)
        participants = await self._store.read(self.repo.participants, row.id)
        comments, count = await self._store.read(self.repo.comments, row.id,
                                                 DISCUSSION_MESSAGES_MAX)
        return DiscussionData(
            participants=[p.name for p in participants], message_count=count,
            messages=[f"[{c.author}] {c.text}" for c in comments],
            truncated=count > len(comments),
            thread_url=interaction_url(self.interactions.settings, row.id))

    def completion_facts(self, row: Interaction) -> CompletionFacts:
        """The teammates invited (links withdrawn left out) and the votes per option (theirs
        left out too), for every result of a widened question. Synchronous: it runs inside
        the completing transaction, on the store's writer thread."""
        if row.status == "pending":  # never widened: nothing to read
            return NO_FACTS
        participants = self.repo.participants(row.id)
        if not participants:
            return NO_FACTS
        discussion = Discussion(row, request_of(row), None, participants, [],
                                self.repo.votes(row.id))
        return CompletionFacts(
            participants=tuple(p.name for p in participants if p.revoked_at is None),
            votes=tuple(discussion.tally()))

    async def mode(self, interaction_id: str) -> str | None:
        """`block` or `continue` for a widened interaction, None if it was never widened."""
        widening = await self._store.read(self.repo.widening, interaction_id)
        return widening.mode if widening else None

    async def shared_discussion(self, row: Interaction) -> DiscussionData | None:
        if await self.mode(row.id) is None:
            return None
        return await self.discussion_data(row.id)

    async def agent_reply(self, row: Interaction, reply: AgentReply,
                          hints: ReplyHints) -> AgentReply | None:
        """While widened: who was invited, and whether the agent may carry on meanwhile."""
        if row.status != "widened":
            return None
        widening = await self._store.read(self.repo.widening, row.id)
        participants = await self._store.read(self.repo.participants, row.id)
        quorum = await self._store.read(self.repo.quorum, row.id)
        return widened_reply(row, widening, participants, quorum, hints.poll_hint,
                             interaction_url(self.interactions.settings, row.id))

    async def start(self) -> None:
        await self.quorum.resolve_reached()

    async def reacted(self, change: Change) -> None:
        """A question taken up again may already have its quorum."""
        if change.kind == "interaction.resumed" and change.row is not None \
                and change.row.status == "widened":
            await self.quorum.check(change.interaction_id, SYSTEM)

    # -- participants ------------------------------------------------------------------------
    async def participant(self, secret: str) -> Participant:
        """The participant this link belongs to; `UnknownLink` for anything else (a
        malformed secret, an unknown one, a withdrawn one), all alike."""
        if not well_formed(secret):
            raise UnknownLink("")
        found = await self._store.read(self.repo.participant_by_secret_hash, secret_hash(secret))
        if found is None or not same_hash(found.secret_hash, secret) or found.revoked_at:
            raise UnknownLink("")
        return found

    async def member_participant(self, interaction_id: str, member_id: str | None
                                 ) -> Participant:
        """Team mode: the signed-in member's participant in a question widened to them;
        `UnknownLink` for anything else (not widened to them, withdrawn, no such question,
        nobody signed in), all alike."""
        if member_id is None:
            raise UnknownLink("")
        found = await self._store.read(self.repo.member_participant, interaction_id, member_id)
        if found is None:
            raise UnknownLink("")
        return found

    async def widened_to(self, member_id: str, which: str = "active",
                         limit: int = 100) -> list[Interaction]:
        """Team mode: the questions widened to the member, newest first (`active`: still
        under discussion; `completed`: ended)."""
        return await self._store.read(self.repo.widened_to, member_id, which, limit)

    async def open_link(self, participant: Participant, window: Window = NEWEST) -> Discussion:
        """What the participant's page shows (`window`: which comments); the first opening
        is audited."""
        discussion = await self.discussion(participant.interaction_id, window=window)
        if participant.opened_at is None and discussion.is_open:
            at = self.interactions.clock()
            event = audit(participant.interaction_id, "participant_opened",
                          Actor.participant(participant.id),
                          {"name": participant.name, **member_detail(participant)}, at)
            if await self._store.write(self.repo.mark_opened, participant.id, at, [event]):
                participant.opened_at = at
                self._publish("discussion.changed", discussion.row, change="opened",
                              participant_id=participant.id)
        return discussion

    async def shown_file(self, participant: Participant, attachment_id: str) -> StoredFile:
        """A file the agent showed with the question this participant was invited to (the
        request's `attachments`, options' included), for as long as their link is live.
        Never the person's answer files or their draft's: `UnknownFile` for those and for
        any id the question does not show; `UnknownLink` once retention removed the question,
        as for a link that opens nothing."""
        try:
            row = await self.interactions.get(participant.interaction_id)
        except NotFound:
            raise UnknownLink("") from None
        shown = {file.id for file in request_of(row).attachments}
        if attachment_id not in shown or await self.mode(row.id) is None:
            raise UnknownFile(attachment_id)
        try:
            file = await attachment(self._store, row.id, attachment_id)
        except NotFound:
            raise UnknownFile(attachment_id) from None
        if file.direction != "request":
            raise UnknownFile(attachment_id)
        return file

    async def comment(self, interaction_id: str, body: CommentBody,
                      participant: Participant | None = None) -> Comment:
        """A message in the discussion, from a participant or (None) the owner."""
        text = body.text.strip()
        if not text:
            raise _error("text", "blank", "the comment is only whitespace: write something.")
        row = await self.interactions.get(interaction_id)
        self._comments.take(participant.id if participant else OWNER)
        at = self.interactions.clock()
        author = participant.name if participant else "Owner"
        actor = Actor.participant(participant.id) if participant else Actor.owner("team")
        comment = Comment(interaction_id=row.id, author=author, text=text, at=at,
                          participant_id=participant.id if participant else None)
        event = audit(row.id, "comment_added", actor,
                      {"length": len(text), **(member_detail(participant) if participant else {})},
                      at)
        comment = await self._store.write(self.repo.add_comment, comment, [event],
                                          COMMENTS_PER_QUESTION, COMMENTS_PER_LINK)
        self._publish("discussion.changed", row, change="comment", comment_id=comment.id,
                      author=author)
        return comment

    async def vote(self, participant: Participant, body: VoteBody,
                   via: Channel = "web") -> list[str]:
        """Replace the participant's vote; the ids come back in option order. A vote that
        reaches the quorum resolves the question (`via`: the page or the API). At most
        `VOTES_PER_MINUTE` changes a minute (`RateLimited`); changes close together make one
        audit row."""
        row = await self.interactions.get(participant.interaction_id)
        request = request_of(row)
        chosen = checked_vote(request, body.option_ids)
        self._votes.take(participant.id)
        at = self.interactions.clock()
        vote = Vote(participant_id=participant.id, interaction_id=row.id,
                    option_ids_json=chosen, at=at)
        who = member_detail(participant)
        event = audit(row.id, "vote_cast", Actor.participant(participant.id),
                      {"option_ids": chosen, **who}, at)
        await self._store.write(self.repo.set_vote, vote, event, at - VOTE_MERGE_SECONDS,
                                merged_vote(chosen, at, who))
        self._publish("discussion.changed", row, change="vote", participant_id=participant.id)
        if chosen:  # on every change: the quorum may be reached by this one
            await self.quorum.check(row.id, Actor.owner(via))
        return chosen
