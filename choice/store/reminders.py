"""Reminders of questions still waiting for their person, in the database: which pending
questions there are and whether anybody opened them (an `opened` audit event), and the
claim of one reminder, recorded as a `reminder_sent` audit event.

No table of its own: the audit trail already says what was sent. A claim locks the
question's row (a no-op UPDATE; PostgreSQL makes a second instance wait for the first to
commit) and then looks for the same reminder among the question's events (their details
compared as values: PostgreSQL's `json` has no equality operator), so each reminder is sent
once across instances and restarts. Writes run on the store's writer thread.
"""

from __future__ import annotations

from typing import Any

from msgspec import Struct
from sqlalchemy import select, update

from choice.store.records import AuditEvent
from choice.store.repository import Repository
from choice.store.tables import AUDIT_EVENTS as EVENTS
from choice.store.tables import INTERACTIONS

REMINDER_SENT = "reminder_sent"


class Waiting(Struct, frozen=True):
    """A pending question, as much of it as the reminder scan needs."""

    interaction_id: str
    created_at: float
    expires_at: float
    interface: str
    opened: bool
    """Somebody opened it (a page or the terminal UI): no more reminders until the last minute."""


def reminder_detail(reason: str, key: str) -> dict[str, Any]:
    """The audit detail that identifies one reminder."""
    return {"reason": reason, "key": key}


def waiting(repo: Repository) -> list[Waiting]:
    """Every pending question (not widened, not deferred), with whether it was opened; the
    few columns the scan needs, not the stored request."""
    opened = (select(EVENTS.c.id)
              .where(EVENTS.c.interaction_id == INTERACTIONS.c.id, EVENTS.c.kind == "opened")
              .exists())
    query = (select(INTERACTIONS.c.id, INTERACTIONS.c.created_at, INTERACTIONS.c.expires_at,
                    INTERACTIONS.c.interface, opened)
             .where(INTERACTIONS.c.status == "pending"))
    with repo.engine.connect() as conn:
        return [Waiting(i, float(created), float(expires), interface, bool(was_opened))
                for i, created, expires, interface, was_opened in conn.execute(query)]


def claim_reminder(repo: Repository, event: AuditEvent) -> bool:
    """Record the reminder `event` (kind `reminder_sent`, detail from `reminder_detail`) if
    its question is still pending and the same reminder was not recorded before; False,
    nothing written, otherwise."""
    with repo.transaction() as conn:
        locked = conn.execute(
            update(INTERACTIONS)
            .where(INTERACTIONS.c.id == event.interaction_id, INTERACTIONS.c.status == "pending")
            .values(status=INTERACTIONS.c.status))
        if locked.rowcount != 1:
            return False
        sent = conn.execute(
            select(EVENTS.c.detail_json).where(EVENTS.c.interaction_id == event.interaction_id,
                                               EVENTS.c.kind == REMINDER_SENT)).scalars()
        if event.detail_json in sent:
            return False
        repo.add_events(conn, [event])
        return True
