"""JSON API for a member a question is widened to (team mode), `/api/widened/{question_id}`:
the participant's API (`api/participant.py`) reached with the member's own session or agent
token instead of a secret link. Read the question, its files and the discussion, comment, vote, as
that participant and nothing more (no owner action: those stay behind the owner's routes).

A question not widened to the caller (theirs, someone else's, a withdrawn invitation, one
that does not exist) is the same 404 as an unknown link.
"""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, Response, get, post, put
from litestar.params import FromPath, JSONBody

from choice.store.records import Participant
from choice.team.models import CommentBody, VoteBody
from choice.team.payloads import comment_reply, page_reply, participant_payload
from choice.team.service import TeamService
from choice.team.thread import API
from choice.web.api.body import check_json_data
from choice.web.api.file_response import NOT_MODIFIED, IfNoneMatch, file_response
from choice.web.api.openapi import BODY_ERRORS, errors
from choice.web.api.query import Before, check_cursor
from choice.web.deps import Service, Team
from choice.web.security.auth import Access
from choice.web.security.guards import BEARER, bearer_token_guard


async def participant_of(request: Request[Any, Any, Any], team: TeamService,
                         question_id: str, *, using: bool = True) -> Participant:
    """The caller's participant in the question (`UnknownLink`, a 404, for none); `using`:
    the request is their act, which opens it as the page does."""
    access: Access = request.auth
    participant = await team.member_participant(question_id, access.member_id)
    if using and participant.opened_at is None:
        await team.open_link(participant)
    return participant


class WidenedToMeController(Controller):
    path = "/api/widened/{question_id:str}"
    guards = [bearer_token_guard]  # noqa: RUF012 - Litestar reads it from the class
    security = BEARER
    tags = ["participant"]  # noqa: RUF012

    @get("/", responses=errors(401, 404))
    async def read(self, request: Request[Any, Any, Any], question_id: FromPath[str],
                   team: Team) -> dict[str, Any]:
        """A question widened to you: the question, who is in the discussion, the tally and
        your vote, and the newest 50 comments, as `GET /api/d/<secret>` gives a guest."""
        participant = await participant_of(request, team, question_id, using=False)
        discussion = await team.open_link(participant, API)
        return participant_payload(discussion, participant)

    @get("/attachments/{attachment_id:str}", responses={**errors(401, 404), **NOT_MODIFIED})
    async def attachment(self, request: Request[Any, Any, Any], question_id: FromPath[str],
                         attachment_id: FromPath[str], team: Team, service: Service,
                         if_none_match: IfNoneMatch = None) -> Response[Any]:
        """A file the agent showed with the question, as `/api/d/<secret>/attachments/`
        serves it to a guest (never the person's answer files or draft)."""
        participant = await participant_of(request, team, question_id, using=False)
        return file_response(service.store, await team.shown_file(participant, attachment_id),
                             if_none_match)

    @get("/comments", responses=errors(401, 404, 422))
    async def comments(self, request: Request[Any, Any, Any], question_id: FromPath[str],
                       team: Team, before: Before = None) -> dict[str, Any]:
        """The 50 comments before the cursor `before` (left out: the newest 50)."""
        cursor = check_cursor(before, "before")
        participant = await participant_of(request, team, question_id)
        return page_reply(await team.comments(participant.interaction_id, cursor),
                          participant=True)

    @post("/comments", status_code=201, before_request=check_json_data,
          responses=errors(401, 404, 409, 429, *BODY_ERRORS))
    async def comment(self, request: Request[Any, Any, Any], question_id: FromPath[str],
                      data: JSONBody[CommentBody], team: Team) -> dict[str, Any]:
        """Add to the discussion as yourself (at most 4000 characters, 20 a minute)."""
        participant = await participant_of(request, team, question_id)
        comment = await team.comment(participant.interaction_id, data, participant)
        return comment_reply(comment)

    @put("/vote", before_request=check_json_data,
         responses=errors(401, 404, 409, 429, *BODY_ERRORS))
    async def vote(self, request: Request[Any, Any, Any], question_id: FromPath[str],
                   data: JSONBody[VoteBody], team: Team) -> dict[str, Any]:
        """Your vote, replacing any earlier one; `[]` withdraws it."""
        participant = await participant_of(request, team, question_id)
        chosen = await team.vote(participant, data, via="api")
        return {"option_ids": chosen}
