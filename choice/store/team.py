"""Synchronous data access for the team side of an interaction: widening it, its
participants, their comments and votes, and the team's quorum (its number is kept in the
`decision` row; only this module reads or writes it). Runs on the store's threads, writes
on its writer.

Owns the transactions: widening flips the interaction from `pending` to `widened` and adds
the participants in one transaction, so a question is widened once or not at all; a comment
or a vote is written only while the discussion is open (`widened`, or `deferred` after it:
checked in the same transaction), so nothing is added to a discussion that has ended, and a
comment only while the thread and its author are under the caps the caller names (counted in
the same transaction). A vote's audit row may be folded into the participant's previous one
(the caller says how recent it must be and what the merged detail is).

Reads a thread a page at a time (`comments_page`): nothing here reads a whole thread.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Update,
    delete,
    exists,
    func,
    insert,
    or_,
    select,
    update,
)

from choice.contract import UNRESOLVED_STATUSES
from choice.contract.errors import (
    AlreadyCompleted,
    AlreadyWidened,
    DeadlinePassed,
    NotWidened,
    NotWidenedNow,
    TooManyComments,
)
from choice.store.decisions import upsert_decision
from choice.store.records import (
    AuditEvent,
    Comment,
    Interaction,
    Participant,
    Vote,
    Widening,
    values_of,
)
from choice.store.repository import Repository
from choice.store.tables import AUDIT_EVENTS as EVENTS
from choice.store.tables import COMMENTS, DECISIONS, INTERACTIONS, PARTICIPANTS, VOTES, WIDENINGS

DISCUSSION_OPEN = ("widened", "deferred")
"""The statuses in which a widened question's discussion takes comments and votes."""


class TeamRepository:
    def __init__(self, repo: Repository) -> None:
        self.repo = repo
        self.engine = repo.engine

    # -- writes (the store's writer thread) ------------------------------------------------
    def widen(self, widening: Widening, participants: Sequence[Participant],
              events: Sequence[AuditEvent], expires_at: float, at: float,
              quorum_min_votes: int | None = None) -> Interaction:
        """Flip a pending interaction to `widened` with its participants (and its quorum),
        in one transaction. `AlreadyWidened`, `AlreadyCompleted`, or `DeadlinePassed` (still
        pending, deadline gone: the expiry decides) change nothing."""
        interaction_id = widening.interaction_id
        with self.repo.transaction() as conn:
            changed = conn.execute(
                update(INTERACTIONS)
                .where(INTERACTIONS.c.id == interaction_id, INTERACTIONS.c.status == "pending",
                       INTERACTIONS.c.expires_at > at)
                .values(status="widened", expires_at=expires_at))
            row = self.repo.find(conn, interaction_id)
            if changed.rowcount != 1:
                if row.status == "widened":
                    raise AlreadyWidened(row)
                raise DeadlinePassed(row) if row.status == "pending" else AlreadyCompleted(row)
            conn.execute(insert(WIDENINGS), [values_of(widening)])
            conn.execute(insert(PARTICIPANTS), [values_of(p) for p in participants])
            if quorum_min_votes is not None:
                upsert_decision(conn, interaction_id, quorum_min_votes=quorum_min_votes)
            self.repo.add_events(conn, events)
            return row

    def _still_widened(self, conn: Connection, interaction_id: str) -> Interaction:
        """The row, if its discussion is open: widened, or deferred after widening (the
        owner set the decision aside; the team may still talk and vote)."""
        row = self.repo.find(conn, interaction_id)
        if row.status not in DISCUSSION_OPEN:
            raise NotWidened(row)
        return row

    def _touch(self, conn: Connection, interaction_id: str, at: float) -> None:
        conn.execute(update(WIDENINGS).where(WIDENINGS.c.interaction_id == interaction_id)
                     .values(last_activity_at=at))

    def add_comment(self, comment: Comment, events: Sequence[AuditEvent],
                    per_question: int, per_link: int) -> Comment:
        """Add a comment while the discussion is open and holds fewer than `per_question`
        comments, and its participant (if any) has written fewer than `per_link`:
        `NotWidened` or `TooManyComments` otherwise, with nothing written."""
        with self.repo.transaction() as conn:
            self._still_widened(conn, comment.interaction_id)
            mine = COMMENTS.c.interaction_id == comment.interaction_id
            if self._count(conn, mine) >= per_question:
                raise TooManyComments("question", per_question)
            if comment.participant_id is not None and self._count(
                    conn, mine, COMMENTS.c.participant_id == comment.participant_id) >= per_link:
                raise TooManyComments("link", per_link)
            written = conn.execute(insert(COMMENTS).values(**values_of(comment)))
            comment.id = int(written.inserted_primary_key[0])  # type: ignore[index]
            self._touch(conn, comment.interaction_id, comment.at)
            self.repo.add_events(conn, events)
            return comment

    @staticmethod
    def _count(conn: Connection, *where: ColumnElement[bool]) -> int:
        return int(conn.execute(select(func.count()).select_from(COMMENTS).where(*where))
                   .scalar_one())

    def set_vote(self, vote: Vote, event: AuditEvent, merge_since: float,
                 merged: Callable[[dict[str, Any] | None], dict[str, Any]]) -> None:
        """Replace the participant's vote (an empty list withdraws it). Its audit `event`
        is added, unless the same actor's last `vote_cast` of this interaction is at or
        after `merge_since`: that row's detail becomes `merged(its detail)` instead."""
        with self.repo.transaction() as conn:
            self._still_widened(conn, vote.interaction_id)
            conn.execute(delete(VOTES).where(VOTES.c.participant_id == vote.participant_id))
            if vote.option_ids_json:
                conn.execute(insert(VOTES).values(**values_of(vote)))
            self._touch(conn, vote.interaction_id, vote.at)
            last = conn.execute(
                select(EVENTS.c.id, EVENTS.c.at, EVENTS.c.detail_json)
                .where(EVENTS.c.interaction_id == event.interaction_id,
                       EVENTS.c.kind == event.kind, EVENTS.c.actor == event.actor)
                .order_by(EVENTS.c.id.desc()).limit(1)).first()
            if last is not None and last.at >= merge_since:
                conn.execute(update(EVENTS).where(EVENTS.c.id == last.id)
                             .values(detail_json=merged(last.detail_json)))
            else:
                self.repo.add_events(conn, [event])

    def _once(self, change: Update, events: Sequence[AuditEvent]) -> bool:
        """A conditional change of one row, with its audit events when (and only when) the
        row still matched: False, nothing written, when another writer got there first."""
        with self.repo.transaction() as conn:
            if conn.execute(change).rowcount != 1:
                return False
            self.repo.add_events(conn, events)
            return True

    def mark_opened(self, participant_id: str, at: float, events: Sequence[AuditEvent]) -> bool:
        """The first time a participant opens their link; False (nothing written) after."""
        return self._once(
            update(PARTICIPANTS)
            .where(PARTICIPANTS.c.id == participant_id, PARTICIPANTS.c.opened_at.is_(None))
            .values(opened_at=at), events)

    def revoke(self, interaction_id: str, participant_id: str, at: float,
               events: Sequence[AuditEvent]) -> bool:
        """Withdraw one participant's link; False if it was not theirs or already withdrawn."""
        return self._once(
            update(PARTICIPANTS)
            .where(PARTICIPANTS.c.id == participant_id,
                   PARTICIPANTS.c.interaction_id == interaction_id,
                   PARTICIPANTS.c.revoked_at.is_(None))
            .values(revoked_at=at), events)

    def mark_reminded(self, interaction_id: str, idle_since: float, at: float,
                      events: Sequence[AuditEvent]) -> bool:
        """Record a reminder for the idle period that began at `idle_since`, once: False
        (nothing written) if there was activity since, the period was already reminded (by
        another portal instance, say), or the question is no longer widened."""
        return self._once(
            update(WIDENINGS)
            .where(WIDENINGS.c.interaction_id == interaction_id,
                   WIDENINGS.c.last_activity_at == idle_since,
                   or_(WIDENINGS.c.reminded_at.is_(None),
                       WIDENINGS.c.reminded_at < WIDENINGS.c.last_activity_at),
                   select(INTERACTIONS.c.id).where(
                       INTERACTIONS.c.id == interaction_id,
                       INTERACTIONS.c.status == "widened").exists())
            .values(reminded_at=at), events)

    def set_quorum(self, interaction_id: str, min_votes: int | None,
                   events: Sequence[AuditEvent]) -> Interaction:
        """Change (None: switch off) a widened or deferred question's quorum;
        `NotWidenedNow` if it is neither."""
        with self.repo.transaction() as conn:
            row = self.repo.find(conn, interaction_id)
            widened = conn.execute(select(WIDENINGS.c.interaction_id).where(
                WIDENINGS.c.interaction_id == interaction_id)).first() is not None
            if row.status not in UNRESOLVED_STATUSES or not widened:
                raise NotWidenedNow(row)
            upsert_decision(conn, interaction_id, quorum_min_votes=min_votes)
            self.repo.add_events(conn, events)
            return row

    # -- reads (any thread) ------------------------------------------------------------------
    def widening(self, interaction_id: str) -> Widening | None:
        with self.engine.connect() as conn:
            found = conn.execute(select(WIDENINGS).where(
                WIDENINGS.c.interaction_id == interaction_id)).mappings().first()
        return Widening(**found) if found is not None else None

    def widenings(self, interaction_ids: Sequence[str]) -> dict[str, Widening]:
        if not interaction_ids:
            return {}
        with self.engine.connect() as conn:
            found = conn.execute(select(WIDENINGS).where(
                WIDENINGS.c.interaction_id.in_(list(interaction_ids)))).mappings().all()
        return {m["interaction_id"]: Widening(**m) for m in found}

    def open_widenings(self) -> list[Widening]:
        """The widenings of interactions still widened (reminders look at these)."""
        query = (select(WIDENINGS).join(INTERACTIONS, INTERACTIONS.c.id == WIDENINGS.c.interaction_id)
                 .where(INTERACTIONS.c.status == "widened"))
        with self.engine.connect() as conn:
            return [Widening(**m) for m in conn.execute(query).mappings()]

    def participants(self, interaction_id: str) -> list[Participant]:
        query = (select(PARTICIPANTS).where(PARTICIPANTS.c.interaction_id == interaction_id)
                 .order_by(PARTICIPANTS.c.invited_at, PARTICIPANTS.c.name))
        with self.engine.connect() as conn:
            return [Participant(**m) for m in conn.execute(query).mappings()]

    def member_participant(self, interaction_id: str, member_id: str) -> Participant | None:
        """Team mode: the member's participant in this question, while not withdrawn."""
        with self.engine.connect() as conn:
            found = conn.execute(select(PARTICIPANTS).where(
                PARTICIPANTS.c.interaction_id == interaction_id,
                PARTICIPANTS.c.member_id == member_id,
                PARTICIPANTS.c.revoked_at.is_(None))).mappings().first()
        return Participant(**found) if found is not None else None

    def widened_to(self, member_id: str, which: str, limit: int) -> list[Interaction]:
        """Team mode: the questions widened to the member (as a participant not withdrawn),
        newest first; `which`: `active` (still discussed: widened or deferred), or
        `completed`."""
        query = (select(INTERACTIONS)
                 .join(PARTICIPANTS, PARTICIPANTS.c.interaction_id == INTERACTIONS.c.id)
                 .where(PARTICIPANTS.c.member_id == member_id,
                        PARTICIPANTS.c.revoked_at.is_(None)))
        if which == "active":
            query = query.where(INTERACTIONS.c.status.in_(DISCUSSION_OPEN))
        elif which == "completed":
            query = query.where(INTERACTIONS.c.status.not_in(UNRESOLVED_STATUSES))
        query = query.order_by(INTERACTIONS.c.created_at.desc()).limit(limit)
        with self.engine.connect() as conn:
            return [Interaction(**m) for m in conn.execute(query).mappings()]

    def participant_by_secret_hash(self, secret_hash: str) -> Participant | None:
        with self.engine.connect() as conn:
            found = conn.execute(select(PARTICIPANTS).where(
                PARTICIPANTS.c.secret_hash == secret_hash)).mappings().first()
        return Participant(**found) if found is not None else None

    def comments(self, interaction_id: str, newest: int) -> tuple[list[Comment], int]:
        """The newest N comments oldest first, and how many the thread holds."""
        found, _earlier = self.comments_page(interaction_id, newest)
        return found, self.comment_count(interaction_id)

    def comment_count(self, interaction_id: str) -> int:
        with self.engine.connect() as conn:
            return self._count(conn, COMMENTS.c.interaction_id == interaction_id)

    def comments_page(self, interaction_id: str, limit: int, *, before: int | None = None,
                      since: int | None = None) -> tuple[list[Comment], bool]:
        """The newest `limit` comments older than comment `before` (if given) and not older
        than comment `since` (if given), oldest first; and whether the thread has any
        earlier than the first of them."""
        where = [COMMENTS.c.interaction_id == interaction_id]
        if before is not None:
            where.append(COMMENTS.c.id < before)
        if since is not None:
            where.append(COMMENTS.c.id >= since)
        query = select(COMMENTS).where(*where).order_by(COMMENTS.c.id.desc()).limit(limit)
        with self.engine.connect() as conn:
            found = [Comment(**m) for m in conn.execute(query).mappings()]
            found.reverse()
            first = found[0].id if found else before
            if first is None:  # nothing at all in the thread
                return found, False
            earlier = conn.execute(select(exists().where(
                COMMENTS.c.interaction_id == interaction_id, COMMENTS.c.id < first))).scalar()
        return found, bool(earlier)

    def comments_by_id(self, interaction_id: str, ids: Collection[int]) -> list[Comment]:
        """Only these comments of the thread, oldest first (a live update's new ones)."""
        if not ids:
            return []
        query = (select(COMMENTS).where(COMMENTS.c.interaction_id == interaction_id,
                                        COMMENTS.c.id.in_(list(ids))).order_by(COMMENTS.c.id))
        with self.engine.connect() as conn:
            return [Comment(**m) for m in conn.execute(query).mappings()]

    def quorum(self, interaction_id: str) -> int | None:
        """The team's quorum (matching votes that decide), None when it is off."""
        query = select(DECISIONS.c.quorum_min_votes).where(
            DECISIONS.c.interaction_id == interaction_id)
        with self.engine.connect() as conn:
            return conn.execute(query).scalar()

    def quorums(self) -> list[str]:
        """The widened questions with a quorum on (checked again on start)."""
        query = (select(DECISIONS.c.interaction_id)
                 .join(INTERACTIONS, INTERACTIONS.c.id == DECISIONS.c.interaction_id)
                 .where(INTERACTIONS.c.status == "widened",
                        DECISIONS.c.quorum_min_votes.is_not(None)))
        with self.engine.connect() as conn:
            return list(conn.execute(query).scalars())

    def votes(self, interaction_id: str) -> list[Vote]:
        query = select(VOTES).where(VOTES.c.interaction_id == interaction_id)
        with self.engine.connect() as conn:
            return [Vote(**m) for m in conn.execute(query).mappings()]
