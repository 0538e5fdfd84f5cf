"""Synchronous data access for interactions and audit events. Runs on the store's threads.

Owns the transactions: a completion reads, decides and writes inside one `BEGIN IMMEDIATE`
transaction with a conditional `UPDATE ... WHERE status = <the status it read>`, so the
first writer wins on any database and the loser changes nothing.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Literal

from msgspec import Struct, field
from msgspec.structs import replace
from sqlalchemy import Connection, Engine, bindparam, delete, insert, select, update
from sqlalchemy.exc import DBAPIError

from choice.contract import OPEN_STATUSES, UNRESOLVED_STATUSES
from choice.contract.errors import AlreadyCompleted, DeadlinePassed, NotFound
from choice.store.engine import forget_overwritten, writing
from choice.store.event_members import with_members
from choice.store.records import AuditEvent, Interaction, StoredFile, values_of
from choice.store.retention import enforce_count_limit
from choice.store.tables import ATTACHMENTS, DRAFTS, INTERACTIONS
from choice.store.tables import AUDIT_EVENTS as EVENTS

log = logging.getLogger("choice.store")
New = tuple[Interaction, Sequence[AuditEvent], Sequence[StoredFile]]
"""A new interaction: its row, its first audit events, the files shown with it."""
Which = Literal["active", "widened", "deferred", "completed", "all"]
IS_OPEN = INTERACTIONS.c.status.in_(OPEN_STATUSES)
BY_ID = select(INTERACTIONS).where(INTERACTIONS.c.id == bindparam("interaction_id"))
# The answer's statements, built once with bound parameters: building an UPDATE per call
# cost more than running it, and one statement object per shape lets SQLAlchemy's compiled
# cache hand back the same compiled form on every answer.
FINISH = (update(INTERACTIONS)
          .where(INTERACTIONS.c.id == bindparam("interaction_id"),
                 INTERACTIONS.c.status == bindparam("old_status"))
          .values(status=bindparam("new_status"), result_json=bindparam("new_result"),
                  completed_at=bindparam("new_completed_at")))
ADD_EVENTS = insert(EVENTS)
DROP_DRAFT = delete(DRAFTS).where(DRAFTS.c.interaction_id == bindparam("interaction_id"))
"""An ended question's draft goes in the transaction that ends it (it is never an answer)."""
IS_DRAFT_FILE = ATTACHMENTS.c.direction == "draft"
DROP_DRAFT_FILES = delete(ATTACHMENTS).where(
    ATTACHMENTS.c.interaction_id == bindparam("interaction_id"), IS_DRAFT_FILE)
"""...and the files attached to it that the ending did not send."""
FILE_COLUMNS = [c for c in ATTACHMENTS.c if c.name != "data"]
DRAFT_FILES = (select(*FILE_COLUMNS)
               .where(ATTACHMENTS.c.interaction_id == bindparam("interaction_id"), IS_DRAFT_FILE)
               .order_by(ATTACHMENTS.c.created_at))


class Completed(Struct, frozen=True):
    """What a `decide` callback returns: the final state and the events that record it."""

    status: str
    result_json: dict[str, Any]
    completed_at: float
    events: Sequence[AuditEvent] = field(default_factory=tuple)
    sent_drafts: Sequence[str] = ()
    """The draft's files this answer sends: kept as `answer` files (the rest are dropped)."""
    new_files: Sequence[StoredFile] = ()
    """Files that came in the answer's body, to store."""

    def applied_to(self, row: Interaction) -> Interaction:
        """The pending `row` as this completion leaves it."""
        return replace(row, status=self.status, result_json=self.result_json,
                       completed_at=self.completed_at)


def _row(mapping: Any) -> Interaction:
    return Interaction(**mapping)


class Repository:
    """Reads may run on any thread. Writes must run on the store's one writer thread: they
    share one long-lived connection (no pool checkout and reset per transaction)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._writer: Connection | None = None
        self._completing: tuple[int, Connection] | None = None
        """(the writer thread, its connection) while `complete` runs `decide`."""
        self._driver_error: type[Exception] = engine.dialect.loaded_dbapi.Error
        self._member_actors: frozenset[str] = frozenset()
        self._per_member = False
        """Team mode: retention's count limit is each member's (`limit_per_member`)."""
        """Team mode: whose audit events name the question's member (`event_members`)."""

    def limit_per_member(self) -> None:
        """Team mode: from now on, the count limit holds for each member's questions apart."""
        self._per_member = True

    def name_members(self, actors: frozenset[str]) -> None:
        """Team mode: from now on, the events of these stored actors name the member whose
        question they are about."""
        self._member_actors = actors

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """A write transaction on the writer's connection (the team repository's too)."""
        with self._write() as conn:
            yield conn

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        if self._writer is None:
            self._writer = self.engine.connect()
        conn = self._writer
        try:
            with writing(conn):
                yield conn
        except (DBAPIError, self._driver_error):
            self.close()  # a broken connection is replaced on the next write
            raise

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None

    @staticmethod
    def find(conn: Connection, interaction_id: str) -> Interaction:
        """The row, inside the caller's transaction; `NotFound` if there is none."""
        found = conn.execute(BY_ID, {"interaction_id": interaction_id})
        mapping = found.mappings().first()
        if mapping is None:
            raise NotFound(interaction_id)
        return _row(mapping)

    def add_events(self, conn: Connection, events: Sequence[AuditEvent]) -> None:
        """Write audit events (every writer's go through here), inside the caller's
        transaction."""
        if events:
            if self._member_actors:
                events = with_members(conn, events, self._member_actors)
            conn.execute(ADD_EVENTS, [values_of(e) for e in events])

    def insert(self, new: Sequence[New], max_sessions: int | None = None) -> int | None:
        """Store new interactions in one transaction (one durable commit for the batch),
        with their files. With `max_sessions`, also apply the count limit and return how
        many are stored."""
        with self._write() as conn:
            conn.execute(insert(INTERACTIONS), [values_of(row) for row, _, _ in new])
            self.add_events(conn, [event for _, events, _ in new for event in events])
            files = [values_of(file) for _, _, stored in new for file in stored]
            if files:
                conn.execute(insert(ATTACHMENTS), files)
            if not max_sessions:
                return None
            pruned = enforce_count_limit(
                conn, max_sessions, {row.member_id for row, _, _ in new} if self._per_member
                else None)
        if pruned.dropped_files:
            self.forget_dropped("the files of the questions the count limit removed")
        return pruned.stored

    def draft_files(self, interaction_id: str) -> list[StoredFile]:
        """The files attached to a question's draft, oldest first (descriptions only).
        Inside `complete` (its `decide`, on the writer thread) they are read in the
        completing transaction itself: every answer asks, and a connection of its own
        added to each."""
        completing = self._completing
        if completing is not None and completing[0] == threading.get_ident():
            return self._draft_files_in(completing[1], interaction_id)
        with self.engine.connect() as conn:
            return self._draft_files_in(conn, interaction_id)

    @staticmethod
    def _draft_files_in(conn: Connection, interaction_id: str) -> list[StoredFile]:
        return [StoredFile(**m) for m in conn.execute(DRAFT_FILES, {
            "interaction_id": interaction_id}).mappings()]

    def get(self, interaction_id: str) -> Interaction:
        with self.engine.connect() as conn:
            return self.find(conn, interaction_id)

    def recent(self, which: Which, limit: int, member_id: str | None = None
               ) -> list[Interaction]:
        """Newest first; `member_id`: only that member's questions (None: every one)."""
        query = select(INTERACTIONS)
        if member_id is not None:
            query = query.where(INTERACTIONS.c.member_id == member_id)
        if which == "active":
            query = query.where(IS_OPEN)
        elif which in ("widened", "deferred"):
            query = query.where(INTERACTIONS.c.status == which)
        elif which == "completed":
            query = query.where(INTERACTIONS.c.status.not_in(UNRESOLVED_STATUSES))
        query = query.order_by(INTERACTIONS.c.created_at.desc()).limit(limit)
        with self.engine.connect() as conn:
            return [_row(m) for m in conn.execute(query).mappings()]

    def deadlines(self) -> list[tuple[str, float]]:
        """Every open interaction's id and deadline (pending or widened): the scheduler's
        list, without the requests (10,000 pending read whole held their requests in memory at start)."""
        query = select(INTERACTIONS.c.id, INTERACTIONS.c.expires_at).where(IS_OPEN)
        with self.engine.connect() as conn:
            return [(found_id, expires_at) for found_id, expires_at in conn.execute(query)]

    def ended_since(self, since: float) -> list[Interaction]:
        """The interactions that ended at or after `since` (another instance may have ended
        them while this one was not listening)."""
        query = select(INTERACTIONS).where(INTERACTIONS.c.completed_at >= since)
        with self.engine.connect() as conn:
            return [_row(m) for m in conn.execute(query).mappings()]

    def complete(
        self, interaction_id: str, decide: Callable[[Interaction], Completed],
        statuses: Collection[str] = OPEN_STATUSES,
    ) -> Interaction:
        """End the interaction once: first writer wins. `AlreadyCompleted` (nothing
        written) unless its status is one of `statuses` (open, by default; an owner's
        decision also ends a deferred one).

        `decide` sees the row inside the transaction; if it raises, nothing changes. The
        question's draft goes in the same transaction (it is never an answer).
        """
        with self._write() as conn:
            row = self.find(conn, interaction_id)
            if row.status not in statuses:
                raise AlreadyCompleted(row)
            self._completing = (threading.get_ident(), conn)
            try:
                done = decide(row)
            finally:
                self._completing = None
            finished = conn.execute(FINISH, {
                "interaction_id": interaction_id, "old_status": row.status,
                "new_status": done.status, "new_result": done.result_json,
                "new_completed_at": done.completed_at})
            if finished.rowcount != 1:
                raise AlreadyCompleted(self.find(conn, interaction_id))
            self.add_events(conn, done.events)
            if done.sent_drafts:
                conn.execute(update(ATTACHMENTS).where(
                    ATTACHMENTS.c.interaction_id == interaction_id, IS_DRAFT_FILE,
                    ATTACHMENTS.c.attachment_id.in_(done.sent_drafts),
                ).values(direction="answer"))
            if done.new_files:
                conn.execute(insert(ATTACHMENTS), [values_of(f) for f in done.new_files])
            conn.execute(DROP_DRAFT, {"interaction_id": interaction_id})
            dropped_files = conn.execute(
                DROP_DRAFT_FILES, {"interaction_id": interaction_id}).rowcount > 0
        if dropped_files:  # the bytes of files nobody sent leave the disk too
            self.forget_dropped(f"files of {interaction_id}'s draft")
        # The row as just written, without reading it back (one query less per answer).
        return done.applied_to(row)

    def update_pending(
        self, interaction_id: str, values: dict[str, Any], events: Sequence[AuditEvent],
        due_after: float | None = None,
    ) -> Interaction:
        """Change an open interaction (deadline, interface, status widened); `AlreadyCompleted`
        if over.
        With `due_after` (now), only while its deadline is still ahead: `DeadlinePassed`
        otherwise, checked in the same transaction as the change."""
        still_open = [INTERACTIONS.c.id == interaction_id, IS_OPEN]
        if due_after is not None:
            still_open.append(INTERACTIONS.c.expires_at > due_after)
        with self._write() as conn:
            changed = conn.execute(update(INTERACTIONS).where(*still_open).values(**values))
            row = self.find(conn, interaction_id)
            if changed.rowcount != 1:
                raise DeadlinePassed(row) if row.status in OPEN_STATUSES else AlreadyCompleted(row)
            self.add_events(conn, events)
            return row

    def append_event(self, event: AuditEvent) -> None:
        with self._write() as conn:
            self.add_events(conn, [event])

    def events(self, interaction_id: str, after: int | None = None,
               limit: int | None = None) -> list[AuditEvent]:
        """The audit trail oldest first: only the events after the one with id `after`, and
        at most `limit` of them, if given."""
        query = select(EVENTS).where(EVENTS.c.interaction_id == interaction_id)
        if after is not None:
            query = query.where(EVENTS.c.id > after)
        query = query.order_by(EVENTS.c.id).limit(limit)
        with self.engine.connect() as conn:
            return [AuditEvent(**m) for m in conn.execute(query).mappings()]

    def prune(self, now: float, retention_days: int, max_sessions: int) -> int:
        """Apply retention; returns how many interactions are stored now."""
        from choice.store.retention import prune

        with self._write() as conn:
            pruned = prune(conn, now, retention_days, max_sessions, self._per_member)
        if pruned.dropped_files:
            self.forget_dropped("the files of the questions retention removed")
        return pruned.stored

    def forget_dropped(self, what: str) -> None:
        """After a write that deleted file bytes: take them off the disk as well (a deleted
        row's pages stay in the WAL until a checkpoint; `secure_delete` zeroes the rest)."""
        if not forget_overwritten(self.engine):
            log.warning("a reader kept the database busy: %s stay in its WAL until the next "
                        "checkpoint", what)
