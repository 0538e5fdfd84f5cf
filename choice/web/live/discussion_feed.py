"""Live updates of participants' pages: one read and one render per change, shared by every
open page of that discussion.

A notifier listener (registered by the app factory). A participant's socket `watch`es its
question; the first watcher starts a feed task for it, the last one leaving stops it. The
task takes the changes that arrived (a burst is taken as one batch, pushed at most every
`PUSH_GAP`), reads the discussion once, renders what changed once per language being
watched (the new comments, the tally, the people), and hands every watcher the same
message text. Each watcher's queue is bounded: a page too slow to keep up is dropped (its
socket closes; the page reconnects and refetches), never waited on. A change to a question
nobody watches costs one dict lookup. The feeds also count each link's open pages
(`links`, `socket_limits.SocketLimit`).

Must not: block the publisher, render per page, or show a participant more than
`participant_payload` does (the fragments are built from `views.team.everyone_view`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Iterator
from typing import Any

from msgspec import Struct, field

from choice.contract.clock import now
from choice.contract.errors import NotFound
from choice.core.notifier import Change
from choice.team.discussion import Discussion
from choice.team.service import TeamService
from choice.web.live.socket_limits import (
    HANDSHAKE_WINDOW,
    LINK_HANDSHAKES,
    LINK_SOCKETS,
    HandshakeLimit,
    SocketLimit,
)
from choice.web.views.decision import shared_decision
from choice.web.views.team import everyone_view
from choice.web.views.templates import Templates

log = logging.getLogger("choice.web")

KINDS = frozenset({"discussion.changed", "interaction.completed", "interaction.updated",
                   "interaction.deferred", "interaction.resumed", "decision.changed"})
STATE_KINDS = frozenset({"interaction.deferred", "interaction.resumed"})
"""Changes of where the question stands (`_discussion_state.html`): deferred or taken up
again, and a `decision.changed` of the quorum (the owner's review is not the team's)."""
PUSH_GAP = 0.25
"""Seconds between two pushes of one discussion. A change after a quiet spell goes out at
once; a burst (25 links casting their 10 votes each within seconds) reaches every page as
four messages a second, not one per vote sent to each of a hundred sockets."""
WATCHER_QUEUE = 64
"""Messages a page may have waiting before it counts as fallen behind."""
INBOX = 1024
REFRESH = json.dumps({"type": "refresh"})
"""Too much changed at once: the page refetches the live parts itself."""
CLOSED = json.dumps({"type": "closed"})


class Push(Struct, frozen=True):
    """One update for every page of a discussion, serialised once per language."""

    texts: dict[str, str]
    revoked: frozenset[str] = frozenset()
    """Participants whose link was just withdrawn: their pages are closed instead."""
    ended: bool = False
    """The discussion is over (`CLOSED`): every page is told, then its socket closes."""

    def text_for(self, locale: str) -> str:
        return self.texts.get(locale, REFRESH)  # a page that joined during the render


def ended(locales: set[str]) -> Push:
    return Push(dict.fromkeys(locales, CLOSED), ended=True)


class Watcher(Struct, eq=False):
    participant_id: str
    locale: str
    queue: asyncio.Queue[Push | None] = field(
        default_factory=lambda: asyncio.Queue(WATCHER_QUEUE))
    dropped: bool = False

    def offer(self, push: Push) -> None:
        if self.dropped:
            return
        try:
            self.queue.put_nowait(push)
        except asyncio.QueueFull:
            self.dropped = True
            self.queue.get_nowait()
            self.queue.put_nowait(None)  # tells the socket it fell behind


class Feed(Struct, eq=False):
    interaction_id: str
    watchers: set[Watcher] = field(default_factory=set)
    inbox: asyncio.Queue[Change] = field(default_factory=lambda: asyncio.Queue(INBOX))
    overflowed: bool = False
    task: asyncio.Task[None] | None = None
    pushed_at: float = float("-inf")


class DiscussionFeeds:
    def __init__(self, team: TeamService, templates: Templates) -> None:
        self.team = team
        self.templates = templates
        """The app's templates (the pages' own templates render the fragments)."""
        self._feeds: dict[str, Feed] = {}
        self.links = SocketLimit(LINK_SOCKETS)
        self.handshakes = HandshakeLimit(LINK_HANDSHAKES, HANDSHAKE_WINDOW)
        """How often each link may open a socket (`socket_limits`)."""
        """Open pages per participant link (`socket_limits`): the oldest closes first."""

    def __call__(self, change: Change) -> None:
        feed = self._feeds.get(change.interaction_id)
        if feed is None or change.kind not in KINDS:
            return
        try:
            feed.inbox.put_nowait(change)
        except asyncio.QueueFull:
            feed.overflowed = True  # the task tells every page to refetch

    @property
    def watching(self) -> int:
        return sum(len(feed.watchers) for feed in self._feeds.values())

    @contextlib.contextmanager
    def watch(self, interaction_id: str, participant_id: str, locale: str) -> Iterator[Watcher]:
        feed = self._feeds.get(interaction_id)
        if feed is None:
            feed = self._feeds[interaction_id] = Feed(interaction_id)
            feed.task = asyncio.get_running_loop().create_task(self._run(feed))
        watcher = Watcher(participant_id, locale)
        feed.watchers.add(watcher)
        try:
            yield watcher
        finally:
            feed.watchers.discard(watcher)
            if not feed.watchers and self._feeds.get(interaction_id) is feed:
                del self._feeds[interaction_id]
                if feed.task is not None:
                    feed.task.cancel()

    async def _run(self, feed: Feed) -> None:
        loop = asyncio.get_running_loop()
        while True:
            changes = [await feed.inbox.get()]
            if (wait := feed.pushed_at + PUSH_GAP - loop.time()) > 0:
                await asyncio.sleep(wait)  # pushed a moment ago: what comes meanwhile joins
            while not feed.inbox.empty():
                changes.append(feed.inbox.get_nowait())
            locales = {watcher.locale for watcher in feed.watchers}
            overflowed, feed.overflowed = feed.overflowed, False
            try:
                push = (Push(dict.fromkeys(locales, REFRESH)) if overflowed
                        else await self._push_for(feed.interaction_id, changes, locales))
            except Exception:  # never let one bad render end every page's updates
                log.exception("could not render a discussion update")
                push = Push(dict.fromkeys(locales, REFRESH))
            if push is None:
                continue
            feed.pushed_at = loop.time()
            for watcher in list(feed.watchers):
                watcher.offer(push)

    async def _push_for(self, interaction_id: str, changes: list[Change],
                        locales: set[str]) -> Push | None:
        if any(change.kind == "interaction.completed" for change in changes):
            return ended(locales)
        comment_ids = sorted({int(change.data["comment_id"]) for change in changes
                              if change.data.get("change") == "comment"})
        try:  # only the new comments are read, shaped and rendered: the thread may be long
            discussion = await self.team.discussion(interaction_id, comment_ids)
        except NotFound:
            return ended(locales)
        if not discussion.is_open:
            return ended(locales)
        what = {change.data.get("change") for change in changes
                if change.kind == "discussion.changed"}
        message: dict[str, Any] = {"type": "discussion", "comment_ids": comment_ids}
        state = any(change.kind in STATE_KINDS or (change.kind == "decision.changed" and
                                                   change.data.get("change") == "quorum")
                    for change in changes)
        if state or any(change.kind == "interaction.updated" for change in changes):
            message["deadline"] = {"expires_at_ms": round(discussion.row.expires_at * 1000),
                                   "server_now_ms": round(now() * 1000)}
        parts: dict[str, Any] = {"comments": comment_ids,
                                 "tally": bool(what & {"vote", "revoked"}),
                                 "people": "revoked" in what, "state": state}
        if state or "revoked" in what:  # the quorum line counts the people who can vote
            parts["state"] = True
            parts["shared"] = shared_decision(
                discussion.row, discussion.decision, discussion.quorum,
                sum(1 for p in discussion.participants if p.revoked_at is None))
        if not comment_ids and not parts["tally"] and "deadline" not in message \
                and not parts["state"]:
            return None  # someone opened their link: nothing a participant sees changed
        revoked = frozenset(str(change.data.get("participant_id")) for change in changes
                            if change.data.get("change") == "revoked")
        texts = {locale: json.dumps({**message, "html": self._render(discussion, locale, parts)})
                 for locale in locales}
        return Push(texts, revoked=revoked)

    def _render(self, discussion: Discussion, locale: str, parts: dict[str, Any]) -> str:
        view = everyone_view(discussion)
        template = self.templates.get_template("partials/_discussion_update.html")
        return template.render(view=view, locale=locale, comment_ids=set(parts["comments"]),
                               tally=parts["tally"], people=parts["people"],
                               state=parts["state"], shared=parts.get("shared"))
