"""Synchronous data access for the write-back of a decision: the review (the owner asks the
agent for a summary, the agent's candidate, the fallback when none comes), deferral and
taking up again. (The team's quorum shares the `decision` row but is the team's:
`choice/store/team.py` reads and writes it. The resolution itself is a completion like any other:
`Repository.complete`.) Runs on the store's threads, writes on its writer.

Owns the transactions: each change checks the interaction's status in the same transaction
as it writes (a candidate only while a review is open, a deferral only while the question
is open and its deadline ahead), so the first writer wins and the loser changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, insert, select, update

from choice.contract import OPEN_STATUSES
from choice.contract.errors import (
    AlreadyCompleted,
    DeadlinePassed,
    NotDeferred,
    NotInReview,
    NotWidenedNow,
)
from choice.store.records import AuditEvent, Decision, Interaction
from choice.store.repository import Repository
from choice.store.tables import DECISIONS, INTERACTIONS, WIDENINGS

CLEARED_REVIEW = {"review_requested_at": None, "candidate_summary": None,
                  "candidate_answer": None, "candidate_selected_ids_json": None,
                  "candidate_source_hint": None,
                  "candidate_at": None, "candidate_timed_out_at": None}


def upsert_decision(conn: Connection, interaction_id: str, **values: Any) -> None:
    """Set these columns of the interaction's decision row, making the row if needed."""
    changed = conn.execute(update(DECISIONS).where(DECISIONS.c.interaction_id == interaction_id)
                           .values(**values))
    if changed.rowcount == 0:
        conn.execute(insert(DECISIONS).values(interaction_id=interaction_id, **values))


def _widened(conn: Connection, interaction_id: str) -> bool:
    return conn.execute(select(WIDENINGS.c.interaction_id).where(
        WIDENINGS.c.interaction_id == interaction_id)).first() is not None


def _decision(conn: Connection, interaction_id: str) -> Decision | None:
    found = conn.execute(select(DECISIONS).where(
        DECISIONS.c.interaction_id == interaction_id)).mappings().first()
    return Decision(**found) if found is not None else None


class DecisionRepository:
    def __init__(self, repo: Repository) -> None:
        self.repo = repo
        self.engine = repo.engine

    # -- writes (the store's writer thread) ------------------------------------------------
    def request_review(self, interaction_id: str, at: float,
                       events: Sequence[AuditEvent]) -> Interaction:
        """Open a (new) review of a widened question: any earlier candidate is dropped.
        `NotWidenedNow` (nothing written) if the question is not widened."""
        with self.repo.transaction() as conn:
            row = self.repo.find(conn, interaction_id)
            if row.status != "widened":
                raise NotWidenedNow(row)
            upsert_decision(conn, interaction_id, **{**CLEARED_REVIEW, "review_requested_at": at})
            self.repo.add_events(conn, events)
            return row

    def submit_candidate(self, interaction_id: str, summary: str, answer: str,
                         selected_ids_json: list[str] | None, source_hint: str, at: float,
                         events: Sequence[AuditEvent]) -> Decision:
        """Keep the agent's candidate for the open review (it replaces an earlier one).
        `NotWidenedNow` if the question is no longer widened (resolved, deferred, over),
        `NotInReview` if the owner has not asked for a summary."""
        with self.repo.transaction() as conn:
            row = self.repo.find(conn, interaction_id)
            if row.status != "widened":
                raise NotWidenedNow(row)
            decision = _decision(conn, interaction_id)
            if decision is None or decision.review_requested_at is None:
                raise NotInReview(row)
            values = {"candidate_summary": summary, "candidate_answer": answer,
                      "candidate_selected_ids_json": selected_ids_json,
                      "candidate_source_hint": source_hint, "candidate_at": at}
            upsert_decision(conn, interaction_id, **values)
            self.repo.add_events(conn, events)
            for name, value in values.items():
                setattr(decision, name, value)
            return decision

    def time_out_review(self, interaction_id: str, requested_before: float, at: float,
                        events: Sequence[AuditEvent]) -> bool:
        """Record that no candidate came for a review opened before `requested_before`,
        once: False (nothing written) if one came, the review is newer or already timed
        out, or the question is no longer widened."""
        with self.repo.transaction() as conn:
            changed = conn.execute(
                update(DECISIONS)
                .where(DECISIONS.c.interaction_id == interaction_id,
                       DECISIONS.c.review_requested_at <= requested_before,
                       DECISIONS.c.candidate_at.is_(None),
                       DECISIONS.c.candidate_timed_out_at.is_(None),
                       select(INTERACTIONS.c.id).where(
                           INTERACTIONS.c.id == interaction_id,
                           INTERACTIONS.c.status == "widened").exists())
                .values(candidate_timed_out_at=at))
            if changed.rowcount != 1:
                return False
            self.repo.add_events(conn, events)
            return True

    def defer(self, interaction_id: str, rationale: str, at: float,
              events: Sequence[AuditEvent]) -> Interaction:
        """Set an open question aside (status `deferred`): its deadline stops, a widened
        discussion stays open. `AlreadyCompleted` if over (or already deferred),
        `DeadlinePassed` if its deadline has gone (the expiry decides)."""
        with self.repo.transaction() as conn:
            row = self.repo.find(conn, interaction_id)
            if row.status not in OPEN_STATUSES:
                raise AlreadyCompleted(row)
            if row.expires_at <= at:
                raise DeadlinePassed(row)
            conn.execute(update(INTERACTIONS).where(INTERACTIONS.c.id == interaction_id,
                                                    INTERACTIONS.c.status == row.status)
                         .values(status="deferred"))
            upsert_decision(conn, interaction_id, **CLEARED_REVIEW, deferred_at=at,
                            defer_rationale=rationale)
            self.repo.add_events(conn, events)
            row.status = "deferred"
            return row

    def resume(self, interaction_id: str, at: float, timeout_seconds: float,
               events: Sequence[AuditEvent]) -> Interaction:
        """Take a deferred question up again: `widened` if it had been widened (a widening
        is never undone), else `pending`, with at least `timeout_seconds` from now on its
        deadline. `NotDeferred` otherwise."""
        with self.repo.transaction() as conn:
            row = self.repo.find(conn, interaction_id)
            if row.status != "deferred":
                raise NotDeferred(row)
            was = "widened" if _widened(conn, interaction_id) else "pending"
            expires_at = max(row.expires_at, at + timeout_seconds)
            conn.execute(update(INTERACTIONS).where(INTERACTIONS.c.id == interaction_id,
                                                    INTERACTIONS.c.status == "deferred")
                         .values(status=was, expires_at=expires_at))
            upsert_decision(conn, interaction_id, deferred_at=None, defer_rationale=None)
            self.repo.add_events(conn, events)
            row.status, row.expires_at = was, expires_at
            return row

    # -- reads (any thread) ------------------------------------------------------------------
    def decision(self, interaction_id: str) -> Decision | None:
        with self.engine.connect() as conn:
            return _decision(conn, interaction_id)

    def decisions(self, interaction_ids: Sequence[str]) -> dict[str, Decision]:
        if not interaction_ids:
            return {}
        with self.engine.connect() as conn:
            found = conn.execute(select(DECISIONS).where(
                DECISIONS.c.interaction_id.in_(list(interaction_ids)))).mappings().all()
        return {m["interaction_id"]: Decision(**m) for m in found}

    def open_reviews(self) -> list[Decision]:
        """Reviews of widened questions still waiting for the agent's candidate (after a
        restart, their fallback timers are set again)."""
        query = (select(DECISIONS).join(INTERACTIONS, INTERACTIONS.c.id == DECISIONS.c.interaction_id)
                 .where(INTERACTIONS.c.status == "widened",
                        DECISIONS.c.review_requested_at.is_not(None),
                        DECISIONS.c.candidate_at.is_(None),
                        DECISIONS.c.candidate_timed_out_at.is_(None)))
        with self.engine.connect() as conn:
            return [Decision(**m) for m in conn.execute(query).mappings()]
