"""The records the rest of the portal works with: plain `msgspec.Struct`s, one per table whose
rows are read whole, with the same fields as the table's SQLModel class in `tables.py`.

Why not the SQLModel classes themselves: a row is read on hot paths (every answer, every
page of the list, a scan of 10,000 pending), and a record is made a hundred times faster
than a SQLModel instance (even one made by `model_construct`).
Why hand-written: mypy --strict must see their fields, which a class made at run time
hides. `tests/unit/test_store_records.py` holds every record to its table: the same names,
types, defaults and nullability, so a column is still declared once and a record that
drifts fails the build.

JSON columns hold Python values here (a dict, a list), never JSON text.
"""

from __future__ import annotations

from typing import Any

from msgspec import Struct
from msgspec.structs import asdict


class Interaction(Struct):
    id: str
    status: str
    title: str
    selection_mode: str
    interface: str
    created_at: float
    expires_at: float
    request_json: dict[str, Any]
    agent: str | None = None
    project: str | None = None
    language: str | None = None
    placeholder_shown: bool = False
    completed_at: float | None = None
    result_json: dict[str, Any] | None = None
    member_id: str | None = None
    """Team mode: the member who asked it; None: local mode's owner."""


class StoredFile(Struct):
    """An attachment's row: `data` is its bytes (None when only its description was read)."""

    interaction_id: str
    attachment_id: str
    direction: str
    name: str
    mime_type: str
    size: int
    sha256: str
    created_at: float
    data: bytes | None = None


class AuditEvent(Struct):
    interaction_id: str
    kind: str
    actor: str
    at: float
    detail_json: dict[str, Any] | None = None
    id: int | None = None


class Widening(Struct):
    interaction_id: str
    mode: str
    widened_at: float
    widened_by: str
    last_activity_at: float
    note: str | None = None
    reminded_at: float | None = None


class Decision(Struct):
    interaction_id: str
    review_requested_at: float | None = None
    candidate_summary: str | None = None
    candidate_answer: str | None = None
    candidate_selected_ids_json: list[str] | None = None
    candidate_source_hint: str | None = None
    candidate_at: float | None = None
    candidate_timed_out_at: float | None = None
    deferred_at: float | None = None
    defer_rationale: str | None = None
    quorum_min_votes: int | None = None


class Participant(Struct):
    id: str
    interaction_id: str
    name: str
    secret_hash: str
    invited_at: float
    handle: str | None = None
    email: str | None = None
    opened_at: float | None = None
    revoked_at: float | None = None
    member_id: str | None = None
    """Team mode: the member this participant is (they take part signed in)."""


class Comment(Struct):
    interaction_id: str
    author: str
    text: str
    at: float
    participant_id: str | None = None
    id: int | None = None


class Vote(Struct):
    participant_id: str
    interaction_id: str
    option_ids_json: list[str]
    at: float


Record = Interaction | AuditEvent | Widening | Decision | Participant | Comment | Vote | StoredFile


def values_of(record: Record) -> dict[str, Any]:
    """Column values for an INSERT (an unset autoincrement id is left to the database)."""
    values = asdict(record)  # (not `structs.fields`: it reads the type hints on every call)
    if values.get("id") is None:
        values.pop("id", None)
    return values
