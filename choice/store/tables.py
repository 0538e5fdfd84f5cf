"""The database tables (SQLAlchemy Core): interactions, their audit events, preferences, the
team side of a widened interaction (its widening, participants, comments, votes) with the
webhook outbox, the sign-in codes already used, the browsers signed in, drafts and files.

Times are epoch seconds (REAL): the deadline scheduler compares them and the API turns them
into ISO 8601. The full request and result are stored as JSON text, exactly as validated,
so a restart brings back the same interaction. The rest of the portal works with the plain
records of `records.py`; nothing here needs an ORM (importing one cost ~120 ms a start).

A change here is a change of schema: it needs an Alembic revision in the same commit
(`scripts/new-migration`); tests/integration/test_migrations.py fails until the two agree.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
)

METADATA = MetaData()
"""The tables below, as Alembic compares them with what the migrations made."""


def _key(name: str, length: int) -> Column[str]:
    return Column(name, String(length), primary_key=True)


def _text(name: str, length: int | None = None, *, null: bool = False,
          index: bool = False) -> Column[str]:
    return Column(name, String(length), nullable=null, index=index)


def _time(name: str, *, null: bool = False) -> Column[float]:
    return Column(name, Float(), nullable=null)


def _serial() -> Column[int]:
    return Column("id", Integer(), primary_key=True, autoincrement=True)


INTERACTIONS = Table(
    "interaction", METADATA,
    _key("id", 32),
    _text("status", 16),
    _text("title"),
    _text("selection_mode", 16),
    _text("interface", 16),
    _text("agent", null=True),
    _text("project", null=True),
    _text("language", 8, null=True),
    Column("placeholder_shown", Boolean(), nullable=False, default=False),
    _time("created_at"),
    _time("expires_at"),
    _time("completed_at", null=True),
    _text("request_json"),
    _text("result_json", null=True),
    Index("ix_interaction_status_created", "status", "created_at"),
    Index("ix_interaction_created", "created_at"),
)

AUDIT_EVENTS = Table(
    "audit_event", METADATA,
    _serial(),
    _text("interaction_id", 32, index=True),
    _text("kind", 32),
    _text("actor", 64),
    _time("at"),
    _text("detail_json", null=True),
)

PREFERENCES = Table(
    "preference", METADATA,
    _key("key", 64),
    _text("value_json"),
)

WIDENINGS = Table(
    "widening", METADATA,
    # An interaction the owner widened to teammates: one row, written with the status
    # change to `widened`. `mode`: `block` (the agent keeps waiting) or `continue` (it was
    # told at once and moved on). `last_activity_at`: the widening, or the newest comment
    # or vote (reminders count idle time from here); `reminded_at`: the last reminder, one
    # per idle period.
    _key("interaction_id", 32),
    _text("mode", 16),
    _text("note", null=True),
    _time("widened_at"),
    _text("widened_by", 64),
    _time("last_activity_at"),
    _time("reminded_at", null=True),
)

DECISIONS = Table(
    "decision", METADATA,
    # The write-back of an interaction (docs/guides/write-back.md) while it is decided: the owner's
    # request for the agent's summary and the candidate it sent (the options it picks as a
    # JSON list), a deferral and its rationale, the team's quorum (None: off). One row per
    # interaction that has any of these; the final answer goes into the result.
    _key("interaction_id", 32),
    _time("review_requested_at", null=True),
    _text("candidate_summary", null=True),
    _text("candidate_answer", null=True),
    _text("candidate_selected_ids_json", null=True),
    _text("candidate_source_hint", 32, null=True),
    _time("candidate_at", null=True),
    _time("candidate_timed_out_at", null=True),
    _time("deferred_at", null=True),
    _text("defer_rationale", null=True),
    Column("quorum_min_votes", Integer(), nullable=True),
)

PARTICIPANTS = Table(
    "participant", METADATA,
    # A teammate invited to one widened interaction. The link's secret is stored only as
    # its SHA-256; the secret itself is shown once, to the owner who widened.
    _key("id", 32),
    _text("interaction_id", 32, index=True),
    _text("name", 100),
    _text("handle", 100, null=True),
    _text("email", 254, null=True),
    _text("secret_hash", 64),
    _time("invited_at"),
    _time("opened_at", null=True),
    _time("revoked_at", null=True),
    Index("ix_participant_secret_hash", "secret_hash", unique=True),
)

COMMENTS = Table(
    "comment", METADATA,
    # One message of a widened interaction's discussion (`participant_id` None: the owner's).
    _serial(),
    _text("interaction_id", 32, index=True),
    _text("participant_id", 32, null=True),
    _text("author", 100),
    _text("text"),
    _time("at"),
)

VOTES = Table(
    "vote", METADATA,
    # A participant's current vote (changeable: one row per participant).
    _key("participant_id", 32),
    _text("interaction_id", 32, index=True),
    _text("option_ids_json"),
    _time("at"),
)

OUTBOX = Table(
    "outbox", METADATA,
    # A webhook message waiting to be delivered (or delivered, or given up on).
    _serial(),
    _text("interaction_id", 32, null=True),
    _text("kind", 32),
    _text("payload_json"),
    _time("created_at"),
    Column("attempts", Integer(), nullable=False, default=0),
    _time("next_attempt_at"),
    _time("delivered_at", null=True),
    _time("failed_at", null=True),
    _text("last_error", null=True),
    Index("ix_outbox_due", "delivered_at", "failed_at", "next_attempt_at"),
)

LOGIN_CODES_USED = Table(
    "login_code_used", METADATA,
    # A one-time sign-in code already redeemed, by its nonce, until the code expires: the
    # codes themselves are signed, not stored (`web/security/auth.py`), so any instance checks them.
    _key("nonce", 32),
    _time("expires_at"),
    Index("ix_login_code_used_expires", "expires_at"),
)

BROWSER_SESSIONS = Table(
    "browser_session", METADATA,
    # A signed-in browser: the keyed hash of its random session id (the cookie's value is
    # never stored; `web/security/sessions.py`), when it signed in and was last seen, and
    # when it ends unless seen again (the lifetime slides).
    _key("id_hash", 64),
    _time("created_at"),
    _time("last_seen_at"),
    _time("expires_at"),
    Index("ix_browser_session_expires", "expires_at"),
)

DRAFTS = Table(
    "draft", METADATA,
    # What someone has typed or picked on an open question and not sent yet (one row per
    # interaction, the newest wins; `written_from`: `web` or `terminal`). Never an answer:
    # deleted in the transaction that ends the question.
    _key("interaction_id", 32),
    _text("draft_json"),
    _time("updated_at"),
    _text("written_from", 16),
)

ATTACHMENTS = Table(
    "attachment", METADATA,
    # A file shown with a question (`request`: the agent's), attached to the answer being
    # written (`draft`: the person's, until an answer sends it or the question ends) or sent
    # with the answer (`answer`): the bytes in the database, so every instance on one
    # PostgreSQL serves them, and gone with their interaction (retention).
    _key("interaction_id", 32),
    _key("attachment_id", 64),
    _text("direction", 8),
    _text("name", 200),
    _text("mime_type", 100),
    Column("size", Integer(), nullable=False),
    _text("sha256", 64),
    Column("data", LargeBinary(), nullable=False),
    _time("created_at"),
)
