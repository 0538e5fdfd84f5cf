"""JSON API for a participant, authorised by their link's secret alone (`/api/d/<secret>`):
read the question and the discussion, comment, vote. A chat bot holding the link can act
for its person; it reaches nothing else (no list, no other interaction, no owner action).

No bearer token and no session cookie are asked for, or honoured beyond what the secret
grants: the secret names one participant of one interaction. An unknown, malformed or
withdrawn secret is the same 404. Any use of the link opens it, as the page does
(`security/participant_links.py`).
"""

from __future__ import annotations

from typing import Any

from litestar import Controller, get, post, put
from litestar.params import FromPath, JSONBody

from choice.team.models import CommentBody, VoteBody
from choice.team.payloads import comment_reply, participant_payload
from choice.web.api.body import check_json_data
from choice.web.api.openapi import BODY_ERRORS, errors
from choice.web.deps import Team
from choice.web.security.participant_links import participant_using


class ParticipantController(Controller):
    path = "/api/d/{secret:str}"
    tags = ["participant"]  # noqa: RUF012

    @get("/", responses=errors(404))
    async def read(self, secret: FromPath[str], team: Team) -> dict[str, Any]:
        """The question, who is in the discussion, the thread, the tally and your vote."""
        participant = await team.participant(secret)
        discussion = await team.open_link(participant)
        return participant_payload(discussion, participant)

    @post("/comments", status_code=201, before_request=check_json_data,
          responses=errors(404, 409, 429, *BODY_ERRORS))
    async def comment(self, secret: FromPath[str], data: JSONBody[CommentBody],
                      team: Team) -> dict[str, Any]:
        """Add to the discussion (plain text; at most 4000 characters). 409 once it has ended."""
        participant = await participant_using(team, secret)
        comment = await team.comment(participant.interaction_id, data, participant)
        return comment_reply(comment)

    @put("/vote", before_request=check_json_data, responses=errors(404, 409, *BODY_ERRORS))
    async def vote(self, secret: FromPath[str], data: JSONBody[VoteBody],
                   team: Team) -> dict[str, Any]:
        """Your vote, replacing any earlier one; `[]` withdraws it. 409 once it has ended."""
        participant = await participant_using(team, secret)
        chosen = await team.vote(participant, data, via="api")
        return {"option_ids": chosen}
