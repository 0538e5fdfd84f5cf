"""The SQLAlchemy engine: SQLite tuned for durable, concurrent use, or any other URL.

SQLite runs in WAL mode with `synchronous=FULL` (an acknowledged answer survives a power
cut) and a busy timeout. Write transactions start with `BEGIN IMMEDIATE` so a second
process waits for the lock instead of failing on upgrade (see shared/NOTES.md).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlmodel import SQLModel

from choice.store import tables  # noqa: F401 - registers the tables on SQLModel.metadata

BUSY_TIMEOUT_MS = 10_000
WRITE = {"immediate": True}
"""Execution options that mark a connection's transaction as a write (`BEGIN IMMEDIATE`)."""


def make_engine(url: str) -> Engine:
    if not url.startswith("sqlite"):
        engine = create_engine(url, pool_pre_ping=True)
        SQLModel.metadata.create_all(engine)
        return engine
    engine = create_engine(
        url, connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000}
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let us issue BEGIN ourselves: pysqlite's implicit transactions start too late.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        # Writes take the lock up front. Reads are single statements, consistent on their
        # own in autocommit mode: no BEGIN round trip for them.
        if conn.get_execution_options().get("immediate"):
            conn.exec_driver_sql("BEGIN IMMEDIATE")

    SQLModel.metadata.create_all(engine)
    return engine
