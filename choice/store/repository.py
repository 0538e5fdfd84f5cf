"""Synchronous data access for interactions and audit events. Runs on the store's threads.

Owns the transactions: a completion reads, decides and writes inside one `BEGIN IMMEDIATE`
transaction with a conditional `UPDATE ... WHERE status = 'pending'`, so the first writer
wins on any database and the loser changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

from sqlalchemy import Connection, Engine, func, insert, select, update

from choice.store.engine import WRITE
from choice.store.retention import enforce_count_limit
from choice.store.tables import AuditEventRow, InteractionRow

INTERACTIONS = InteractionRow.__table__  # type: ignore[attr-defined]
EVENTS = AuditEventRow.__table__  # type: ignore[attr-defined]
Which = Literal["active", "completed", "all"]


class NotFound(LookupError):
    def __init__(self, interaction_id: str) -> None:
        self.interaction_id = interaction_id
        super().__init__(interaction_id)


class AlreadyCompleted(Exception):
    """The interaction was already over: carries the row as it was finished."""

    def __init__(self, row: InteractionRow) -> None:
        self.row = row
        super().__init__(row.id)


@dataclass(frozen=True)
class Completed:
    """What a `decide` callback returns: the final state and the events that record it."""

    status: str
    result_json: str
    completed_at: float
    events: Sequence[AuditEventRow] = field(default_factory=tuple)


def _row(mapping: Any) -> InteractionRow:
    return InteractionRow(**dict(mapping))


class Repository:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        with self.engine.connect() as conn:
            conn.execution_options(**WRITE)
            with conn.begin():
                yield conn

    @staticmethod
    def _find(conn: Connection, interaction_id: str) -> InteractionRow:
        found = conn.execute(select(INTERACTIONS).where(INTERACTIONS.c.id == interaction_id))
        mapping = found.mappings().first()
        if mapping is None:
            raise NotFound(interaction_id)
        return _row(mapping)

    @staticmethod
    def _add_events(conn: Connection, events: Sequence[AuditEventRow]) -> None:
        if events:
            conn.execute(insert(EVENTS), [e.model_dump(exclude={"id"}) for e in events])

    def insert(
        self, row: InteractionRow, events: Sequence[AuditEventRow], max_sessions: int | None = None
    ) -> list[str]:
        """Store a new interaction; returns the ids the count limit pruned to make room."""
        with self._write() as conn:
            conn.execute(insert(INTERACTIONS), [row.model_dump()])
            self._add_events(conn, events)
            return enforce_count_limit(conn, max_sessions) if max_sessions else []

    def get(self, interaction_id: str) -> InteractionRow:
        with self.engine.connect() as conn:
            return self._find(conn, interaction_id)

    def recent(self, which: Which, limit: int) -> list[InteractionRow]:
        query = select(INTERACTIONS)
        if which == "active":
            query = query.where(INTERACTIONS.c.status == "pending")
        elif which == "completed":
            query = query.where(INTERACTIONS.c.status != "pending")
        query = query.order_by(INTERACTIONS.c.created_at.desc()).limit(limit)
        with self.engine.connect() as conn:
            return [_row(m) for m in conn.execute(query).mappings()]

    def pending(self) -> list[InteractionRow]:
        query = select(INTERACTIONS).where(INTERACTIONS.c.status == "pending")
        with self.engine.connect() as conn:
            return [_row(m) for m in conn.execute(query).mappings()]

    def count(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(INTERACTIONS)).scalar_one())

    def complete(
        self, interaction_id: str, decide: Callable[[InteractionRow], Completed]
    ) -> InteractionRow:
        """First writer wins: raises `AlreadyCompleted` (nothing written) if it was over.

        `decide` sees the pending row inside the transaction; if it raises, nothing changes.
        """
        with self._write() as conn:
            row = self._find(conn, interaction_id)
            if row.status != "pending":
                raise AlreadyCompleted(row)
            done = decide(row)
            changed = conn.execute(
                update(INTERACTIONS)
                .where(INTERACTIONS.c.id == interaction_id, INTERACTIONS.c.status == "pending")
                .values(status=done.status, result_json=done.result_json,
                        completed_at=done.completed_at)
            )
            if changed.rowcount != 1:
                raise AlreadyCompleted(self._find(conn, interaction_id))
            self._add_events(conn, done.events)
            return self._find(conn, interaction_id)

    def update_pending(
        self, interaction_id: str, values: dict[str, Any], events: Sequence[AuditEventRow]
    ) -> InteractionRow:
        """Change a pending interaction (deadline, interface); `AlreadyCompleted` if over."""
        with self._write() as conn:
            changed = conn.execute(
                update(INTERACTIONS)
                .where(INTERACTIONS.c.id == interaction_id, INTERACTIONS.c.status == "pending")
                .values(**values)
            )
            row = self._find(conn, interaction_id)
            if changed.rowcount != 1:
                raise AlreadyCompleted(row)
            self._add_events(conn, events)
            return row

    def append_event(self, event: AuditEventRow) -> None:
        with self._write() as conn:
            self._add_events(conn, [event])

    def events(self, interaction_id: str) -> list[AuditEventRow]:
        query = (select(EVENTS).where(EVENTS.c.interaction_id == interaction_id)
                 .order_by(EVENTS.c.id))
        with self.engine.connect() as conn:
            return [AuditEventRow(**dict(m)) for m in conn.execute(query).mappings()]

    def prune(self, now: float, retention_days: int, max_sessions: int) -> list[str]:
        from choice.store.retention import prune

        with self._write() as conn:
            return prune(conn, now, retention_days, max_sessions)
