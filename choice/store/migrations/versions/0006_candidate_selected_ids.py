"""decision: the options the agent's candidate picks (an Accept keeps them)

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27 10:54:50.955186

Written out in full (no imports from choice.store.tables): history must not change when
the tables change later. Tested on a database made by the previous release
(tests/integration/test_migrations.py).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0006'
down_revision: str | Sequence[str] | None = '0005'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column('decision', sa.Column('candidate_selected_ids_json', sa.String(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('decision') as batch_op:
        batch_op.drop_column('candidate_selected_ids_json')
