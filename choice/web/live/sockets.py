"""`WS /ws/choice/{id}` and `WS /ws/portal`: the live side of a portal tab.

On connect and on every change the server pushes the interaction's deadline (with its own
clock, so the page can correct for skew) and re-syncs every few seconds; the page ticks
locally in between. Every tab also hears list changes, new questions and reminders of
widened ones; a question's tab hears when its team discussion changed (`team`: the page
refetches its panel) and when its write-back did (`decision`: a review asked for, the
agent's candidate, the fallback, the quorum; a deferral or taking up again comes as a
`deadline` with the new status) and when its draft did (`draft`: the page refetches it
unless it wrote it). The handshake needs the session cookie; its Origin is checked by
`security.guards.OriginCheck` before this. One session keeps at most `SESSION_SOCKETS` open (the
oldest closes with `REPLACED`) and a message over `INBOUND_BYTES` closes its socket with
1009 (`socket_limits`). The session that opened a socket is checked again every few
seconds (`security.live_access`): once it ends (sign-out, a new token, an admin ending the
member's access) the socket closes with `UNAUTHORIZED`. A tab's socket outlives its
question's end on purpose: the tab still hears new questions and reminders, and counts as
the open tab that new questions go to instead of a new browser window. (Participants' pages
have their own socket: `participant_socket.py`.)
"""

from __future__ import annotations

import asyncio
from typing import Any

from litestar import WebSocket, websocket
from litestar.exceptions import WebSocketDisconnect
from litestar.params import FromPath

from choice.contract import OPEN_STATUSES
from choice.contract.clock import now
from choice.contract.errors import NotFound
from choice.contract.safe_text import closed_bidi
from choice.core.actors import Actor
from choice.core.notifier import Change, ChangeKind, Subscription
from choice.core.service import InteractionService
from choice.store.records import Interaction
from choice.team.links import member_path
from choice.web.deps import OpenTabs, PortalCredentials, Service
from choice.web.live.socket_limits import REPLACED, Held, read_until_gone, wake_with_none
from choice.web.live.tabs import Tabs
from choice.web.security.auth import Credentials, has_session
from choice.web.security.live_access import AccessWatch
from choice.web.security.ownership import hears_as_participant, member_of, sees_change
from choice.web.security.sessions import COOKIE, SECURE_COOKIE
from choice.web.views.list_cache import moves_a_line

SYNC_SECONDS = 5.0
LIST_SECONDS = 0.5
"""A tab hears `list` (refresh the question list) at most this often."""
LIST: dict[str, Any] = {"type": "list"}
SHOWN: tuple[ChangeKind, ...] = ("interaction.created", "interaction.completed", "interaction.updated",
                                 "interaction.widened", "interaction.reminder",
                                 "interaction.deferred", "interaction.resumed", "agent.waiting")
"""The changes a tab shows; `interaction.opened` (every socket that connects) is not one."""
ENDED_FOR_LIST: tuple[ChangeKind, ...] = ("interaction.completed", "interaction.widened",
                                          "interaction.deferred", "interaction.resumed")
"""Another question's change that only moves its line in the list (its status badge)."""
UNAUTHORIZED, GONE = 4401, 4404


def state_message(row: Interaction) -> dict[str, Any]:
    return {"type": "deadline", "interaction_id": row.id, "status": row.status,
            "expires_at_ms": round(row.expires_at * 1000), "server_now_ms": round(now() * 1000)}


def _message_for(change: Change, interaction_id: str | None) -> dict[str, Any] | None:
    if change.kind == "interaction.draft":
        return ({"type": "draft", "tab": change.data.get("tab"),
                 "files": bool(change.data.get("files"))}
                if change.interaction_id == interaction_id else None)
    if change.interaction_id == interaction_id and change.row is not None:
        if change.kind == "interaction.completed":
            return {"type": "status", "interaction_id": change.interaction_id,
                    "status": change.row.status}
        if change.kind in ("interaction.updated", "interaction.widened",
                           "interaction.deferred", "interaction.resumed"):
            return state_message(change.row)  # widening may move the deadline too
        if change.kind == "discussion.changed":
            return {"type": "team", "interaction_id": change.interaction_id,
                    "change": change.data.get("change")}
        if change.kind == "decision.changed":
            return {"type": "decision", "interaction_id": change.interaction_id,
                    "change": change.data.get("change")}
    if change.kind == "agent.waiting":  # an agent waits at its own prompt: every tab says so
        return {"type": "agent_waiting", **{key: closed_bidi(str(change.data.get(key) or ""))
                                            for key in ("message", "agent", "project")},
                "waiting_for": change.data.get("waiting_for")}
    if change.kind == "interaction.reminder":
        title = change.data.get("title") or (change.row.title if change.row is not None else "")
        return {"type": "reminder", "interaction_id": change.interaction_id,
                "title": closed_bidi(str(title)), "path": f"/choice/{change.interaction_id}",
                "reason": change.data.get("reason"),
                "seconds_left": change.data.get("seconds_left")}
    if change.kind == "interaction.created":
        title = closed_bidi(str(change.data.get("title") or ""))  # the page puts it in a sentence
        return {"type": "created", "interaction_id": change.interaction_id, "title": title,
                "interface": change.data.get("interface"), "path": f"/choice/{change.interaction_id}"}
    if change.kind in ENDED_FOR_LIST or moves_a_line(change):  # e.g. another one switched
        return LIST
    return None


def widened_to_you(row: Interaction) -> dict[str, Any]:
    """Team mode: another member widened their question to this tab's member (list.js
    says so, with a link to the member's participant page)."""
    return {"type": "widened_to_you", "interaction_id": row.id,
            "title": closed_bidi(row.title), "path": member_path(row.id)}


def session_key(socket: WebSocket[Any, Any, Any]) -> str:
    """Which signed-in browser this is, for `Tabs.sessions`: its session's cookie (the
    guard let it in, so one of the two names holds a live session)."""
    return socket.cookies.get(SECURE_COOKIE) or socket.cookies.get(COOKIE, "")


async def serve_socket(socket: WebSocket[Any, Any, Any], service: InteractionService,
                       tabs: Tabs, credentials: Credentials, interaction_id: str | None) -> None:
    team_mode = service.settings.team_mode

    def collapse(change: Change) -> bool:  # another question answered: only "refresh the list"
        return (change.kind in ENDED_FOR_LIST and change.interaction_id != interaction_id
                # team mode: a question widened to this member is news of its own
                and not (team_mode and change.kind == "interaction.widened"))

    # A tab showing no question has no team panel: comments need not wake it.
    kinds = ((*SHOWN, "discussion.changed", "decision.changed", "interaction.draft")
             if interaction_id is not None else SHOWN)
    # Listening before the handshake completes: a change made once the page sees its socket
    # open (and before its catch-up request) is already queued here.
    with service.notifier.subscribe(kinds, collapse) as subscription:
        await socket.accept()  # then close with a code the page can read (a refused
        if not has_session(socket):  # handshake only shows it 1006)
            await socket.close(code=UNAUTHORIZED, reason="sign in first")
            return
        with tabs.connected(), tabs.sessions.hold(
                session_key(socket), lambda: wake_with_none(subscription.queue)) as held:
            await _serve(socket, service, subscription, held, AccessWatch(credentials, socket),
                         interaction_id)


async def _serve(socket: WebSocket[Any, Any, Any], service: InteractionService,
                 subscription: Subscription, held: Held, watch: AccessWatch,
                 interaction_id: str | None) -> None:
    """The tab's first state, then what changes, until it goes away or is replaced."""
    row: Interaction | None = None
    if interaction_id is not None:
        try:
            row = await service.get(interaction_id)
        except NotFound:
            await socket.close(code=GONE, reason="no such interaction")
            return
        await socket.send_json(state_message(row))
        if row.status in OPEN_STATUSES:
            await service.mark_opened(row.id, "web", Actor.owner("web"))
    reader = asyncio.create_task(read_until_gone(socket, subscription.queue))
    try:
        if not await _push(socket, service, subscription, watch, row, interaction_id):
            await socket.close(code=UNAUTHORIZED, reason="sign in first")
        elif held.replaced:
            await socket.close(code=REPLACED, reason="opened in too many tabs")
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass  # the tab went away mid-send
    finally:
        reader.cancel()


async def _push(socket: WebSocket[Any, Any, Any], service: InteractionService,
                subscription: Subscription, watch: AccessWatch, row: Interaction | None,
                interaction_id: str | None) -> bool:
    """Send what the tab shows until it goes away or falls behind (True), or its session
    ends (False). Other questions' answers are one `list` refresh at most every
    `LIST_SECONDS` (the subscription collapses them until it is sent): a burst of answers
    wakes and refreshes each tab once, not per answer."""
    clock = asyncio.get_running_loop().time
    next_list, list_held = 0.0, False
    next_sync = clock() + SYNC_SECONDS
    member_id = member_of(socket, service.settings.team_mode)  # team mode: the tab's member
    while True:
        if not await watch.still_live():
            return False
        due = max(next_list, clock()) if list_held else next_sync
        try:  # no task per wait, unlike wait_for on 3.11
            async with asyncio.timeout(max(0.0, min(due, watch.next_check) - clock())):
                change = await subscription.queue.get()
        except TimeoutError:
            if clock() < due:
                continue  # woken only to check the session
            if list_held:
                list_held, next_list = False, clock() + LIST_SECONDS
                subscription.reopen()
                await socket.send_json(LIST)
            else:
                next_sync = clock() + SYNC_SECONDS
                if row is not None and row.status in OPEN_STATUSES:
                    await socket.send_json(state_message(row))
            continue
        if change is None:
            return True
        next_sync = clock() + SYNC_SECONDS
        if change.kind == "interaction.draft" and change.interaction_id != interaction_id:
            continue  # another question's draft: nothing this tab shows, nobody to look up
        if not await sees_change(service.store, change, member_id):
            # Team mode: another member's question or agent, unless widened to this one.
            if await hears_as_participant(service.store, change, member_id):
                list_held = True  # their list gains it, or loses it
                if change.kind == "interaction.widened" and change.row is not None:
                    await socket.send_json(widened_to_you(change.row))
            elif not list_held:
                subscription.reopen()  # a collapsed change it never showed must not hold
            continue                   # back the next one it would show
        if change.interaction_id == interaction_id and change.row is not None:
            row = change.row
        message = _message_for(change, interaction_id)
        if message == LIST:
            list_held = True
        elif message is not None:
            await socket.send_json(message)


@websocket("/ws/choice/{interaction_id:str}")
async def choice_socket(socket: WebSocket[Any, Any, Any], service: Service, tabs: OpenTabs,
                        credentials: PortalCredentials, interaction_id: FromPath[str]) -> None:
    await serve_socket(socket, service, tabs, credentials, interaction_id)


@websocket("/ws/portal")
async def portal_socket(socket: WebSocket[Any, Any, Any], service: Service, tabs: OpenTabs,
                        credentials: PortalCredentials) -> None:
    await serve_socket(socket, service, tabs, credentials, None)

