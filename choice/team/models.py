"""The shapes of the team side: what the owner sends to widen, what a participant sends
(a comment, a vote), and what comes back (participants, the discussion, the tally).

Shapes only, like `choice.contract`: the rules that need the interaction live in
`team/service.py`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from choice.contract import (
    MAX_OPTIONS,
    NAME_MAX,
    TEAM_MAX,
    TIMEOUT_MAX,
    TIMEOUT_MIN,
    OptionVotes,
    Quorum,
)
from choice.contract.model import Model

WidenMode = Literal["block", "continue"]
COMMENT_MAX = 4_000
WIDEN_NOTE_MAX = 2_000


class _Strict(Model):
    model_config = ConfigDict(extra="forbid")


class WidenRequest(_Strict):
    """`POST /api/interactions/{id}/widen`: who to invite, and whether the agent waits."""

    audience: list[str] | None = Field(
        default=None, max_length=TEAM_MAX,
        description="Names to invite, matched case-insensitively against the team list; a "
                    "name not on it is invited anyway (with a warning). Leave out for the "
                    "whole team.")
    members: list[str] | None = Field(
        default=None, max_length=TEAM_MAX,
        description="Team mode: the emails of members to invite (each signed in here at least "
                    "once). They find the question in their own list and take part signed "
                    "in, with no link. Named alone, without `audience`, nobody else is "
                    "invited.")
    mode: WidenMode = Field(
        default="block",
        description="`block`: the agent keeps waiting. `continue`: its waiting call returns "
                    "at once with action_status 'widened'; it polls later for the result.")
    note: str | None = Field(default=None, max_length=WIDEN_NOTE_MAX,
                             description="A line for the team, shown above the question.")
    timeout_seconds: int | None = Field(
        default=None, ge=TIMEOUT_MIN, le=TIMEOUT_MAX,
        description="Give the team this long from now; never shortens the deadline.")
    quorum: Quorum | None = Field(
        default=None,
        description="Resolve once this many participants vote for the same option(s); "
                    "replaces the request's quorum. At most the number invited.")


class QuorumBody(_Strict):
    """`PUT /api/interactions/{id}/quorum`: a number of matching votes, or null for off."""

    min_votes: int | None = Field(
        ge=1, le=TEAM_MAX,
        description="Resolve once this many participants vote for the same option(s); null "
                    "switches the quorum off.")


class CommentBody(_Strict):
    text: str = Field(min_length=1, max_length=COMMENT_MAX)


class VoteBody(_Strict):
    option_ids: list[str] = Field(
        max_length=MAX_OPTIONS,
        description="The options this participant backs (an empty list withdraws the vote).")


class ParticipantOut(Model):
    """A participant as the owner sees them (the link only in the widen reply)."""

    participant_id: str
    name: str = Field(max_length=NAME_MAX)
    handle: str | None = None
    invited_at: str
    opened_at: str | None = None
    revoked: bool = False
    link: str | None = None


TallyOut = OptionVotes
"""One option's votes (the same shape as in a result's `votes`)."""


class WidenedReply(Model):
    """What an agent gets while a widened question has no result yet (HTTP poll, MCP tool,
    `choice ask`): who was invited, and with `mode: continue` that it may carry on and
    poll later with `session_id` (`TeamService.widened_reply` builds it)."""

    interaction_id: str
    session_id: str = Field(description="Poll with this id for the final result.")
    status: Literal["widened"]
    action_status: Literal["widened"] = Field(
        description="Not a result: the owner asked teammates and decides after the discussion.")
    mode: WidenMode
    participants: list[str] = Field(description="The names invited (links withdrawn left out).")
    url: str
    expires_at: str
    review_state: Literal["candidate_submitted"] | None = Field(
        default=None, description="`candidate_submitted`: the owner reviews your candidate.")
    quorum_min_votes: int | None = Field(
        default=None, description="The team resolves it once this many vote alike.")
    instructions: str
