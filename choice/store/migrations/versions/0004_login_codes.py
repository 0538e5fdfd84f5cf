"""Sign-in codes that work on every instance: the `login_code_used` table.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-27

One-time sign-in codes were kept in the memory of the process that issued them, so a
browser sent to another instance (several instances behind one proxy, on PostgreSQL) could
not use its link. Codes are now signed with a key derived from the API token, and checked
by any instance without a lookup; only a redeemed code's nonce is written here, until the
code expires, so each code still signs in once. Nothing written before moves.
Written out in full (no imports from choice.store.tables): history must not change when
the tables change later.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "login_code_used",
        sa.Column("nonce", sa.String(length=32), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("nonce"),
    )
    op.create_index("ix_login_code_used_expires", "login_code_used", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_login_code_used_expires", table_name="login_code_used")
    op.drop_table("login_code_used")
