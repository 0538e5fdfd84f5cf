"""One widened interaction's discussion as read: the question, the people, the thread, the
votes, and what follows from them (the tally, each person's vote); the rule a vote must
follow, and how quick changes of one vote make one audit row. Pure: `TeamService` reads the
rows and writes the changes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from msgspec import Struct

from choice.contract import ChoiceRequest, FieldError
from choice.contract.clock import iso
from choice.contract.field_errors import InvalidInput
from choice.store.records import Comment, Decision, Interaction, Participant, Vote, Widening
from choice.store.team import DISCUSSION_OPEN
from choice.team.models import ParticipantOut, TallyOut


class Discussion(Struct, frozen=True):
    """Everything a page or a JSON reply shows about one widened interaction."""

    row: Interaction
    request: ChoiceRequest
    widening: Widening | None
    participants: list[Participant]
    comments: list[Comment]
    votes: list[Vote]
    decision: Decision | None = None
    """The write-back's state (a deferral and its rationale), if any: the decision
    feature's, read through `TeamService.read_decision`."""
    quorum: int | None = None
    """The team's quorum (matching votes that decide), None when off."""
    comments_before: int | None = None
    """`comments` is one page of the thread: the cursor of the page before it, or None."""
    comment_count: int = 0
    """How many comments the whole thread holds."""

    @property
    def is_open(self) -> bool:
        """Comments and votes are taken (widened, or deferred with the discussion open)."""
        return self.row.status in DISCUSSION_OPEN

    def names(self) -> dict[str, str]:
        return {p.id: p.name for p in self.participants}

    def vote_of(self, participant_id: str) -> list[str]:
        for vote in self.votes:
            if vote.participant_id == participant_id:
                return list(vote.option_ids_json)
        return []

    def tally(self) -> list[TallyOut]:
        """Votes per option, of the people still invited: a withdrawn link's vote no longer
        counts (as for the quorum), though it stays in the audit trail."""
        names = {p.id: p.name for p in self.participants if p.revoked_at is None}
        voters: dict[str, list[str]] = {option.id: [] for option in self.request.options}
        for vote in sorted(self.votes, key=lambda v: v.at):
            if vote.participant_id not in names:
                continue
            for option_id in vote.option_ids_json:
                if option_id in voters:
                    voters[option_id].append(names[vote.participant_id])
        return [TallyOut(option_id=o.id, label=o.label, votes=len(voters[o.id]),
                         voters=voters[o.id]) for o in self.request.options]


def participant_out(p: Participant, link: str | None = None) -> ParticipantOut:
    return ParticipantOut(participant_id=p.id, name=p.name, handle=p.handle,
                          invited_at=iso(p.invited_at),
                          opened_at=iso(p.opened_at) if p.opened_at else None,
                          revoked=p.revoked_at is not None, link=link)


def checked_option_ids(request: ChoiceRequest, option_ids: Sequence[str],
                       field: str) -> list[str]:
    """The ids of a vote or a resolution, in option order; `InvalidInput` naming each
    problem (an unknown id, one named twice, more than the question takes)."""
    known = [option.id for option in request.options]
    errors = [FieldError(field=f"{field}[{i}]", code="unknown_option",
                         message=f"no option has the id {option_id[:64]!r}: use one of "
                                 f"{', '.join(known[:10])}.")
              for i, option_id in enumerate(option_ids) if option_id not in known]
    if len(set(option_ids)) != len(option_ids):
        errors.append(FieldError(field=field, code="duplicate",
                                 message="an option is named twice: name each once."))
    most = 1 if request.selection_mode == "single" else (request.max_selections or len(known))
    if len(set(option_ids)) > most:
        errors.append(FieldError(field=field, code="too_many",
                                 message=f"this question takes at most {most} option(s): "
                                         "name fewer."))
    if errors:
        raise InvalidInput(errors)
    return [option_id for option_id in known if option_id in option_ids]


def checked_vote(request: ChoiceRequest, option_ids: Sequence[str]) -> list[str]:
    """The ids of a valid vote, in option order; `InvalidInput` naming each problem."""
    if not request.options:
        raise InvalidInput([FieldError(
            field="option_ids", code="no_options",
            message="this question has no options to vote on: say what you think in a comment.")])
    return checked_option_ids(request, option_ids, "option_ids")


VOTE_MERGE_SECONDS = 10.0
"""Changes of one participant's vote within this long of the first make one `vote_cast`
audit row (its detail holds the vote as it stands and how many changes it took)."""


def merged_vote(option_ids: list[str], at: float, who: dict[str, str] | None = None
                ) -> Callable[[dict[str, Any] | None], dict[str, Any]]:
    """The detail of a `vote_cast` row that one more change is folded into (`who`: the
    member a participant is, kept in the detail)."""
    def merge(earlier: dict[str, Any] | None) -> dict[str, Any]:
        return {"option_ids": option_ids, "changes": int((earlier or {}).get("changes", 1)) + 1,
                "last_at": iso(at), **(who or {})}
    return merge
