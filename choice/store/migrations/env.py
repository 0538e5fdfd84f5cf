"""Alembic's entry point for the portal's migrations.

It runs on the connection that `choice.store.schema` hands over in
`config.attributes["connection"]`, already inside the transaction that holds the
migration lock, so it never opens a connection or a transaction of its own.
`scripts/new-migration` hands one over the same way to autogenerate a revision.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from choice.store.tables import METADATA

connection = context.config.attributes.get("connection")
if not isinstance(connection, Connection):
    raise RuntimeError("run migrations through `choice db upgrade` (choice.store.schema) or "
                       "scripts/new-migration: they hold the lock and hand over a connection")

context.configure(
    connection=connection,
    target_metadata=METADATA,
    # SQLite cannot ALTER most things: batch mode rebuilds the table (copy and rename).
    render_as_batch=connection.dialect.name == "sqlite",
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
