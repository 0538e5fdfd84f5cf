"""drafts: what was typed on an open question

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-27 04:30:52.122377

Written out in full (no imports from choice.store.tables): history must not change when
the tables change later. Tested on a database made by the previous release
(tests/integration/test_migrations.py).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0005'
down_revision: str | Sequence[str] | None = '0004'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('draft',
    sa.Column('interaction_id', sa.String(32), nullable=False),
    sa.Column('draft_json', sa.String(), nullable=False),
    sa.Column('updated_at', sa.Float(), nullable=False),
    sa.Column('written_from', sa.String(16), nullable=False),
    sa.PrimaryKeyConstraint('interaction_id')
    )


def downgrade() -> None:
    op.drop_table('draft')
