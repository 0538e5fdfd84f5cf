"""Files shown with a question (and, later, sent with an answer): the `attachment` table.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27

An agent may send images and files with its question. Their bytes live here,
keyed by interaction and the attachment's id, with the name, the type, the size and a
sha256; the stored request keeps only that description. In the database, so several
instances on one PostgreSQL serve the same files, and retention removes them with their
interaction. Nothing written before moves.

Written out in full (no imports from choice.store.tables): history must not change when
the tables change later. Tested on a database made by the previous release
(tests/integration/test_migrations.py).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "attachment",
        sa.Column("interaction_id", sa.String(length=32), nullable=False),
        sa.Column("attachment_id", sa.String(length=64), nullable=False),
        sa.Column("direction", sa.String(length=8), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("mime_type", sa.String(length=100), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("interaction_id", "attachment_id"),
    )


def downgrade() -> None:
    op.drop_table("attachment")
