"""`WS /ws/d/<secret>`: the live side of a participant's page (and `WS /ws/widened/<id>`, the
same for a member's page in team mode).

Authorised by the link's secret alone (no session; the Origin is checked by
`security.guards.OriginCheck` as for every socket); a member's by their session. On connect
it sends the deadline (with the server's clock, for the countdown); after that, whatever the
discussion feed pushes: new comments, the tally, the people, a changed deadline, or that the
question ended. A socket lives no longer than what it shows: when the discussion ends it is
told so and closed with `ENDED` (a page that connects after the end hears the status, then
`ENDED`); a withdrawn link's page is closed with 4404, and the page then shows what the link
shows now: nothing. A page that falls behind is closed (it reconnects and refetches). One
link keeps at most `LINK_SOCKETS` open (the oldest closes with `REPLACED`), opens at most
`LINK_HANDSHAKES` in `HANDSHAKE_WINDOW` seconds (then its handshakes are refused unread),
and a message over `INBOUND_BYTES` closes its socket with 1009 (`socket_limits`). A member's
socket is as live as the session that opened it (`security.live_access`, checked every few
seconds): signed out or cut off by an admin, it closes with "sign in first" (4401).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from litestar import WebSocket, websocket
from litestar.exceptions import WebSocketDisconnect
from litestar.params import FromPath, FromQuery

from choice.contract.clock import now
from choice.contract.errors import NotFound
from choice.store.records import Participant
from choice.store.team import DISCUSSION_OPEN
from choice.team.service import UnknownLink
from choice.web.deps import Feeds, PortalCredentials, Service, Team
from choice.web.live.socket_limits import REPLACED, read_until_gone, wake_with_none
from choice.web.live.sockets import GONE, UNAUTHORIZED
from choice.web.security.auth import Access
from choice.web.security.live_access import AccessWatch
from choice.web.views.team import chosen_language

FELL_BEHIND = 4408
TOO_OFTEN = 4429
"""The link opened sockets too often (`socket_limits.LINK_HANDSHAKES`)."""
ENDED = 4410
"""The question is over: nothing more will come (the page does not reconnect)."""


async def refuse(socket: WebSocket[Any, Any, Any]) -> None:
    await socket.accept()  # then close with a code the page can read (a refused
    await socket.close(code=GONE, reason="this link opens nothing")  # handshake is 1006)


@websocket("/ws/d/{secret:str}")
async def participant_socket(socket: WebSocket[Any, Any, Any], service: Service, team: Team,
                             feeds: Feeds,
                             secret: FromPath[str], lang: FromQuery[str | None] = None) -> None:
    await serve(socket, service, team, feeds, secret, lambda: team.participant(secret), lang)


@websocket("/ws/widened/{question_id:str}")
async def member_participant_socket(socket: WebSocket[Any, Any, Any], service: Service,
                                    team: Team, feeds: Feeds, credentials: PortalCredentials,
                                    question_id: FromPath[str],
                                    lang: FromQuery[str | None] = None) -> None:
    """Team mode: the same socket for a member's page (`/widened/<id>`), authorised by their
    session: refused alike unless the question is widened to them and not withdrawn."""
    access = socket.scope.get("auth")
    member_id = access.member_id if isinstance(access, Access) and access.session else None
    await serve(socket, service, team, feeds, f"{member_id}:{question_id}",
                lambda: team.member_participant(question_id, member_id), lang,
                AccessWatch(credentials, socket))


async def serve(socket: WebSocket[Any, Any, Any], service: Service, team: Team, feeds: Feeds,
                key: str, find: Callable[[], Awaitable[Participant]], lang: str | None,
                watch: AccessWatch | None = None) -> None:
    """The socket of the participant `find` names (`UnknownLink`: refused); `key`: what its
    handshakes are counted by; `watch`: a member's session, checked while it is open (a
    guest's link has none: withdrawing the link is what ends it)."""
    if not feeds.handshakes.allows(key):  # a link reconnecting in a loop: refused before
        await socket.close(code=TOO_OFTEN)   # anything is read for it (a 403 handshake)
        return
    try:
        participant = await find()
    except UnknownLink:
        await refuse(socket)
        return
    feeds.handshakes.took(key)
    # Watching before the handshake completes: a change the page could miss between its
    # socket opening and its catch-up request is already queued here.
    provisional = chosen_language(service, None, lang, socket.headers)  # until the question is read
    with feeds.watch(participant.interaction_id, participant.id, provisional) as watcher, \
            feeds.links.hold(participant.id, lambda: wake_with_none(watcher.queue)) as held:
        try:  # read now that changes are heard: an ending or a withdrawal since the first
            participant = await find()  # read is not missed
            row = await service.get(participant.interaction_id)
        except (UnknownLink, NotFound):
            await refuse(socket)
            return
        watcher.locale = locale = chosen_language(service, row, lang, socket.headers)
        await socket.accept()
        reader = asyncio.create_task(read_until_gone(socket, watcher.queue))
        try:
            await socket.send_json({"type": "deadline", "status": row.status,
                                    "expires_at_ms": round(row.expires_at * 1000),
                                    "server_now_ms": round(now() * 1000)})
            if row.status not in DISCUSSION_OPEN:
                await socket.close(code=ENDED, reason="this question is over")
                return
            while True:
                push = await next_push(watcher.queue, watch)
                if push is SIGNED_OUT:
                    await socket.close(code=UNAUTHORIZED, reason="sign in first")
                    return
                if held.replaced:
                    await socket.close(code=REPLACED, reason="opened in too many pages")
                    return
                if push is None:
                    if not watcher.dropped:
                        return  # the page went away
                    await socket.close(code=FELL_BEHIND, reason="fell behind: reconnect")
                    return
                if participant.id in push.revoked:
                    await socket.close(code=GONE, reason="this link was withdrawn")
                    return
                await socket.send_text(push.text_for(locale))
                if push.ended:
                    await socket.close(code=ENDED, reason="this question is over")
                    return
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass  # the page went away mid-send
        finally:
            reader.cancel()


SIGNED_OUT = object()
"""What `next_push` returns once the session that opened the socket has ended."""


async def next_push(queue: asyncio.Queue[Any], watch: AccessWatch | None) -> Any:
    """The next push from the feed; without a `watch` it waits as long as it takes, with one
    it checks the session whenever one is due (`SIGNED_OUT` once it has ended)."""
    if watch is None:
        return await queue.get()
    while await watch.still_live():
        try:
            async with asyncio.timeout(watch.seconds_to_check()):
                return await queue.get()
        except TimeoutError:
            continue
    return SIGNED_OUT
