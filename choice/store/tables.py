"""The database tables (SQLModel): interactions, their audit events, preferences, the
team side of a widened interaction (its widening, participants, comments, votes) with the
webhook outbox, the sign-in codes already used and the browsers signed in.

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


class WideningRow(SQLModel, table=True):
    """An interaction the owner widened to teammates: one row, written with the status
    change to `widened`."""

    __tablename__ = "widening"

    interaction_id: str = Field(primary_key=True, max_length=32)
    mode: str = Field(max_length=16)
    """`block` (the agent keeps waiting) or `continue` (it was told at once and moved on)."""
    note: str | None = None
    widened_at: float
    widened_by: str = Field(max_length=64)
    last_activity_at: float
    """The widening, or the newest comment or vote: reminders count idle time from here."""
    reminded_at: float | None = None
    """When the owner was last reminded; one reminder per idle period."""


class DecisionRow(SQLModel, table=True):
    """The write-back of an interaction (seed §5–7), while it is being decided: the owner's
    request for the agent's summary and the candidate it sent, a deferral and its
    rationale, the team's quorum. One row per interaction that has any of these; the final
    answer and its provenance go into the result, like every answer's."""

    __tablename__ = "decision"

    interaction_id: str = Field(primary_key=True, max_length=32)
    review_requested_at: float | None = None
    """When the owner last asked the agent to summarise the discussion (None: never)."""
    candidate_summary: str | None = None
    candidate_answer: str | None = None
    candidate_selected_ids_json: str | None = None
    """The options the agent's candidate picks, as a JSON list (None: it named none)."""
    candidate_source_hint: str | None = Field(default=None, max_length=32)
    candidate_at: float | None = None
    """When the agent's candidate for the current review arrived (None: not yet)."""
    candidate_timed_out_at: float | None = None
    """When the review fell back to the owner writing the answer (no candidate in time)."""
    deferred_at: float | None = None
    defer_rationale: str | None = None
    quorum_min_votes: int | None = None
    """Resolve once this many participants back the same option(s); None: off."""


class ParticipantRow(SQLModel, table=True):
    """A teammate invited to one widened interaction. The link's secret is stored only as
    its SHA-256; the secret itself is shown once, to the owner who widened."""

    __tablename__ = "participant"
    __table_args__ = (Index("ix_participant_secret_hash", "secret_hash", unique=True),)

    id: str = Field(primary_key=True, max_length=32)
    interaction_id: str = Field(index=True, max_length=32)
    name: str = Field(max_length=100)
    handle: str | None = Field(default=None, max_length=100)
    email: str | None = Field(default=None, max_length=254)
    secret_hash: str = Field(max_length=64)
    invited_at: float
    opened_at: float | None = None
    revoked_at: float | None = None


class CommentRow(SQLModel, table=True):
    """One message of a widened interaction's discussion."""

    __tablename__ = "comment"

    id: int | None = Field(default=None, primary_key=True)
    interaction_id: str = Field(index=True, max_length=32)
    participant_id: str | None = Field(default=None, max_length=32)
    """None when the owner wrote it."""
    author: str = Field(max_length=100)
    text: str
    at: float


class VoteRow(SQLModel, table=True):
    """A participant's current vote (changeable: one row per participant)."""

    __tablename__ = "vote"

    participant_id: str = Field(primary_key=True, max_length=32)
    interaction_id: str = Field(index=True, max_length=32)
    option_ids_json: str
    at: float


class OutboxRow(SQLModel, table=True):
    """A webhook message waiting to be delivered (or delivered, or given up on)."""

    __tablename__ = "outbox"
    __table_args__ = (Index("ix_outbox_due", "delivered_at", "failed_at", "next_attempt_at"),)

    id: int | None = Field(default=None, primary_key=True)
    interaction_id: str | None = Field(default=None, max_length=32)
    kind: str = Field(max_length=32)
    payload_json: str
    created_at: float
    attempts: int = 0
    next_attempt_at: float
    delivered_at: float | None = None
    failed_at: float | None = None
    last_error: str | None = None


class LoginCodeUsedRow(SQLModel, table=True):
    """A one-time sign-in code already redeemed, by its nonce, until the code expires: the
    codes themselves are signed, not stored (`web/auth.py`), so any instance checks them."""

    __tablename__ = "login_code_used"
    __table_args__ = (Index("ix_login_code_used_expires", "expires_at"),)

    nonce: str = Field(primary_key=True, max_length=32)
    expires_at: float


class BrowserSessionRow(SQLModel, table=True):
    """A signed-in browser: the keyed hash of its random session id (the cookie's value is
    never stored; `web/security/sessions.py`), when it signed in and was last seen, and
    when it ends unless seen again (the lifetime slides)."""

    __tablename__ = "browser_session"
    __table_args__ = (Index("ix_browser_session_expires", "expires_at"),)

    id_hash: str = Field(primary_key=True, max_length=64)
    created_at: float
    last_seen_at: float
    expires_at: float


class DraftRow(SQLModel, table=True):
    """What someone has typed or picked on an open question and not sent yet (one row per
    interaction, the newest wins). Never an answer: it is deleted in the transaction that
    ends the question, and restored into the web form and the terminal UI."""

    __tablename__ = "draft"

    interaction_id: str = Field(primary_key=True, max_length=32)
    draft_json: str
    updated_at: float
    written_from: str = Field(max_length=16)
    """`web` or `terminal`."""


class AttachmentRow(SQLModel, table=True):
    """A file shown with a question (`request`: the agent's), attached to the answer being
    written (`draft`: the person's, until an answer sends it or the question ends) or sent
    with the answer (`answer`): the bytes in the database, so every instance on one
    PostgreSQL serves them, and gone with their interaction (retention)."""

    __tablename__ = "attachment"

    interaction_id: str = Field(primary_key=True, max_length=32)
    attachment_id: str = Field(primary_key=True, max_length=64)
    direction: str = Field(max_length=8)
    """`request`, `draft` or `answer`."""
    name: str = Field(max_length=200)
    mime_type: str = Field(max_length=100)
    size: int
    sha256: str = Field(max_length=64)
    data: bytes
    created_at: float
