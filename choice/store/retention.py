"""Retention: completed interactions older than N days go, and beyond the count limit the
oldest completed go first. Undecided interactions (pending, widened, deferred) are never
dropped, whatever the limits. An interaction goes with everything of it: audit trail,
widening, decision, participants, comments, votes, webhook messages, draft, attachments.

Runs inside the caller's write transaction: on start, hourly, and on an insert that takes
the count past the limit. In team mode the count limit is each member's: one member's
agents asking a lot never push out another member's answers.
"""

from __future__ import annotations

from collections.abc import Collection

from msgspec import Struct
from sqlalchemy import ColumnElement, Connection, delete, func, select, true

from choice.contract import UNRESOLVED_STATUSES
from choice.store.tables import (
    ATTACHMENTS,
    AUDIT_EVENTS,
    COMMENTS,
    DECISIONS,
    DRAFTS,
    INTERACTIONS,
    OUTBOX,
    PARTICIPANTS,
    VOTES,
    WIDENINGS,
)

EVENTS = AUDIT_EVENTS
BELONGINGS = [AUDIT_EVENTS, WIDENINGS, DECISIONS, PARTICIPANTS, COMMENTS, VOTES, OUTBOX, DRAFTS,
              ATTACHMENTS]
"""Every table whose rows belong to one interaction (an `interaction_id` column)."""
DAY = 86_400.0


class Pruned(Struct, frozen=True):
    stored: int
    """How many interactions are stored now."""
    dropped_files: bool = False
    """Files went with them: their bytes are still in the WAL until a checkpoint."""


def _delete(conn: Connection, ids: list[str]) -> bool:
    """Delete `ids` with everything of theirs; whether any file went."""
    dropped_files = False
    for start in range(0, len(ids), 500):
        chunk = ids[start:start + 500]
        for table in BELONGINGS:
            gone = conn.execute(delete(table).where(table.c.interaction_id.in_(chunk)))
            dropped_files |= table is ATTACHMENTS and gone.rowcount > 0
        conn.execute(delete(INTERACTIONS).where(INTERACTIONS.c.id.in_(chunk)))
    return dropped_files


def enforce_count_limit(conn: Connection, max_sessions: int,
                        members: Collection[str | None] | None = None) -> Pruned:
    """Delete the oldest completed interactions until at most `max_sessions` are stored
    (or only pending ones are left). `members` (team mode): the limit holds for each of
    these members' questions apart (None in it: the questions nobody's yet), so one
    member's agents never push out another's; `stored` is then theirs together."""
    if members is None:
        return _limit(conn, max_sessions, true())
    stored, dropped_files = 0, False
    for member_id in members:
        pruned = _limit(conn, max_sessions, INTERACTIONS.c.member_id.is_(None)
                        if member_id is None else INTERACTIONS.c.member_id == member_id)
        stored += pruned.stored
        dropped_files |= pruned.dropped_files
    return Pruned(stored, dropped_files)


def _limit(conn: Connection, max_sessions: int, scope: ColumnElement[bool]) -> Pruned:
    total = int(conn.execute(
        select(func.count()).select_from(INTERACTIONS).where(scope)).scalar_one())
    excess = total - max_sessions
    if excess <= 0:
        return Pruned(total)
    oldest = list(conn.execute(
        select(INTERACTIONS.c.id)
        .where(scope, INTERACTIONS.c.status.not_in(UNRESOLVED_STATUSES))
        .order_by(INTERACTIONS.c.created_at)
        .limit(excess)
    ).scalars().all())
    return Pruned(total - len(oldest), _delete(conn, oldest))


def members_over(conn: Connection, max_sessions: int) -> list[str | None]:
    """Team mode: the members (None: nobody's questions) with more than `max_sessions`."""
    counted = conn.execute(select(INTERACTIONS.c.member_id, func.count())
                           .group_by(INTERACTIONS.c.member_id))
    return [member_id for member_id, count in counted if count > max_sessions]


def prune(conn: Connection, now: float, retention_days: int, max_sessions: int,
          per_member: bool = False) -> Pruned:
    """Both rules at once (`per_member`: the count limit for each member apart)."""
    expired = conn.execute(
        select(INTERACTIONS.c.id).where(
            INTERACTIONS.c.status.not_in(UNRESOLVED_STATUSES),
            INTERACTIONS.c.completed_at < now - retention_days * DAY,
        )
    ).scalars().all()
    dropped_files = _delete(conn, list(expired))
    if not per_member:
        limited = enforce_count_limit(conn, max_sessions)
        return Pruned(limited.stored, dropped_files or limited.dropped_files)
    limited = enforce_count_limit(conn, max_sessions, members_over(conn, max_sessions))
    total = int(conn.execute(select(func.count()).select_from(INTERACTIONS)).scalar_one())
    return Pruned(total, dropped_files or limited.dropped_files)
