"""`WS /ws/choice/{id}` and `WS /ws/portal`: the live side of a portal tab.

On connect and on every change the server pushes the interaction's deadline (with its own
clock, so the page can correct for skew) and re-syncs every few seconds; the page ticks
locally in between. Every tab also hears list changes and new questions. The handshake
needs the session cookie; its Origin is checked by `security.RequestGuard` before this.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from litestar import WebSocket, websocket
from litestar.exceptions import WebSocketDisconnect
from litestar.params import FromPath

from choice.clock import now
from choice.notifier import Change
from choice.service import InteractionService
from choice.store.records import Interaction
from choice.store.repository import NotFound
from choice.web.auth import has_session
from choice.web.deps import OpenTabs, Service
from choice.web.tabs import Tabs

SYNC_SECONDS = 5.0
UNAUTHORIZED, GONE = 4401, 4404


def state_message(row: Interaction) -> dict[str, Any]:
    return {"type": "deadline", "interaction_id": row.id, "status": row.status,
            "expires_at_ms": round(row.expires_at * 1000), "server_now_ms": round(now() * 1000)}


async def _drain(socket: WebSocket[Any, Any, Any], wake: asyncio.Queue[Change | None]) -> None:
    """Read (and ignore) what the page sends; when it goes away, end the send loop."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            await socket.receive_data(mode="text")
    with contextlib.suppress(asyncio.QueueFull):
        wake.put_nowait(None)


def _message_for(change: Change, interaction_id: str | None) -> dict[str, Any] | None:
    if change.interaction_id == interaction_id and change.row is not None:
        if change.kind == "interaction.completed":
            return {"type": "status", "interaction_id": change.interaction_id,
                    "status": change.row.status}
        if change.kind == "interaction.updated":
            return state_message(change.row)
    if change.kind == "interaction.created":
        return {"type": "created", "interaction_id": change.interaction_id,
                "title": change.data.get("title"), "interface": change.data.get("interface"),
                "path": f"/choice/{change.interaction_id}"}
    if change.kind == "interaction.completed":
        return {"type": "list"}
    return None


async def serve_socket(socket: WebSocket[Any, Any, Any], service: InteractionService,
                       tabs: Tabs, interaction_id: str | None) -> None:
    await socket.accept()  # then close with a code the page can read (a refused
    if not has_session(socket):  # handshake only shows it 1006)
        await socket.close(code=UNAUTHORIZED, reason="sign in first")
        return
    with tabs.connected(), service.notifier.subscribe() as subscription:
        row: Interaction | None = None
        if interaction_id is not None:
            try:
                row = await service.get(interaction_id)
            except NotFound:
                await socket.close(code=GONE, reason="no such interaction")
                return
            await socket.send_json(state_message(row))
            if row.status == "pending":
                await service.mark_opened(row.id, "web", "human:web")
        reader = asyncio.create_task(_drain(socket, subscription.queue))
        try:
            await _push(socket, subscription.queue, row, interaction_id)
        except (WebSocketDisconnect, RuntimeError):
            pass  # the tab went away mid-send
        finally:
            reader.cancel()


async def _push(socket: WebSocket[Any, Any, Any], queue: asyncio.Queue[Change | None],
                row: Interaction | None, interaction_id: str | None) -> None:
    while True:
        try:
            change = await asyncio.wait_for(queue.get(), SYNC_SECONDS)
        except TimeoutError:
            if row is not None and row.status == "pending":
                await socket.send_json(state_message(row))
            continue
        if change is None:
            return
        if change.interaction_id == interaction_id and change.row is not None:
            row = change.row
        message = _message_for(change, interaction_id)
        if message is not None:
            await socket.send_json(message)


@websocket("/ws/choice/{interaction_id:str}")
async def choice_socket(socket: WebSocket[Any, Any, Any], service: Service, tabs: OpenTabs,
                        interaction_id: FromPath[str]) -> None:
    await serve_socket(socket, service, tabs, interaction_id)


@websocket("/ws/portal")
async def portal_socket(socket: WebSocket[Any, Any, Any], service: Service, tabs: OpenTabs) -> None:
    await serve_socket(socket, service, tabs, None)
