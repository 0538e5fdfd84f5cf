"""The database tables (SQLModel): interactions, their audit events, and preferences.

Times are epoch seconds (REAL): the deadline scheduler compares them and the API turns them
into ISO 8601. The full request and result are stored as JSON text, exactly as validated,
so a restart brings back the same interaction.

A change here is a change of schema: it needs an Alembic revision in the same commit
(`scripts/new-migration`); tests/integration/test_migrations.py fails until the two agree.
"""

from __future__ import annotations

from sqlalchemy import Index
from sqlmodel import Field, SQLModel

METADATA = SQLModel.metadata
"""The tables below, as Alembic compares them with what the migrations made."""


class InteractionRow(SQLModel, table=True):
    __tablename__ = "interaction"
    __table_args__ = (
        Index("ix_interaction_status_created", "status", "created_at"),
        Index("ix_interaction_created", "created_at"),
    )

    id: str = Field(primary_key=True, max_length=32)
    status: str = Field(max_length=16)
    title: str
    selection_mode: str = Field(max_length=16)
    interface: str = Field(max_length=16)
    agent: str | None = None
    project: str | None = None
    language: str | None = Field(default=None, max_length=8)
    placeholder_shown: bool = False
    created_at: float
    expires_at: float
    completed_at: float | None = None
    request_json: str
    result_json: str | None = None


class AuditEventRow(SQLModel, table=True):
    __tablename__ = "audit_event"

    id: int | None = Field(default=None, primary_key=True)
    interaction_id: str = Field(index=True, max_length=32)
    kind: str = Field(max_length=32)
    actor: str = Field(max_length=64)
    at: float
    detail_json: str | None = None


class PreferenceRow(SQLModel, table=True):
    __tablename__ = "preference"

    key: str = Field(primary_key=True, max_length=64)
    value_json: str
