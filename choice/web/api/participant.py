"""JSON API for a participant, authorised by their link's secret alone (`/api/d/<secret>`):
read the question and the discussion (the newest 50 comments, and the pages before them),
fetch the files shown with the question, comment, vote. A chat bot holding the link can act
for its person; it reaches nothing else (no list, no other interaction, no owner action).

No bearer token and no session cookie are asked for, or honoured beyond what the secret
grants: the secret names one participant of one interaction. An unknown, malformed or
withdrawn secret is the same 404. Any use of the link opens it, as the page does
(`security/participant_links.py`).
"""

from __future__ import annotations

from typing import Any

from litestar import Controller, Response, get, post, put
from litestar.params import FromPath, JSONBody

from choice.team.models import CommentBody, VoteBody
from choice.team.payloads import comment_reply, page_reply, participant_payload
from choice.team.thread import API
from choice.web.api.body import check_json_data
from choice.web.api.file_response import NOT_MODIFIED, IfNoneMatch, file_response
from choice.web.api.openapi import BODY_ERRORS, errors
from choice.web.api.query import Before, check_cursor
from choice.web.deps import Service, Team
from choice.web.security.participant_links import participant_using


class ParticipantController(Controller):
    path = "/api/d/{secret:str}"
    tags = ["participant"]  # noqa: RUF012

    @get("/", responses=errors(404))
    async def read(self, secret: FromPath[str], team: Team) -> dict[str, Any]:
        """The question, who is in the discussion, the tally and your vote, and the newest
        50 comments (`comments`, oldest first; `comments_before`: pass it to `GET
        /api/d/<secret>/comments?before=` for the ones before, null when there are none)."""
        participant = await team.participant(secret)
        discussion = await team.open_link(participant, API)
        return participant_payload(discussion, participant)

    @get("/attachments/{attachment_id:str}", responses={**errors(404), **NOT_MODIFIED})
    async def attachment(self, secret: FromPath[str], attachment_id: FromPath[str], team: Team,
                         service: Service, if_none_match: IfNoneMatch = None) -> Response[Any]:
        """A file the agent showed with the question (`question.attachments`), served as
        the owner's page gets it: an image as itself, anything else as a download, streamed,
        `nosniff` and sandboxed. The person's answer files are not the team's: 404, as for
        an id the question does not show. Fetching a file does not open the link."""
        file = await team.shown_file(await team.participant(secret), attachment_id)
        return file_response(service.store, file, if_none_match)

    @get("/comments", responses=errors(404, 422))
    async def comments(self, secret: FromPath[str], team: Team,
                       before: Before = None) -> dict[str, Any]:
        """The 50 comments before the cursor `before` (a `comments_before` of an earlier
        reply; left out, the newest 50), oldest first, and `comments_before` for the page
        before them (null: this is the start of the thread)."""
        cursor = check_cursor(before, "before")
        participant = await participant_using(team, secret)
        return page_reply(await team.comments(participant.interaction_id, cursor),
                          participant=True)

    @post("/comments", status_code=201, before_request=check_json_data,
          responses=errors(404, 409, 429, *BODY_ERRORS))
    async def comment(self, secret: FromPath[str], data: JSONBody[CommentBody],
                      team: Team) -> dict[str, Any]:
        """Add to the discussion (plain text; at most 4000 characters, 20 a minute). 409
        once it has ended, or when it holds 500 comments (`discussion_full`) or this link
        wrote 100 (`too_many_comments`)."""
        participant = await participant_using(team, secret)
        comment = await team.comment(participant.interaction_id, data, participant)
        return comment_reply(comment)

    @put("/vote", before_request=check_json_data,
         responses=errors(404, 409, 429, *BODY_ERRORS))
    async def vote(self, secret: FromPath[str], data: JSONBody[VoteBody],
                   team: Team) -> dict[str, Any]:
        """Your vote, replacing any earlier one; `[]` withdraws it. 409 once it has ended;
        429 (with `Retry-After`) after 10 changes in a minute."""
        participant = await participant_using(team, secret)
        chosen = await team.vote(participant, data, via="api")
        return {"option_ids": chosen}
