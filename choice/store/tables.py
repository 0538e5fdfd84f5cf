"""The database tables, each declared once as a SQLModel class (`table=True`): its columns,
their types, keys and indexes. Interactions, their audit events, preferences, the team side
of a widened interaction (its widening, participants, comments, votes) with the webhook
outbox, the sign-in codes already used, the browsers signed in, drafts and files; team mode's
members, their preferences and their sign-ins on the way through the OpenID provider.

`SQLModel.metadata` holds them all (`METADATA`): new databases are made from it, and Alembic
compares the migrations with it. The repositories run Core queries on each class's table
(`INTERACTIONS`, ...), and read rows into the light records of `records.py` (a SQLModel
instance is far slower to make than a record; `tests/unit/test_store_records.py` holds each
record to its table). No row is read through the ORM. What SQLModel costs a start: the
import of its ORM, the building of these 17 classes, and the memory they hold.

Times are epoch seconds (REAL): the deadline scheduler compares them and the API turns them
into ISO 8601. The request, the result and every other JSON value are `StoredJSON`
(`json_type.py`): Python values in and out, `json` on PostgreSQL, text on SQLite. Strings
name their SQL type (`String(32)`) so the tables say exactly what the migrations make.

A change here is a change of schema: it needs an Alembic revision in the same commit
(`scripts/new-migration`); tests/integration/test_migrations.py fails until the two agree.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Index, String, Table, inspect
from sqlmodel import Field, SQLModel

from choice.store.json_type import StoredJSON

METADATA = SQLModel.metadata
"""The tables below, as Alembic compares them with what the migrations made."""


def _text(length: int | None = None, **options: Any) -> Any:
    """A string column of `length` characters (None: unbounded), as the migrations made it."""
    return Field(sa_type=String(length), **options)


def _json(**options: Any) -> Any:
    return Field(sa_type=StoredJSON(), **options)


class InteractionTable(SQLModel, table=True):
    __tablename__ = "interaction"
    __table_args__ = (Index("ix_interaction_status_created", "status", "created_at"),
                      Index("ix_interaction_created", "created_at"),
                      Index("ix_interaction_member_created", "member_id", "created_at"))

    id: str = _text(32, primary_key=True)
    status: str = _text(16)
    title: str = _text()
    selection_mode: str = _text(16)
    interface: str = _text(16)
    agent: str | None = _text(default=None)
    project: str | None = _text(default=None)
    language: str | None = _text(8, default=None)
    placeholder_shown: bool = False
    created_at: float
    expires_at: float
    completed_at: float | None = None
    request_json: dict[str, Any] = _json()
    result_json: dict[str, Any] | None = _json(default=None)
    member_id: str | None = _text(32, default=None)
    """Team mode: the member whose token or session asked it (`member.id`), the only one
    who sees it unless it is widened to others. None: local mode's one owner."""


class AuditEventTable(SQLModel, table=True):
    __tablename__ = "audit_event"

    id: int | None = Field(default=None, primary_key=True)
    interaction_id: str = _text(32, index=True)
    kind: str = _text(32)
    actor: str = _text(64)
    at: float
    detail_json: dict[str, Any] | None = _json(default=None)


class PreferenceTable(SQLModel, table=True):
    __tablename__ = "preference"

    key: str = _text(64, primary_key=True)
    value_json: Any = Field(sa_type=StoredJSON(none_as_null=False), nullable=False)
    """Any JSON value; a preference set to None is stored as the JSON `null`."""


class MemberPreferenceTable(SQLModel, table=True):
    """Team mode: one member's saved preference, one row per member and key (as `preference`
    holds the one owner's in local mode). An admin ending a member's access leaves them (the
    member stays: signing in again finds them as they were); removing the member drops them."""

    __tablename__ = "member_preference"

    member_id: str = _text(32, primary_key=True)
    key: str = _text(64, primary_key=True)
    value_json: Any = Field(sa_type=StoredJSON(none_as_null=False), nullable=False)
    """Any JSON value; a preference set to None is stored as the JSON `null`."""


class WideningTable(SQLModel, table=True):
    """An interaction the owner widened to teammates: one row, written with the status
    change to `widened`. `mode`: `block` (the agent keeps waiting) or `continue` (it was told
    at once and moved on). `last_activity_at`: the widening, or the newest comment or vote
    (reminders count idle time from here); `reminded_at`: the last reminder, one per idle
    period."""

    __tablename__ = "widening"

    interaction_id: str = _text(32, primary_key=True)
    mode: str = _text(16)
    note: str | None = _text(default=None)
    widened_at: float
    widened_by: str = _text(64)
    last_activity_at: float
    reminded_at: float | None = None


class DecisionTable(SQLModel, table=True):
    """The write-back of an interaction (docs/guides/write-back.md) while it is decided: the
    owner's request for the agent's summary and the candidate it sent (the options it picks,
    a list of ids), a deferral and its rationale, the team's quorum (None: off). One row per
    interaction that has any of these; the final answer goes into the result."""

    __tablename__ = "decision"

    interaction_id: str = _text(32, primary_key=True)
    review_requested_at: float | None = None
    candidate_summary: str | None = _text(default=None)
    candidate_answer: str | None = _text(default=None)
    candidate_selected_ids_json: list[str] | None = _json(default=None)
    candidate_source_hint: str | None = _text(32, default=None)
    candidate_at: float | None = None
    candidate_timed_out_at: float | None = None
    deferred_at: float | None = None
    defer_rationale: str | None = _text(default=None)
    quorum_min_votes: int | None = None


class ParticipantTable(SQLModel, table=True):
    """A teammate invited to one widened interaction. The link's secret is stored only as
    its SHA-256; the secret itself is shown once, to the owner who widened. In team mode a
    participant may be a member (`member_id`), who takes part signed in instead."""

    __tablename__ = "participant"
    __table_args__ = (Index("ix_participant_secret_hash", "secret_hash", unique=True),)

    id: str = _text(32, primary_key=True)
    interaction_id: str = _text(32, index=True)
    name: str = _text(100)
    handle: str | None = _text(100, default=None)
    email: str | None = _text(254, default=None)
    secret_hash: str = _text(64)
    invited_at: float
    opened_at: float | None = None
    revoked_at: float | None = None
    member_id: str | None = _text(32, default=None, index=True)


class CommentTable(SQLModel, table=True):
    """One message of a widened interaction's discussion (`participant_id` None: the
    owner's)."""

    __tablename__ = "comment"

    id: int | None = Field(default=None, primary_key=True)
    interaction_id: str = _text(32, index=True)
    participant_id: str | None = _text(32, default=None)
    author: str = _text(100)
    text: str = _text()
    at: float


class VoteTable(SQLModel, table=True):
    """A participant's current vote (changeable: one row per participant): the option ids."""

    __tablename__ = "vote"

    participant_id: str = _text(32, primary_key=True)
    interaction_id: str = _text(32, index=True)
    option_ids_json: list[str] = _json()
    at: float


class OutboxTable(SQLModel, table=True):
    """A webhook message waiting to be delivered (or delivered, or given up on)."""

    __tablename__ = "outbox"
    __table_args__ = (Index("ix_outbox_due", "delivered_at", "failed_at", "next_attempt_at"),)

    id: int | None = Field(default=None, primary_key=True)
    interaction_id: str | None = _text(32)
    """None: a message about no single question (always given: `webhooks/rows.py`)."""
    kind: str = _text(32)
    payload_json: dict[str, Any] = _json()
    created_at: float
    attempts: int = 0
    next_attempt_at: float
    delivered_at: float | None = None
    failed_at: float | None = None
    last_error: str | None = _text(default=None)


class LoginCodeUsedTable(SQLModel, table=True):
    """A one-time sign-in code already redeemed, by its nonce, until the code expires: the
    codes themselves are signed, not stored (`web/security/auth.py`), so any instance checks
    them."""

    __tablename__ = "login_code_used"
    __table_args__ = (Index("ix_login_code_used_expires", "expires_at"),)

    nonce: str = _text(32, primary_key=True)
    expires_at: float


class BrowserSessionTable(SQLModel, table=True):
    """A signed-in browser: the keyed hash of its random session id (the cookie's value is
    never stored; `web/security/sessions.py`), when it signed in and was last seen, and when
    it ends unless seen again (the lifetime slides)."""

    __tablename__ = "browser_session"
    __table_args__ = (Index("ix_browser_session_expires", "expires_at"),)

    id_hash: str = _text(64, primary_key=True)
    created_at: float
    last_seen_at: float
    expires_at: float
    member_id: str | None = _text(32, default=None, index=True)
    """Team mode: the member signed in (`member.id`); None: the owner (local mode)."""


class MemberTable(SQLModel, table=True):
    """Team mode: a person who signed in with the OpenID provider, made at their first
    sign-in. `subject`: the provider's `sub` (what names them there for good); their email
    and name are the provider's claims at their latest sign-in; `admin` follows
    `CHOICE_OIDC_ADMINS` and `CHOICE_OIDC_ADMIN_GROUPS` at each sign-in."""

    __tablename__ = "member"

    id: str = _text(32, primary_key=True)
    subject: str = _text(255, unique=True)
    email: str = _text(254, unique=True)
    name: str = _text(200)
    admin: bool = False
    created_at: float
    last_sign_in_at: float


class MemberTokenTable(SQLModel, table=True):
    """Team mode: a member's personal agent token. Only the SHA-256 of its secret is kept
    (the secret is shown once, when it is made); `id` names it in lists and revocations.
    Revoking deletes the row."""

    __tablename__ = "member_token"

    id: str = _text(16, primary_key=True)
    member_id: str = _text(32, index=True)
    name: str = _text(100)
    secret_hash: str = _text(64, unique=True)
    created_at: float
    last_used_at: float | None = None


class SignInAttemptTable(SQLModel, table=True):
    """Team mode: a sign-in sent to the OpenID provider and not back yet, by the hash of its
    `state`: the `nonce` and PKCE verifier it must come back with, the page to land on, and
    the hash of the browser's attempt cookie (the browser that started it must finish it).
    Taken once by the callback; gone after `expires_at` either way."""

    __tablename__ = "sign_in_attempt"
    __table_args__ = (Index("ix_sign_in_attempt_expires", "expires_at"),)

    state_hash: str = _text(64, primary_key=True)
    browser_hash: str = _text(64)
    nonce: str = _text(64)
    code_verifier: str = _text(128)
    next_path: str = _text()
    expires_at: float


class DraftTable(SQLModel, table=True):
    """What someone has typed or picked on an open question and not sent yet (one row per
    interaction, the newest wins; `written_from`: `web` or `terminal`). Never an answer:
    deleted in the transaction that ends the question."""

    __tablename__ = "draft"

    interaction_id: str = _text(32, primary_key=True)
    draft_json: dict[str, Any] = _json()
    updated_at: float
    written_from: str = _text(16)


class AttachmentTable(SQLModel, table=True):
    """A file shown with a question (`request`: the agent's), attached to the answer being
    written (`draft`: the person's, until an answer sends it or the question ends) or sent
    with the answer (`answer`): the bytes in the database, so every instance on one
    PostgreSQL serves them, and gone with their interaction (retention)."""

    __tablename__ = "attachment"

    interaction_id: str = _text(32, primary_key=True)
    attachment_id: str = _text(64, primary_key=True)
    direction: str = _text(8)
    name: str = _text(200)
    mime_type: str = _text(100)
    size: int
    sha256: str = _text(64)
    data: bytes
    created_at: float


TABLE_CLASSES: tuple[type[SQLModel], ...] = (
    InteractionTable, AuditEventTable, PreferenceTable, MemberPreferenceTable, WideningTable,
    DecisionTable, ParticipantTable, CommentTable, VoteTable, OutboxTable, LoginCodeUsedTable,
    BrowserSessionTable, DraftTable, AttachmentTable, MemberTable, MemberTokenTable,
    SignInAttemptTable)
"""Every table's class, in the order above."""


def table_of(model: type[SQLModel]) -> Table:
    """The Core table a SQLModel class declares (what the repositories query)."""
    table = inspect(model).local_table
    assert isinstance(table, Table)
    return table


INTERACTIONS = table_of(InteractionTable)
AUDIT_EVENTS = table_of(AuditEventTable)
PREFERENCES = table_of(PreferenceTable)
WIDENINGS = table_of(WideningTable)
DECISIONS = table_of(DecisionTable)
PARTICIPANTS = table_of(ParticipantTable)
COMMENTS = table_of(CommentTable)
VOTES = table_of(VoteTable)
OUTBOX = table_of(OutboxTable)
LOGIN_CODES_USED = table_of(LoginCodeUsedTable)
BROWSER_SESSIONS = table_of(BrowserSessionTable)
DRAFTS = table_of(DraftTable)
ATTACHMENTS = table_of(AttachmentTable)
MEMBERS = table_of(MemberTable)
MEMBER_TOKENS = table_of(MemberTokenTable)
SIGN_IN_ATTEMPTS = table_of(SignInAttemptTable)
MEMBER_PREFERENCES = table_of(MemberPreferenceTable)
