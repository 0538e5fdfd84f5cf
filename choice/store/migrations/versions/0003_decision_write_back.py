"""The write-back of a decision: the `decision` table (the owner's request for the agent's
summary and its candidate, a deferral with its rationale, the team's quorum), and the
`interaction.status` value `deferred`.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-26

0.2's `widening` had four columns reserved for this step and never written (summary_text,
summary_source, rationale, deferred_at): they are dropped. A deferral needs no widening
(any pending question can be deferred), so it lives in `decision`; a final answer's
provenance lives in the result, like every answer's. Nothing written before moves.
Written out in full (no imports from choice.store.tables): history must not change when
the tables change later.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UNUSED_WIDENING_COLUMNS = ("summary_text", "summary_source", "rationale", "deferred_at")


def upgrade() -> None:
    op.create_table(
        "decision",
        sa.Column("interaction_id", sa.String(length=32), nullable=False),
        sa.Column("review_requested_at", sa.Float(), nullable=True),
        sa.Column("candidate_summary", sa.String(), nullable=True),
        sa.Column("candidate_answer", sa.String(), nullable=True),
        sa.Column("candidate_source_hint", sa.String(length=32), nullable=True),
        sa.Column("candidate_at", sa.Float(), nullable=True),
        sa.Column("candidate_timed_out_at", sa.Float(), nullable=True),
        sa.Column("deferred_at", sa.Float(), nullable=True),
        sa.Column("defer_rationale", sa.String(), nullable=True),
        sa.Column("quorum_min_votes", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("interaction_id"),
    )
    with op.batch_alter_table("widening") as batch:
        for column in UNUSED_WIDENING_COLUMNS:
            batch.drop_column(column)


def downgrade() -> None:
    with op.batch_alter_table("widening") as batch:
        batch.add_column(sa.Column("summary_text", sa.String(), nullable=True))
        batch.add_column(sa.Column("summary_source", sa.String(length=32), nullable=True))
        batch.add_column(sa.Column("rationale", sa.String(), nullable=True))
        batch.add_column(sa.Column("deferred_at", sa.Float(), nullable=True))
    op.drop_table("decision")
