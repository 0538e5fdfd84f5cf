"""Retention: completed interactions older than N days go, and beyond the count limit the
oldest completed go first. Pending interactions are never dropped, whatever the limits.

Runs inside the caller's write transaction (on start, hourly, and on each insert).
"""

from __future__ import annotations

from sqlalchemy import Connection, delete, func, select

from choice.store.tables import AuditEventRow, InteractionRow

INTERACTIONS = InteractionRow.__table__  # type: ignore[attr-defined]
EVENTS = AuditEventRow.__table__  # type: ignore[attr-defined]
DAY = 86_400.0


def _delete(conn: Connection, ids: list[str]) -> list[str]:
    for start in range(0, len(ids), 500):
        chunk = ids[start:start + 500]
        conn.execute(delete(EVENTS).where(EVENTS.c.interaction_id.in_(chunk)))
        conn.execute(delete(INTERACTIONS).where(INTERACTIONS.c.id.in_(chunk)))
    return ids


def enforce_count_limit(conn: Connection, max_sessions: int) -> list[str]:
    """Delete the oldest completed interactions until at most `max_sessions` are stored."""
    total = conn.execute(select(func.count()).select_from(INTERACTIONS)).scalar_one()
    excess = int(total) - max_sessions
    if excess <= 0:
        return []
    oldest = conn.execute(
        select(INTERACTIONS.c.id)
        .where(INTERACTIONS.c.status != "pending")
        .order_by(INTERACTIONS.c.created_at)
        .limit(excess)
    ).scalars().all()
    return _delete(conn, list(oldest))


def prune(conn: Connection, now: float, retention_days: int, max_sessions: int) -> list[str]:
    expired = conn.execute(
        select(INTERACTIONS.c.id).where(
            INTERACTIONS.c.status != "pending",
            INTERACTIONS.c.completed_at < now - retention_days * DAY,
        )
    ).scalars().all()
    return _delete(conn, list(expired)) + enforce_count_limit(conn, max_sessions)
