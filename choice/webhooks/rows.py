"""Synchronous data access for the webhook outbox (the `outbox` table, migration 0002). Writes
run on the store's writer thread, in its transactions; reads on any thread.

Owns the outbox's rules in SQL: a message is pending until delivered or failed; only the
oldest pending message of an interaction is ever sent (a comment never overtakes the
invitation it follows, nor the decision the comments it precedes); claiming a message
counts the attempt and leases it (`next_attempt_at` moves past the send's timeout) in one
conditional UPDATE, so an attempt is on record before it starts and two senders never
send the same message at once. Every outcome is written with its audit event.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, and_, exists, insert, select, update

from choice.store.engine import forget_overwritten
from choice.store.records import AuditEvent, Comment, Interaction
from choice.store.repository import Repository
from choice.store.tables import COMMENTS, OUTBOX
from choice.webhooks.messages import Event, add_comment, comments, without_links

log = logging.getLogger("choice.webhooks")
PENDING = and_(OUTBOX.c.delivered_at.is_(None), OUTBOX.c.failed_at.is_(None))
_EARLIER = OUTBOX.alias("earlier")
HEADS = select(OUTBOX).where(PENDING, ~exists().where(
    _EARLIER.c.interaction_id == OUTBOX.c.interaction_id, _EARLIER.c.id < OUTBOX.c.id,
    _EARLIER.c.delivered_at.is_(None), _EARLIER.c.failed_at.is_(None)))
"""Pending messages with no older pending message of the same interaction."""


@dataclass(slots=True)
class Message:
    """One outbox row: an event waiting to be delivered (or delivered, or given up on)."""

    interaction_id: str | None
    kind: str
    payload_json: Event
    created_at: float
    next_attempt_at: float
    attempts: int = 0
    delivered_at: float | None = None
    failed_at: float | None = None
    last_error: str | None = None
    id: int | None = None

    @property
    def event(self) -> Event:
        return self.payload_json

    def values(self) -> dict[str, Any]:
        return {"interaction_id": self.interaction_id, "kind": self.kind,
                "payload_json": self.payload_json, "created_at": self.created_at,
                "next_attempt_at": self.next_attempt_at, "attempts": self.attempts}


def _message(mapping: Any) -> Message:
    return Message(**mapping)


class OutboxRepository:
    def __init__(self, repo: Repository) -> None:
        self.repo = repo
        self.engine = repo.engine

    # -- writes (the store's writer thread) ------------------------------------------------
    def add(self, message: Message) -> int:
        with self.repo.transaction() as conn:
            return self._insert(conn, message)

    @staticmethod
    def _insert(conn: Connection, message: Message) -> int:
        written = conn.execute(insert(OUTBOX).values(**message.values()))
        message.id = int(written.inserted_primary_key[0])  # type: ignore[index]
        return message.id

    def add_comment(self, row: Interaction, comment_id: int, link_base: str,
                    at: float, window: float) -> int | None:
        """Fold the comment into the interaction's comments message still waiting for its
        first attempt, or start one due `window` from now. Returns the id of a new message
        (None if the comment joined one, or is gone with its interaction)."""
        with self.repo.transaction() as conn:
            found = conn.execute(select(COMMENTS).where(COMMENTS.c.id == comment_id)
                                 ).mappings().first()
            if found is None:
                return None
            comment = Comment(**found)
            waiting = conn.execute(
                select(OUTBOX).where(PENDING, OUTBOX.c.interaction_id == row.id,
                                     OUTBOX.c.kind == "discussion.comments",
                                     OUTBOX.c.attempts == 0)
                .order_by(OUTBOX.c.id.desc()).limit(1)).mappings().first()
            if waiting is not None:
                merged = add_comment(_message(waiting).event, comment)
                changed = conn.execute(
                    update(OUTBOX).where(OUTBOX.c.id == waiting["id"], OUTBOX.c.attempts == 0)
                    .values(payload_json=merged))
                if changed.rowcount == 1:
                    return None
            event = comments(row, link_base, comment)
            return self._insert(conn, Message(row.id, "discussion.comments", event,
                                              created_at=at, next_attempt_at=at + window))

    def claim(self, at: float, lease: float, limit: int) -> list[Message]:
        """The due heads (at most `limit`), each with its attempt counted and leased until
        `at + lease`: a sender that dies mid-attempt leaves it due again after the lease."""
        with self.repo.transaction() as conn:
            due = [_message(m) for m in conn.execute(
                HEADS.where(OUTBOX.c.next_attempt_at <= at)
                .order_by(OUTBOX.c.next_attempt_at, OUTBOX.c.id).limit(limit)).mappings()]
            claimed = []
            for message in due:
                changed = conn.execute(
                    update(OUTBOX).where(OUTBOX.c.id == message.id, PENDING,
                                         OUTBOX.c.attempts == message.attempts)
                    .values(attempts=message.attempts + 1, next_attempt_at=at + lease))
                if changed.rowcount == 1:
                    message.attempts += 1
                    message.next_attempt_at = at + lease
                    claimed.append(message)
            return claimed

    def _settle(self, message_id: int, values: dict[str, Any],
                events: Sequence[AuditEvent], final: bool = False) -> None:
        """Write an attempt's outcome; a `final` one (delivered, given up) also drops the
        participants' links from the stored event: nothing will send it again. Dropped
        links then leave the disk too: the WAL still holds the pages that had them until it
        is checkpointed and truncated (the freed space is zeroed: `secure_delete`)."""
        dropped = False
        with self.repo.transaction() as conn:
            if final:
                payload = conn.execute(select(OUTBOX.c.payload_json)
                                       .where(OUTBOX.c.id == message_id)).scalar()
                if payload is not None:
                    values = {**values, "payload_json": without_links(payload)}
                    dropped = values["payload_json"] != payload
            conn.execute(update(OUTBOX).where(OUTBOX.c.id == message_id).values(**values))
            self.repo.add_events(conn, events)
        if dropped and not forget_overwritten(self.engine):
            log.warning("webhook %s: a reader kept the database busy, so the links it dropped "
                        "stay in %s's WAL until its next checkpoint", message_id,
                        self.engine.url.database)

    def delivered(self, message_id: int, at: float, events: Sequence[AuditEvent]) -> None:
        self._settle(message_id, {"delivered_at": at, "last_error": None}, events, final=True)

    def retry(self, message_id: int, next_at: float, error: str,
              events: Sequence[AuditEvent]) -> None:
        self._settle(message_id, {"next_attempt_at": next_at, "last_error": error}, events)

    def failed(self, message_id: int, at: float, error: str,
               events: Sequence[AuditEvent]) -> None:
        self._settle(message_id, {"failed_at": at, "last_error": error}, events, final=True)

    # -- reads (any thread) ------------------------------------------------------------------
    def next_due(self) -> float | None:
        """When the earliest head is due (None: nothing pending)."""
        heads = HEADS.subquery()
        with self.engine.connect() as conn:
            found = conn.execute(select(heads.c.next_attempt_at)
                                 .order_by(heads.c.next_attempt_at).limit(1)).scalar()
        return float(found) if found is not None else None

    def messages(self, interaction_id: str | None = None) -> list[Message]:
        """Every message (of one interaction), oldest first: for tests and inspection."""
        query = select(OUTBOX).order_by(OUTBOX.c.id)
        if interaction_id is not None:
            query = query.where(OUTBOX.c.interaction_id == interaction_id)
        with self.engine.connect() as conn:
            return [_message(m) for m in conn.execute(query).mappings()]
