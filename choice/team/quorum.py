"""The team's quorum: once `min_votes` participants back the very same option(s), that is
the decision (`decided_by: quorum`), unless the owner decided first. A question about the
agent's own tool call (`context.tool`: `choice hook`'s permission questions) takes no
quorum: allowing a command on the owner's machine is the owner's alone, and teammates'
votes there only advise (`owner_decides`).

`reached` is pure. `QuorumKeeper` checks after each vote, after the quorum changes, when a
deferred question is taken up again, and on start; a quorum ends the question through the
core's one completion function, with the same normalisation as any answer.

The quorum is the team's alone: it is set when widening (`widening.py`) or later
(`QuorumKeeper.set`, `PUT /api/interactions/{id}/quorum`), counted here, and stored through
the team's repository. The decision feature shows it in its review through the reader the
composition root hands it (`choice/portal.py`), never through the team's repository.
"""

from __future__ import annotations

from collections.abc import Sequence

from msgspec import Struct
from msgspec.structs import replace

from choice.contract import ChoiceRequest, FieldError, Quorum, Submission
from choice.contract.errors import AlreadyCompleted
from choice.contract.field_errors import InvalidInput
from choice.contract.normalize import Completion, Provenance
from choice.contract.summaries import quoted_choices
from choice.core.actors import OWNER_API, SYSTEM, Actor
from choice.core.endings import answered, audit, request_of
from choice.core.notifier import Change
from choice.core.replies import listing
from choice.core.service import InteractionService
from choice.store.records import Interaction, Participant, Vote
from choice.store.repository import Completed
from choice.store.team import TeamRepository


class Reached(Struct, frozen=True):
    option_ids: list[str]
    votes: int
    voters: list[str]


def reached(votes: Sequence[Vote], participants: Sequence[Participant],
            min_votes: int) -> Reached | None:
    """The option set at least `min_votes` current participants voted for (a withdrawn
    link's vote does not count); with two such sets, the one with more votes, then the one
    that got there first."""
    names = {p.id: p.name for p in participants if p.revoked_at is None}
    groups: dict[tuple[str, ...], list[Vote]] = {}
    for vote in sorted(votes, key=lambda v: v.at):
        ids = tuple(vote.option_ids_json)
        if ids and vote.participant_id in names:
            groups.setdefault(ids, []).append(vote)
    best = [(ids, group) for ids, group in groups.items() if len(group) >= min_votes]
    if not best:
        return None
    ids, group = min(best, key=lambda item: (-len(item[1]), item[1][min_votes - 1].at))
    return Reached(list(ids), len(group), [names[v.participant_id] for v in group])


def owner_decides(request: ChoiceRequest) -> bool:
    """Only the owner decides this question (`context.tool`): no quorum, ever."""
    return bool(request.context.tool)


def checked_quorum(request: ChoiceRequest, quorum: Quorum | None, audience: int,
                   field: str = "min_votes") -> int | None:
    """The quorum's number of votes if it can be reached; `InvalidInput` naming `field`
    when the question has nothing to vote on, only its owner decides it, or fewer people
    than votes are invited."""
    if quorum is None:
        return None
    if owner_decides(request):
        raise InvalidInput([FieldError(
            field=field, code="owner_only", message="this question asks to allow the agent's "
            f"own {request.context.tool} call on the owner's machine: only its owner decides "
            "it, so it takes no quorum. Leave the quorum out: the team's votes advise.")])
    if not request.options or request.selection_mode == "text_input":
        raise InvalidInput([FieldError(
            field=field, code="no_options", message="a quorum counts votes for options, and "
            "this question has none to vote on: leave the quorum out.")])
    if quorum.min_votes > audience:
        raise InvalidInput([FieldError(
            field=field, code="quorum_too_large",
            message=f"a quorum of {quorum.min_votes} votes cannot be reached by the "
                    f"{audience} people invited: lower it to at most {audience}, invite more "
                    "people, or leave it out.")])
    return quorum.min_votes


class _NoQuorum(Exception):
    """Checked again inside the transaction: no quorum (any more), nothing to write."""


class QuorumKeeper:
    def __init__(self, service: InteractionService, team: TeamRepository) -> None:
        self.service = service
        self.team = team

    async def resolve_reached(self) -> None:
        """On start: resolve every widened question whose quorum was reached while the
        portal was down."""
        for interaction_id in await self.service.store.scan(self.team.quorums):
            await self.check(interaction_id, SYSTEM)

    async def set(self, interaction_id: str, quorum: Quorum | None,
                  actor: Actor = OWNER_API) -> Interaction:
        """Change a widened (or deferred) question's quorum, or switch it off (None)."""
        service = self.service
        row = await service.get(interaction_id)
        participants = await service.store.read(self.team.participants, row.id)
        audience = sum(1 for p in participants if p.revoked_at is None)
        min_votes = checked_quorum(request_of(row), quorum, audience)
        event = audit(row.id, "quorum_changed", actor, {"min_votes": min_votes}, service.clock())
        row = await service.store.write(self.team.set_quorum, row.id, min_votes, [event])
        service.notifier.publish(Change("decision.changed", row.id, {
            **listing(row), "change": "quorum", "min_votes": min_votes}, row))
        await self.check(row.id, actor)
        return row

    async def min_votes(self, interaction_id: str) -> int | None:
        """The quorum set on this question now, None when it is off."""
        return await self.service.store.read(self.team.quorum, interaction_id)

    async def check(self, interaction_id: str, actor: Actor) -> Interaction | None:
        """Resolve by quorum if the votes now reach it; None when they do not. `actor` is
        who made it so (the last voter's page or API call, the owner's change), for
        `answered_via`."""
        read = self.service.store.read
        min_votes = await read(self.team.quorum, interaction_id)
        if min_votes is None:
            return None
        if reached(await read(self.team.votes, interaction_id),
                   await read(self.team.participants, interaction_id), min_votes) is None:
            return None  # most votes reach nothing: no write transaction to find that out
        try:
            return await self.service.complete(interaction_id, self._by_quorum, actor=actor)
        except (_NoQuorum, AlreadyCompleted):
            return None

    def _by_quorum(self, row: Interaction, done: Completion) -> Completed:
        """The team's votes decide, checked again inside the completing transaction."""
        min_votes = self.team.quorum(row.id)
        if row.status != "widened" or min_votes is None or owner_decides(request_of(row)):
            raise _NoQuorum
        found = reached(self.team.votes(row.id), self.team.participants(row.id), min_votes)
        if found is None:
            raise _NoQuorum
        request, _ = request_of(row), done.translate
        text = _("{votes} of {count} teammates voted for {choices} (quorum {quorum}).").format(
            votes=found.votes, count=len(done.participants), quorum=min_votes,
            choices=quoted_choices(request, found.option_ids))
        submission = Submission(selected_ids=found.option_ids, confirmed=True)
        ended = answered(row, submission, done, SYSTEM, Provenance("quorum", text),
                         {"candidate": False})
        first = audit(row.id, "quorum_reached", SYSTEM, {
            "option_ids": found.option_ids, "votes": found.votes, "voters": found.voters,
            "min_votes": min_votes}, done.completed_at)
        return replace(ended, events=[first, *ended.events])
