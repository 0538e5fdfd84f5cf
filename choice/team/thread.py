"""A discussion's thread a page at a time: which comments a reader gets (the newest page, the
page before a cursor, or for an owner's panel that was opened further back, everything from
the comment it starts at, up to a ceiling), the caps a thread keeps, and the cursors.

Nothing reads a whole thread: a page, the page's cursor and the count are what a page, the
JSON API and the live updates work from, so what one request costs is bounded however long
the thread grows (and it grows only to `COMMENTS_PER_QUESTION`).

Pure rules and one synchronous read (`read_page`, run on the store's reader threads); the
service decides who may read what.
"""

from __future__ import annotations

from msgspec import Struct, field

from choice.store.records import Comment
from choice.store.team import TeamRepository

COMMENTS_PER_QUESTION = 500
"""A thread takes this many comments (the owner's included), then refuses more: a deferred
question has no deadline, and a page, a webhook and a summary must stay readable."""
COMMENTS_PER_LINK = 100
"""One participant's link writes at most this many comments to a discussion (at 20 a
minute it takes five minutes to get there): one link cannot fill the thread alone."""
PAGE_SHOWN = 20
"""Comments a page shows at first; "Show earlier" brings 20 more each time."""
PAGE_API = 50
"""Comments a JSON reply carries (`GET /api/d/<secret>`, `.../comments`, `.../team`), as the
agent's DiscussionData does."""
SHOWN_MAX = 100
"""The most an owner's panel keeps on a refresh after "Show earlier" was used: what it
showed, back to where it started, up to this many (then the newest of them)."""
CURSOR_MAX = 2**31 - 1
"""The largest cursor: the ids are `INTEGER` columns, 32 bits on PostgreSQL (a larger value
in a query is an error there, not an empty page)."""


class Window(Struct, frozen=True):
    """Which comments of a thread to read: the newest `limit` before comment `before`; with
    `since`, everything from comment `since` on (at least `limit`, at most `SHOWN_MAX`)."""

    limit: int = PAGE_SHOWN
    before: int | None = None
    since: int | None = None


class ThreadPage(Struct, frozen=True):
    comments: list[Comment] = field(default_factory=list)
    """Oldest first."""
    before: int | None = None
    """The cursor of the page before this one, None when nothing is earlier."""


NEWEST = Window()
API = Window(limit=PAGE_API)


def read_page(repo: TeamRepository, interaction_id: str, window: Window) -> ThreadPage:
    """The page `window` names (synchronous: the store's reader threads run it)."""
    found: list[Comment] = []
    earlier = False
    if window.since is not None:
        found, earlier = repo.comments_page(interaction_id, SHOWN_MAX, since=window.since)
    if len(found) < window.limit:
        found, earlier = repo.comments_page(interaction_id, window.limit, before=window.before)
    cursor = found[0].id if earlier and found else None
    return ThreadPage(found, cursor)


def as_cursor(raw: str | None) -> int | None:
    """A cursor from a query string (None when left out or empty); `ValueError` for anything
    but a positive whole number."""
    if raw is None or not raw.strip():
        return None
    value = raw.strip()
    if not (value.isascii() and value.isdigit()) or not 0 < int(value) <= CURSOR_MAX:
        raise ValueError(raw)
    return int(value)


def page_cursor(raw: str | None) -> int | None:
    """A page's `?before=` / `?since=`: anything unreadable shows the newest comments (a
    person followed a link: an error page would help nobody)."""
    try:
        return as_cursor(raw)
    except ValueError:
        return None
