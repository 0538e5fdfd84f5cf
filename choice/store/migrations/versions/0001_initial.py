"""The schema of choice-portal 0.1.0: interactions, their audit events, preferences.

Revision ID: 0001
Revises:
Create Date: 2026-11-27

0.1.0 made these tables with `create_all` and no version table; `choice.store.schema`
recognises such a database and stamps it with this revision instead of running it.
Written out in full (no imports from choice.store.tables): history must not change when
the tables change later.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "interaction",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("title", sa.String(), nullable=False),
        sa.Column("selection_mode", sa.String(length=16), nullable=False),
        sa.Column("interface", sa.String(length=16), nullable=False),
        sa.Column("agent", sa.String(), nullable=True),
        sa.Column("project", sa.String(), nullable=True),
        sa.Column("language", sa.String(length=8), nullable=True),
        sa.Column("placeholder_shown", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.Column("completed_at", sa.Float(), nullable=True),
        sa.Column("request_json", sa.String(), nullable=False),
        sa.Column("result_json", sa.String(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_interaction_created", "interaction", ["created_at"])
    op.create_index("ix_interaction_status_created", "interaction", ["status", "created_at"])
    op.create_table(
        "audit_event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("interaction_id", sa.String(length=32), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("actor", sa.String(length=64), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("detail_json", sa.String(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_audit_event_interaction_id", "audit_event", ["interaction_id"])
    op.create_table(
        "preference",
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("value_json", sa.String(), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )


def downgrade() -> None:
    op.drop_table("preference")
    op.drop_index("ix_audit_event_interaction_id", table_name="audit_event")
    op.drop_table("audit_event")
    op.drop_index("ix_interaction_status_created", table_name="interaction")
    op.drop_index("ix_interaction_created", table_name="interaction")
    op.drop_table("interaction")
