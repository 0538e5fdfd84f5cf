"""JSON columns: the request, the result and every other JSON value become a JSON column type.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-29

The portal wrote these values as JSON text into VARCHAR columns and every caller parsed them
by hand; the tables now declare them as JSON (`choice/store/json_type.py`), and the portal
reads and writes Python values.

- PostgreSQL: each column becomes `json` (not `jsonb`: `json` keeps the text as written, key
  order included), converted in place with `USING column::json`; the stored text is kept
  as it was. A value that is not JSON stops the upgrade, and PostgreSQL rolls all of it back.
- SQLite: nothing changes on disk. SQLite has no JSON storage class, and a column declared
  `JSON` would get NUMERIC affinity (the text `30.0` would come back as the integer 30);
  the columns stay VARCHAR (TEXT affinity) and keep the JSON text as written.

Names are kept (`request_json`, ...): each column still holds a value as JSON, and a rename
would be a second change on both stores (and to every query and every SQL an operator keeps
for their own database) for a name.

Written out in full (no imports from choice.store.tables): history must not change when
the tables change later. Tested on a database made by the previous release
(tests/integration/test_migrations.py).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_COLUMNS = (
    ("interaction", "request_json", False),
    ("interaction", "result_json", True),
    ("audit_event", "detail_json", True),
    ("preference", "value_json", False),
    ("decision", "candidate_selected_ids_json", True),
    ("vote", "option_ids_json", False),
    ("outbox", "payload_json", False),
    ("draft", "draft_json", False),
)
"""(table, column, nullable) of every column that holds JSON."""


def upgrade() -> None:
    if op.get_context().dialect.name == "sqlite":
        return  # VARCHAR stays: see the docstring
    for table, column, nullable in JSON_COLUMNS:
        op.alter_column(table, column, type_=sa.JSON(), existing_type=sa.String(),
                        existing_nullable=nullable, postgresql_using=f"{column}::json")


def downgrade() -> None:
    if op.get_context().dialect.name == "sqlite":
        return
    for table, column, nullable in JSON_COLUMNS:
        op.alter_column(table, column, type_=sa.String(), existing_type=sa.JSON(),
                        existing_nullable=nullable, postgresql_using=f"{column}::text")
