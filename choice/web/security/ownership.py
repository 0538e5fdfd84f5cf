"""Team mode: a question is its member's. Every route about one question (the API, its
`?wait`, events, files, draft, the page, its socket) answers 404 to anyone else, with the
very body an id that does not exist gets; lists and streams show a member only their own.

The question's member is the one whose token or session asked it (`member_id` on its row).
`owned_only` is the guard that holds every route whose path names an `interaction_id`, so a
route added later is covered without thinking of it; `member_of` is what list and stream
handlers filter by; `hears_as_participant` lets through what a member hears of a question
widened to them (its own routes, `/widened/<id>`, take their session instead). In local
mode none is used: one owner sees everything.
"""

from __future__ import annotations

from typing import Any

from litestar.connection import ASGIConnection
from litestar.exceptions import NotAuthorizedException
from litestar.handlers.base import BaseRouteHandler
from litestar.types import Guard

from choice.contract.errors import NotFound
from choice.core.notifier import Change
from choice.store import Store
from choice.store.members import participant_member, whose_question, widened_to_member
from choice.store.records import Interaction
from choice.web.security.auth import Access


def member_of(connection: ASGIConnection[Any, Any, Any, Any], team_mode: bool) -> str | None:
    """Whose questions this request may see: its member's in team mode (401 when it proved
    no member), None (every question) in local mode."""
    if not team_mode:
        return None
    access = connection.scope.get("auth")
    if not isinstance(access, Access) or access.member_id is None:
        raise NotAuthorizedException("sign in, or send a member's token as "
                                     "'Authorization: Bearer <token>'.")
    return access.member_id


def signed_in_member(connection: ASGIConnection[Any, Any, Any, Any]) -> str | None:
    """Team mode: the member this request proved (token or session), if any; None in local
    mode and for nobody signed in. For what may be shown without a member (a page's
    language); what needs one uses `member_of`."""
    access = connection.scope.get("auth")
    return access.member_id if isinstance(access, Access) and access.team else None


def owned_only(store: Store) -> Guard:
    """The app's guard in team mode: a request about a question that is not its member's
    gets `NotFound`, exactly as a question that does not exist does."""

    async def guard(connection: ASGIConnection[Any, Any, Any, Any],
                    _handler: BaseRouteHandler) -> None:
        interaction_id = connection.path_params.get("interaction_id")
        if interaction_id is None:
            return
        access = connection.scope.get("auth")
        if not isinstance(access, Access) or not (access.token or access.session):
            return  # nobody signed in: the route's own guard refuses (401, or the sign-in)
        whose = await store.read(whose_question, store.engine, interaction_id)
        # A missing question too, here: before the route reads a body or a query, so
        # someone else's and a missing one get the same answer from every route.
        if not whose.exists or access.member_id is None or whose.member_id != access.member_id:
            raise NotFound(interaction_id)

    return guard


async def sees_change(store: Store, change: Change, member_id: str | None) -> bool:
    """Whether a stream or socket of `member_id` hears `change` (None: local mode, every
    change): a question's change only its member; an agent's notice only the member whose
    token sent it."""
    if member_id is None:
        return True
    if change.kind == "agent.waiting":
        return change.data.get("member_id") == member_id
    row = change.row
    if isinstance(row, Interaction):
        return row.member_id == member_id
    whose = await store.read(whose_question, store.engine, change.interaction_id)
    return whose.member_id == member_id


async def hears_as_participant(store: Store, change: Change, member_id: str | None) -> bool:
    """Team mode: whether `change`, about a question that is not the member's, concerns them
    as a participant: the question was just widened to them (their pages say so and their
    list gains it), or their invitation was withdrawn (their list loses it)."""
    if member_id is None:
        return False
    if change.kind == "interaction.widened":
        return await store.read(widened_to_member, store.engine, change.interaction_id,
                                member_id)
    if change.kind == "discussion.changed" and change.data.get("change") == "revoked":
        participant_id = str(change.data.get("participant_id") or "")
        return await store.read(participant_member, store.engine, participant_id) == member_id
    return False
