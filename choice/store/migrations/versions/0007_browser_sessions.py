"""Browser sessions that can be ended: the `browser_session` table.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27

A signed-in browser's cookie was a fixed HMAC of the API token: the same value for every
browser, for 30 days, with no way to end one short of changing the token. Each sign-in now
makes a random session id; only its keyed hash is stored here, with when it was made and
last seen and when it ends unless seen again. `POST /logout` deletes its row; a new token
ends them all (the hash is keyed by the token). Nothing written before moves: browsers
signed in before the upgrade sign in once more.

Written out in full (no imports from choice.store.tables): history must not change when
the tables change later. Tested on a database made by the previous release
(tests/integration/test_migrations.py).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "browser_session",
        sa.Column("id_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("last_seen_at", sa.Float(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id_hash"),
    )
    op.create_index("ix_browser_session_expires", "browser_session", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_browser_session_expires", table_name="browser_session")
    op.drop_table("browser_session")
