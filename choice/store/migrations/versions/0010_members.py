"""Team mode: the `member` table, sign-ins on their way through the OpenID provider
(`sign_in_attempt`), and a browser session's member (`browser_session.member_id`).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-29

A portal in team mode (`CHOICE_AUTH=oidc`) makes a member at their first sign-in and binds
each browser session to one. Local mode writes none of it: its sessions keep
`member_id` NULL (the owner), as every session made before the upgrade does. Nothing
written before moves.

Written out in full (no imports from choice.store.tables): history must not change when
the tables change later. Tested on a database made by the previous release
(tests/integration/test_migration_0010.py).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | Sequence[str] | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "member",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("subject", sa.String(length=255), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("admin", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("last_sign_in_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("email"),
        sa.UniqueConstraint("subject"),
    )
    op.create_table(
        "sign_in_attempt",
        sa.Column("state_hash", sa.String(length=64), nullable=False),
        sa.Column("browser_hash", sa.String(length=64), nullable=False),
        sa.Column("nonce", sa.String(length=64), nullable=False),
        sa.Column("code_verifier", sa.String(length=128), nullable=False),
        sa.Column("next_path", sa.String(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("state_hash"),
    )
    op.create_index("ix_sign_in_attempt_expires", "sign_in_attempt", ["expires_at"])
    op.add_column("browser_session",
                  sa.Column("member_id", sa.String(length=32), nullable=True))
    op.create_index("ix_browser_session_member_id", "browser_session", ["member_id"])


def downgrade() -> None:
    op.drop_index("ix_browser_session_member_id", table_name="browser_session")
    with op.batch_alter_table("browser_session") as batch_op:
        batch_op.drop_column("member_id")
    op.drop_index("ix_sign_in_attempt_expires", table_name="sign_in_attempt")
    op.drop_table("sign_in_attempt")
    op.drop_table("member")
