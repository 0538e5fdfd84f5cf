"""`GET /api/stream`: server-sent events for chat clients that must block their input while
a prompt is pending (`interaction.created` with the whole question and the request's
`context`, `interaction.completed`, `interaction.updated`; for a `request_user_choice`, also
its `user_choice_required`), and for dashboards following a team decision
(`interaction.widened`, `discussion.changed`, `interaction.reminder`, `interaction.deferred`,
`interaction.resumed`, `decision.changed`). `?conversation_id=` and `?tool_call_id=` keep
only the events of the interactions asked with that context (a chat UI follows its own).

On connect, every pending interaction is replayed as `interaction.created` with
`"replay": true`, so a client that starts late still knows what is open. Every event's data
carries `"schema_version": 1` (as every schema here does; a breaking change bumps it).

The token or session that opened a stream is checked again every few seconds
(`security.live_access`): once it is revoked, signed out or replaced by a new token, the
stream ends (reconnecting with it is then a 401).
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import AsyncIterator, Iterator
from typing import Annotated, Any, TypeAlias

from litestar import Request, get
from litestar.params import QueryParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage
from msgspec import Struct

from choice.contract import CONTEXT_VALUE_MAX, SCHEMA_VERSION, ChoiceRequest
from choice.contract.compat import user_choice_required
from choice.core.notifier import Subscription
from choice.core.replies import listing, whole_question
from choice.store.records import Interaction
from choice.team.links import member_path
from choice.web.api.openapi import described, errors
from choice.web.deps import PortalCredentials, Service
from choice.web.security.guards import BEARER, bearer_token_guard
from choice.web.security.live_access import AccessWatch
from choice.web.security.ownership import hears_as_participant, member_of, sees_change

HEARTBEAT_SECONDS = 15.0
PAGE_ONLY = frozenset({"interaction.opened", "interaction.draft"})
"""Changes for the portal's own pages (a socket connected, a draft typed), not for agents."""
ConversationId: TypeAlias = Annotated[str | None, QueryParameter(
    description="only the events of interactions whose context has this conversation_id",
    max_length=CONTEXT_VALUE_MAX)]
ToolCallId: TypeAlias = Annotated[str | None, QueryParameter(
    description="only the events of interactions whose context has this tool_call_id",
    max_length=CONTEXT_VALUE_MAX)]


def _message(kind: str, data: dict[str, Any]) -> ServerSentEventMessage:
    return ServerSentEventMessage(event=kind,
                                  data=json.dumps({**data, "schema_version": SCHEMA_VERSION}))


_VALIDATED: OrderedDict[str, ChoiceRequest] = OrderedDict()
VALIDATED_KEPT = 512


def _request(row: Interaction) -> ChoiceRequest:
    """The stored request, validated once for every subscriber (each one reads each
    change): kept by the interaction's id (a stored request never changes), the newest
    `VALIDATED_KEPT`."""
    request = _VALIDATED.get(row.id)
    if request is None:
        request = _VALIDATED[row.id] = ChoiceRequest.model_validate(row.request_json)
        if len(_VALIDATED) > VALIDATED_KEPT:
            _VALIDATED.popitem(last=False)
    return request


class Only(Struct, frozen=True):
    """`?conversation_id=` / `?tool_call_id=`: the events of matching interactions only."""

    conversation_id: str | None = None
    tool_call_id: str | None = None

    def __bool__(self) -> bool:
        return self.conversation_id is not None or self.tool_call_id is not None

    def match(self, row: Interaction | None) -> bool:
        if not self:
            return True
        if row is None:
            return False
        context = _request(row).context
        return all(wanted is None or wanted == got for wanted, got in (
            (self.conversation_id, context.conversation_id),
            (self.tool_call_id, context.tool_call_id)))


def _created(row: Interaction, replay: bool) -> Iterator[ServerSentEventMessage]:
    """`interaction.created` with the whole question and the request's context, and for a
    `request_user_choice` its `user_choice_required` right after it."""
    extra = {"replay": True} if replay else {}
    listed = listing(row)
    request = _request(row)
    yield _message("interaction.created", {
        **listed, "question": whole_question(request).to_json(),
        "context": request.context.model_dump(exclude_none=True), **extra})
    if request.shape == "request_user_choice":
        yield _message("user_choice_required", {**user_choice_required(request, listed), **extra})


async def _events(service: Service, only: Only, member_id: str | None, watch: AccessWatch,
                  ) -> AsyncIterator[ServerSentEventMessage]:
    with service.notifier.subscribe() as subscription:
        for row in reversed(await service.recent("active", 1000, member_id)):
            if only.match(row):
                for message in _created(row, replay=True):
                    yield message
        async for message in _live(service, subscription, only, member_id, watch):
            yield message


async def _live(service: Service, subscription: Subscription, only: Only, member_id: str | None,
                watch: AccessWatch) -> AsyncIterator[ServerSentEventMessage]:
    """The changes the caller may hear, a keep-alive after `HEARTBEAT_SECONDS` of silence,
    until it falls behind or its access ends."""
    clock = asyncio.get_running_loop().time
    next_beat = clock() + HEARTBEAT_SECONDS
    while await watch.still_live():
        try:  # no task per wait, unlike wait_for on 3.11
            async with asyncio.timeout(max(0.0, min(next_beat, watch.next_check) - clock())):
                change = await subscription.queue.get()
        except TimeoutError:
            if clock() >= next_beat:
                next_beat = clock() + HEARTBEAT_SECONDS
                yield ServerSentEventMessage(comment="keep-alive")
            continue
        next_beat = clock() + HEARTBEAT_SECONDS
        if change is None:  # fell behind: end the stream, the client reconnects and replays
            return
        if change.kind in PAGE_ONLY or not only.match(change.row):
            continue
        if not await sees_change(service.store, change, member_id):
            # Team mode: another member's question, heard only once widened to this one.
            if change.kind == "interaction.widened" and await hears_as_participant(
                    service.store, change, member_id):
                yield _message("interaction.widened_to_you",
                               {**change.data, "path": member_path(change.interaction_id)})
            continue
        if change.kind == "interaction.created" and change.row is not None:
            for message in _created(change.row, replay=False):
                yield message
        else:
            yield _message(change.kind, change.data)


@get("/api/stream", guards=[bearer_token_guard], security=BEARER, tags=["stream"], responses={
    200: described(str, "Server-sent events, one JSON object per `data:` line.",
                   media_type="text/event-stream"), **errors()})
async def stream(request: Request[Any, Any, Any], service: Service,
                 credentials: PortalCredentials, conversation_id: ConversationId = None,
                 tool_call_id: ToolCallId = None) -> ServerSentEvent:
    """Live interaction events (text/event-stream), pending ones replayed first; with
    `conversation_id` / `tool_call_id`, only those of interactions asked with them."""
    only = Only(conversation_id, tool_call_id)
    member_id = member_of(request, service.settings.team_mode)
    return ServerSentEvent(_events(service, only, member_id, AccessWatch(credentials, request)),
                           headers={"Cache-Control": "no-store"})
