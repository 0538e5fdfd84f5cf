"""The records the rest of the portal works with: plain slotted dataclasses.

The SQLModel classes in `tables.py` define the schema; building one of those costs ~100 µs
(SQLAlchemy instrumentation), a record ~1 µs, and nothing here needs an ORM session.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


@dataclass(slots=True)
class Interaction:
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


@dataclass(slots=True)
class AuditEvent:
    interaction_id: str
    kind: str
    actor: str
    at: float
    detail_json: str | None = None
    id: int | None = None


def values_of(record: Interaction | AuditEvent) -> dict[str, Any]:
    """Column values for an INSERT (an unset autoincrement id is left to the database)."""
    values = {f.name: getattr(record, f.name) for f in fields(record)}
    if values.get("id") is None:
        values.pop("id", None)
    return values
