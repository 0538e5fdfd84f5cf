"""Retention: completed interactions older than N days go, and beyond the count limit the
oldest completed go first. Undecided interactions (pending, widened, deferred) are never
dropped, whatever the limits. An interaction goes with everything of it: audit trail,
widening, decision, participants, comments, votes, webhook messages, draft, attachments.

Runs inside the caller's write transaction: on start, hourly, and on an insert that takes
the count past the limit.
"""

from __future__ import annotations

from msgspec import Struct
from sqlalchemy import Connection, delete, func, select

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


def enforce_count_limit(conn: Connection, max_sessions: int) -> Pruned:
    """Delete the oldest completed interactions until at most `max_sessions` are stored
    (or only pending ones are left)."""
    total = int(conn.execute(select(func.count()).select_from(INTERACTIONS)).scalar_one())
    excess = total - max_sessions
    if excess <= 0:
        return Pruned(total)
    oldest = list(conn.execute(
        select(INTERACTIONS.c.id)
        .where(INTERACTIONS.c.status.not_in(UNRESOLVED_STATUSES))
        .order_by(INTERACTIONS.c.created_at)
        .limit(excess)
    ).scalars().all())
    return Pruned(total - len(oldest), _delete(conn, oldest))


def prune(conn: Connection, now: float, retention_days: int, max_sessions: int) -> Pruned:
    """Both rules at once."""
    expired = conn.execute(
        select(INTERACTIONS.c.id).where(
            INTERACTIONS.c.status.not_in(UNRESOLVED_STATUSES),
            INTERACTIONS.c.completed_at < now - retention_days * DAY,
        )
    ).scalars().all()
    dropped_files = _delete(conn, list(expired))
    limited = enforce_count_limit(conn, max_sessions)
    return Pruned(limited.stored, dropped_files or limited.dropped_files)
