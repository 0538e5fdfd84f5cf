"""Team mode: the `member` table, their agent tokens (`member_token`), their own preferences
(`member_preference`), sign-ins on their way
through the OpenID provider (`sign_in_attempt`), a browser session's member
(`browser_session.member_id`), a question's (`interaction.member_id`) and a widened
question's participant who is a member (`participant.member_id`).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-29

A portal in team mode (`CHOICE_AUTH=oidc`) makes a member at their first sign-in and binds
each browser session and each question to one. Local mode writes none of it: its sessions
and questions keep `member_id` NULL (the owner), as every one made before the upgrade does.
Nothing written before moves (team mode gives the owner's questions to its first admin).
A member's preferences are their own rows (`member_preference`, keyed by member and key,
made empty: each member starts from the defaults); the owner's `preference` rows stay as
local mode's, untouched.

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
        "member_token",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("member_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("secret_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("last_used_at", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("secret_hash"),
    )
    op.create_index("ix_member_token_member_id", "member_token", ["member_id"])
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
    op.create_table(
        "member_preference",
        sa.Column("member_id", sa.String(length=32), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        # json on PostgreSQL, VARCHAR on SQLite (TEXT affinity), as 0009 left `preference`
        sa.Column("value_json", sa.String().with_variant(sa.JSON(), "postgresql"),
                  nullable=False),
        sa.PrimaryKeyConstraint("member_id", "key"),
    )
    op.add_column("browser_session",
                  sa.Column("member_id", sa.String(length=32), nullable=True))
    op.create_index("ix_browser_session_member_id", "browser_session", ["member_id"])
    op.add_column("interaction", sa.Column("member_id", sa.String(length=32), nullable=True))
    op.create_index("ix_interaction_member_created", "interaction", ["member_id", "created_at"])
    op.add_column("participant", sa.Column("member_id", sa.String(length=32), nullable=True))
    op.create_index("ix_participant_member_id", "participant", ["member_id"])


def downgrade() -> None:
    op.drop_index("ix_participant_member_id", table_name="participant")
    with op.batch_alter_table("participant") as batch_op:
        batch_op.drop_column("member_id")
    op.drop_index("ix_interaction_member_created", table_name="interaction")
    with op.batch_alter_table("interaction") as batch_op:
        batch_op.drop_column("member_id")
    op.drop_index("ix_browser_session_member_id", table_name="browser_session")
    with op.batch_alter_table("browser_session") as batch_op:
        batch_op.drop_column("member_id")
    op.drop_table("member_preference")
    op.drop_index("ix_sign_in_attempt_expires", table_name="sign_in_attempt")
    op.drop_table("sign_in_attempt")
    op.drop_index("ix_member_token_member_id", table_name="member_token")
    op.drop_table("member_token")
    op.drop_table("member")
