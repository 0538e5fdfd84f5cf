"""The team side of a widened interaction: its widening, participants, comments, votes, and
the webhook outbox.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-26

Only new tables: nothing of 0.1.0's rows moves. A widened interaction keeps its row in
`interaction` (status `widened`); these tables hold who was invited and what they said.
Written out in full (no imports from choice.store.tables): history must not change when
the tables change later.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "widening",
        sa.Column("interaction_id", sa.String(length=32), nullable=False),
        sa.Column("mode", sa.String(length=16), nullable=False),
        sa.Column("note", sa.String(), nullable=True),
        sa.Column("widened_at", sa.Float(), nullable=False),
        sa.Column("widened_by", sa.String(length=64), nullable=False),
        sa.Column("last_activity_at", sa.Float(), nullable=False),
        sa.Column("reminded_at", sa.Float(), nullable=True),
        sa.Column("summary_text", sa.String(), nullable=True),
        sa.Column("summary_source", sa.String(length=32), nullable=True),
        sa.Column("rationale", sa.String(), nullable=True),
        sa.Column("deferred_at", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("interaction_id"),
    )
    op.create_table(
        "participant",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("interaction_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("handle", sa.String(length=100), nullable=True),
        sa.Column("email", sa.String(length=254), nullable=True),
        sa.Column("secret_hash", sa.String(length=64), nullable=False),
        sa.Column("invited_at", sa.Float(), nullable=False),
        sa.Column("opened_at", sa.Float(), nullable=True),
        sa.Column("revoked_at", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_participant_interaction_id", "participant", ["interaction_id"])
    op.create_index("ix_participant_secret_hash", "participant", ["secret_hash"], unique=True)
    op.create_table(
        "comment",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("interaction_id", sa.String(length=32), nullable=False),
        sa.Column("participant_id", sa.String(length=32), nullable=True),
        sa.Column("author", sa.String(length=100), nullable=False),
        sa.Column("text", sa.String(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_comment_interaction_id", "comment", ["interaction_id"])
    op.create_table(
        "vote",
        sa.Column("participant_id", sa.String(length=32), nullable=False),
        sa.Column("interaction_id", sa.String(length=32), nullable=False),
        sa.Column("option_ids_json", sa.String(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("participant_id"),
    )
    op.create_index("ix_vote_interaction_id", "vote", ["interaction_id"])
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("interaction_id", sa.String(length=32), nullable=True),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("payload_json", sa.String(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.Float(), nullable=False),
        sa.Column("delivered_at", sa.Float(), nullable=True),
        sa.Column("failed_at", sa.Float(), nullable=True),
        sa.Column("last_error", sa.String(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_outbox_due", "outbox", ["delivered_at", "failed_at", "next_attempt_at"])


def downgrade() -> None:
    op.drop_index("ix_outbox_due", table_name="outbox")
    op.drop_table("outbox")
    op.drop_index("ix_vote_interaction_id", table_name="vote")
    op.drop_table("vote")
    op.drop_index("ix_comment_interaction_id", table_name="comment")
    op.drop_table("comment")
    op.drop_index("ix_participant_secret_hash", table_name="participant")
    op.drop_index("ix_participant_interaction_id", table_name="participant")
    op.drop_table("participant")
    op.drop_table("widening")
