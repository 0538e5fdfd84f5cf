"""The records the rest of the portal works with: plain `msgspec.Struct`s (slotted; a
class costs ~0.1 ms to make where a dataclass costs ~0.5, which a start pays per class).

The Core tables in `tables.py` define the schema; a record costs ~1 µs to build, and
nothing here needs an ORM.
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
    request_json: str
    agent: str | None = None
    project: str | None = None
    language: str | None = None
    placeholder_shown: bool = False
    completed_at: float | None = None
    result_json: str | None = None


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
    detail_json: str | None = None
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
    candidate_selected_ids_json: str | None = None
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
    option_ids_json: str
    at: float


Record = Interaction | AuditEvent | Widening | Decision | Participant | Comment | Vote | StoredFile


def values_of(record: Record) -> dict[str, Any]:
    """Column values for an INSERT (an unset autoincrement id is left to the database)."""
    values = asdict(record)  # (not `structs.fields`: it reads the type hints, ~100 µs a call)
    if values.get("id") is None:
        values.pop("id", None)
    return values
