"""The SQLAlchemy engine: SQLite tuned for durable, concurrent use, or any other URL.

SQLite runs in WAL mode with `synchronous=FULL` (an acknowledged answer survives a power
cut) and a busy timeout. Write transactions start with `BEGIN IMMEDIATE` so a second
process waits for the lock instead of failing on upgrade (docs/internals.md#sqlite).
`secure_delete` zeroes what a delete or an overwrite frees, and `forget_overwritten` moves
the WAL into the database and empties it: together they take a dropped secret (a
participant's link in a delivered webhook message, a file taken off a draft or removed with
its question) off the disk. On a server database, JSON
columns are encoded and decoded by `json_type.py`'s functions (as on SQLite), not the
driver's `json` module.

This module makes connections only; the schema is `schema.py`'s business.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, Engine, RootTransaction, create_engine, event

from choice.store.json_type import decode, encode

BUSY_TIMEOUT_MS = 10_000
WAL_RETRY_SECONDS = 60.0


class DriverMissing(RuntimeError):
    """The database URL names a driver that is not installed: the message says what to do."""


def shown(engine: Engine) -> str:
    """The engine's URL with its password hidden, for messages and logs."""
    return engine.url.render_as_string(hide_password=True)


def make_engine(url: str) -> Engine:
    if not url.startswith("sqlite"):
        return driven(create_engine, url, pool_pre_ping=True, json_serializer=encode,
                      json_deserializer=decode)
    engine = create_engine(
        url, connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000}
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let us issue BEGIN ourselves: pysqlite's implicit transactions start too late.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        _enable_wal(cursor)
        cursor.execute("PRAGMA synchronous=FULL")
        # Freed space is zeroed, not left holding what was there: deleted values stay on
        # disk otherwise (docs/internals.md#deleted-values-stay-on-disk).
        cursor.execute("PRAGMA secure_delete=ON")
        cursor.close()

    return engine


def begin_write(conn: Connection) -> RootTransaction:
    """Begin a write transaction on `conn`. On SQLite it takes the write lock up front
    (`BEGIN IMMEDIATE`, waiting up to the busy timeout), so that what it reads before
    writing cannot change under it. Reads are single statements, consistent on their own in
    autocommit mode: no BEGIN for them.

    Issued here rather than from a `begin` event: a connection event listener on the engine
    makes SQLAlchemy dispatch events around every statement, reads included."""
    transaction = conn.begin()
    if conn.dialect.name == "sqlite":
        try:
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        except BaseException:
            transaction.rollback()
            raise
    return transaction


@contextmanager
def writing(conn: Connection) -> Iterator[Connection]:
    """A write transaction on `conn` (`begin_write`): committed when the block ends, rolled
    back if it raises."""
    with begin_write(conn):
        yield conn


def forget_overwritten(engine: Engine) -> bool:
    """SQLite: copy the WAL into the database and truncate it to nothing, so the old copies
    of pages it holds (with what was just deleted or overwritten) are gone from the disk.
    Waits for readers (the busy timeout); False if one held on past it (nothing is lost:
    the next checkpoint moves the rest). Other databases: nothing to do here, True.
    Outside any transaction: a checkpoint cannot run inside one."""
    if engine.dialect.name != "sqlite":
        return True
    with engine.connect() as conn:
        busy, _log, _moved = conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)").one()
    return not busy


def _enable_wal(cursor: sqlite3.Cursor) -> None:
    """Switch the file to WAL, retrying while another process holds it.

    The switch needs an exclusive lock, and SQLite answers `database is locked` at once
    instead of calling the busy handler (it already holds a shared lock, and waiting could
    deadlock). Two processes opening a new file together hit it
    (docs/internals.md#two-processes-on-a-new-file), so
    retry; once the file is in WAL mode the pragma only reads and never waits.
    """
    deadline = time.monotonic() + WAL_RETRY_SECONDS
    pause = 0.005
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) and "busy" not in str(error):
                raise
            if time.monotonic() > deadline:
                raise sqlite3.OperationalError(
                    f"could not switch the database to WAL mode in {WAL_RETRY_SECONDS:.0f} s: "
                    "another process keeps it locked; stop it and start again") from error
        time.sleep(pause)  # another process holds the lock: there is nothing to wait on
        pause = min(pause * 2, 0.1)


def driven(make: Any, url: str, **options: Any) -> Engine:
    """`make(url, ...)`, or `DriverMissing` naming the package (psycopg is an extra)."""
    try:
        return make(url, **options)  # type: ignore[no-any-return]
    except ModuleNotFoundError as missing:
        extra = " (pip install 'choice-portal[postgres]')" if "psycopg" in str(missing) else ""
        raise DriverMissing(f"CHOICE_DB_URL needs the {missing.name} package, which is not "
                            f"installed{extra}") from None
