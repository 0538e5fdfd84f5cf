"""`GET /api/stream`: server-sent events for chat clients that must block their input while
a prompt is pending (`interaction.created`, `interaction.completed`, `interaction.updated`;
for a `request_user_choice`, also the ADR's `user_choice_required` with the question and
options),
and for dashboards following a team decision (`interaction.widened`, `discussion.changed`,
`interaction.reminder`, `interaction.deferred`, `interaction.resumed`, `decision.changed`).

On connect, every pending interaction is replayed as `interaction.created` with
`"replay": true`, so a client that starts late still knows what is open. Every event's data
carries `"schema_version": 1` (the seed: every schema does; a breaking change bumps it).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

from litestar import get
from litestar.response import ServerSentEvent, ServerSentEventMessage

from choice.compat import user_choice_required
from choice.contract import SCHEMA_VERSION
from choice.endings import request_of
from choice.notifier import Subscription
from choice.replies import listing
from choice.store.records import Interaction
from choice.web.deps import Service
from choice.web.openapi import described, errors
from choice.web.security import BEARER, bearer_token_guard

HEARTBEAT_SECONDS = 15.0
ASKED_BY_USER_CHOICE = '"shape":"request_user_choice"'
"""How a stored request (compact JSON) says which shape asked."""


def _message(kind: str, data: dict[str, Any]) -> ServerSentEventMessage:
    return ServerSentEventMessage(event=kind,
                                  data=json.dumps({**data, "schema_version": SCHEMA_VERSION}))


def _created(row: Interaction, replay: bool) -> Iterator[ServerSentEventMessage]:
    """`interaction.created`, and for a `request_user_choice` the ADR's
    `user_choice_required` (the question and its options) right after it."""
    extra = {"replay": True} if replay else {}
    listed = listing(row)
    yield _message("interaction.created", {**listed, **extra})
    if ASKED_BY_USER_CHOICE in row.request_json:  # parse only those: this runs per subscriber
        request = request_of(row)
        yield _message("user_choice_required", {**user_choice_required(request, listed), **extra})


async def _events(service: Service) -> AsyncIterator[ServerSentEventMessage]:
    with service.notifier.subscribe() as subscription:
        for row in reversed(await service.recent("active", 1000)):
            for message in _created(row, replay=True):
                yield message
        async for message in _live(subscription):
            yield message


async def _live(subscription: Subscription) -> AsyncIterator[ServerSentEventMessage]:
    while True:
        try:
            change = await asyncio.wait_for(subscription.queue.get(), HEARTBEAT_SECONDS)
        except TimeoutError:
            yield ServerSentEventMessage(comment="keep-alive")
            continue
        if change is None:  # fell behind: end the stream, the client reconnects and replays
            return
        if change.kind == "interaction.created" and change.row is not None:
            for message in _created(change.row, replay=False):
                yield message
        elif change.kind != "interaction.opened":
            yield _message(change.kind, change.data)


@get("/api/stream", guards=[bearer_token_guard], security=BEARER, tags=["stream"], responses={
    200: described(str, "Server-sent events, one JSON object per `data:` line.",
                   media_type="text/event-stream"), **errors()})
async def stream(service: Service) -> ServerSentEvent:
    """Live interaction events (text/event-stream), pending ones replayed first."""
    return ServerSentEvent(_events(service), headers={"Cache-Control": "no-store"})
