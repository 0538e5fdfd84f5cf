"""JSON API for the owner's side of a team decision: widen a pending interaction, read its
discussion (the newest 50 comments, and the pages before them), comment, withdraw a
participant's link, set the team's quorum (`/api/interactions/{id}/...`).

Thin, like `api/interactions.py`: parse, call `InteractionService.team`, shape the reply. Behind
the bearer token (or the owner's browser session); a participant's link opens none of it.
"""

from __future__ import annotations

from typing import Any

from litestar import Controller, Response, delete, get, post, put
from litestar.params import FromPath, JSONBody

from choice.contract import Quorum
from choice.contract.clock import iso
from choice.contract.result import DiscussionData
from choice.core.actors import OWNER_API, Actor
from choice.core.replies import listing
from choice.team.models import CommentBody, QuorumBody, WidenRequest
from choice.team.payloads import comment_reply, owner_payload, page_reply
from choice.team.thread import API
from choice.web.api.body import check_json_data
from choice.web.api.interactions import agent_reply
from choice.web.api.openapi import BODY_ERRORS, Reply, described, errors
from choice.web.api.query import Before, check_cursor
from choice.web.deps import Service, Team
from choice.web.security.guards import BEARER, bearer_token_guard


class TeamController(Controller):
    path = "/api/interactions/{interaction_id:str}"
    guards = [bearer_token_guard]  # noqa: RUF012 - Litestar reads it from the class
    security = BEARER
    tags = ["team"]  # noqa: RUF012

    @post("/widen", status_code=201, before_request=check_json_data,
          responses=errors(404, 409, *BODY_ERRORS))
    async def widen(self, interaction_id: FromPath[str], data: JSONBody[WidenRequest],
                    team: Team) -> dict[str, Any]:
        """Invite teammates to discuss and vote on a pending question. Each participant's
        link is in this reply only (the portal keeps its hash). 409 if it is already widened
        or over; 422 for a bad audience. With `mode: continue` the agent's waiting call
        returns at once with `action_status: widened`."""
        invited = await team.widen(interaction_id, data, actor=Actor.owner("team"))
        return {"interaction": listing(invited.row), "mode": invited.widening.mode,
                "note": invited.widening.note, "expires_at": iso(invited.row.expires_at),
                "participants": [p.model_dump() for p in invited.participants],
                "warnings": invited.warnings}

    @get("/team", responses=errors(404))
    async def team(self, interaction_id: FromPath[str], team: Team) -> dict[str, Any]:
        """Who was invited and who opened their link, the tally, and the newest 50
        comments (`comments`, oldest first; `comments_before`: the cursor for `GET
        .../comments?before=`, null when there are none before)."""
        return owner_payload(await team.discussion(interaction_id, window=API))

    @get("/comments", responses=errors(404, 422))
    async def comments(self, interaction_id: FromPath[str], team: Team,
                       before: Before = None) -> dict[str, Any]:
        """The 50 comments before the cursor `before` (a `comments_before` of an earlier
        reply; left out, the newest 50), oldest first, and `comments_before` for the page
        before them (null: this is the start of the thread)."""
        cursor = check_cursor(before, "before")
        return page_reply(await team.comments(interaction_id, cursor), participant=False)

    @get("/discussion", responses=errors(404))
    async def discussion(self, interaction_id: FromPath[str], team: Team) -> DiscussionData:
        """The discussion as `DiscussionData`: participants, message_count, the newest 50 messages
        as `[Name] text`, truncated, thread_url (the owner's page)."""
        return await team.discussion_data(interaction_id)

    @post("/comments", status_code=201, before_request=check_json_data,
          responses=errors(404, 409, 429, *BODY_ERRORS))
    async def comment(self, interaction_id: FromPath[str], data: JSONBody[CommentBody],
                      team: Team) -> dict[str, Any]:
        """The owner's own message in the discussion (while it is widened). 409 once it has
        ended, or when it holds 500 comments (`discussion_full`)."""
        comment = await team.comment(interaction_id, data)
        return comment_reply(comment)

    @delete("/participants/{participant_id:str}", status_code=204, responses=errors(404))
    async def revoke(self, interaction_id: FromPath[str], participant_id: FromPath[str],
                     team: Team) -> Response[None]:
        """Withdraw one participant's link at once: it opens nothing from now on."""
        await team.revoke(interaction_id, participant_id)
        return Response(None, status_code=204)

    @put("/quorum", operation_id="setQuorum", before_request=check_json_data,
         responses={200: described(Reply, "The interaction as it now stands, as an agent "
                                          "sees it."), **errors(404, 409, *BODY_ERRORS)})
    async def quorum(self, interaction_id: FromPath[str], data: JSONBody[QuorumBody],
                     service: Service, team: Team) -> dict[str, Any]:
        """Set the team's quorum (`min_votes`, at most the people invited) or switch it
        off (`null`). If the votes already reach it, the question resolves now."""
        quorum = Quorum(min_votes=data.min_votes) if data.min_votes is not None else None
        row = await team.quorum.set(interaction_id, quorum, actor=OWNER_API)
        return await agent_reply(service, await service.get(row.id))
