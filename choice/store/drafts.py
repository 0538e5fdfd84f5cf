"""Drafts in the database: one row per open question, what was typed or picked on it and
not sent yet. Writes run on the store's writer thread; a draft is only stored while its
question is undecided (the transaction that ends a question deletes its draft:
`Repository.complete`, `DecisionRepository.resolve`).
"""

from __future__ import annotations

from typing import Any

from msgspec import Struct
from sqlalchemy import delete, insert, select

from choice.contract import UNRESOLVED_STATUSES
from choice.contract.errors import AlreadyCompleted
from choice.store.repository import Repository
from choice.store.tables import DRAFTS


class StoredDraft(Struct, frozen=True):
    draft_json: dict[str, Any]
    updated_at: float
    written_from: str


def save_draft(repo: Repository, interaction_id: str, draft_json: dict[str, Any], at: float,
               written_from: str) -> None:
    """Replace the question's draft; `AlreadyCompleted` (nothing written) once it is over,
    `NotFound` if there is no such question."""
    with repo.transaction() as conn:
        row = repo.find(conn, interaction_id)
        if row.status not in UNRESOLVED_STATUSES:
            raise AlreadyCompleted(row)
        conn.execute(delete(DRAFTS).where(DRAFTS.c.interaction_id == interaction_id))
        conn.execute(insert(DRAFTS).values(interaction_id=interaction_id, draft_json=draft_json,
                                           updated_at=at, written_from=written_from))


def drop_draft(repo: Repository, interaction_id: str) -> None:
    with repo.transaction() as conn:
        conn.execute(delete(DRAFTS).where(DRAFTS.c.interaction_id == interaction_id))


def load_draft(repo: Repository, interaction_id: str) -> StoredDraft | None:
    query = (select(DRAFTS.c.draft_json, DRAFTS.c.updated_at, DRAFTS.c.written_from)
             .where(DRAFTS.c.interaction_id == interaction_id))
    with repo.engine.connect() as conn:
        found = conn.execute(query).first()
    return None if found is None else StoredDraft(found[0], float(found[1]), found[2])
