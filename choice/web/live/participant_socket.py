"""`WS /ws/d/<secret>`: the live side of a participant's page.

Authorised by the link's secret alone (no session; the Origin is checked by
`security.RequestGuard` as for every socket). On connect it sends the deadline (with the
server's clock, for the countdown); after that, whatever the discussion feed pushes: new
comments, the tally, the people, a changed deadline, or that the question ended. A page
that falls behind is closed (it reconnects and refetches); a withdrawn link's page is
closed with 4404, and the page then shows what the link shows now: nothing.
"""

from __future__ import annotations

import asyncio
from typing import Any

from litestar import WebSocket, websocket
from litestar.exceptions import WebSocketDisconnect
from litestar.params import FromPath, FromQuery

from choice.contract.clock import now
from choice.contract.errors import NotFound
from choice.team.service import UnknownLink
from choice.web.deps import Feeds, Service, Team
from choice.web.live.sockets import GONE, drain
from choice.web.views.team import chosen_language

FELL_BEHIND = 4408


@websocket("/ws/d/{secret:str}")
async def participant_socket(socket: WebSocket[Any, Any, Any], service: Service, team: Team,
                             feeds: Feeds,
                             secret: FromPath[str], lang: FromQuery[str | None] = None) -> None:
    try:
        participant = await team.participant(secret)
        row = await service.get(participant.interaction_id)
    except (UnknownLink, NotFound):
        await socket.accept()  # then close with a code the page can read (a refused
        await socket.close(code=GONE, reason="this link opens nothing")  # handshake is 1006)
        return
    locale = chosen_language(service, row, lang)
    # Watching before the handshake completes: a change the page could miss between its
    # socket opening and its catch-up request is already queued here.
    with feeds.watch(row.id, participant.id, locale) as watcher:
        await socket.accept()
        reader = asyncio.create_task(drain(socket, watcher.queue))
        try:
            await socket.send_json({"type": "deadline", "status": row.status,
                                    "expires_at_ms": round(row.expires_at * 1000),
                                    "server_now_ms": round(now() * 1000)})
            while True:
                push = await watcher.queue.get()
                if push is None:
                    if not watcher.dropped:
                        return  # the page went away
                    await socket.close(code=FELL_BEHIND, reason="fell behind: reconnect")
                    return
                if participant.id in push.revoked:
                    await socket.close(code=GONE, reason="this link was withdrawn")
                    return
                await socket.send_text(push.text_for(locale))
        except (WebSocketDisconnect, RuntimeError):
            pass  # the page went away mid-send
        finally:
            reader.cancel()
