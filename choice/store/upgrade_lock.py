"""The cross-process lock around "read the schema's version, migrate": SQLite's write lock
on the file (`BEGIN IMMEDIATE`, waited for up to `LOCK_WAIT_SECONDS`), PostgreSQL's
transaction-scoped advisory lock. Processes starting together queue on it; `schema.py`
decides what to do once it is held.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Connection, Engine, text
from sqlalchemy.exc import OperationalError

from choice.store.engine import begin_write, shown

log = logging.getLogger("choice.store")

LOCK_WAIT_SECONDS = 300.0
"""How long a process waits for another one's upgrade before giving up."""
PG_LOCK_KEY = 0x63686F6963650001
"""The advisory lock that serialises upgrades on PostgreSQL ("choice" and 1, as 64 bits)."""


class LockNotTaken(RuntimeError):
    """The lock could not be taken: the message names the database and says what to do."""


@contextmanager
def upgrade_lock(engine: Engine) -> Iterator[Connection]:
    """A connection inside a transaction that holds the upgrade lock; commits on exit."""
    if engine.dialect.name == "sqlite":
        with _sqlite_write_lock(engine) as conn:
            yield conn
        return
    with engine.connect() as conn, conn.begin():
        if engine.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": PG_LOCK_KEY})
        else:  # no portable lock: run the same steps, and hope for one portal at a time
            log.warning("no upgrade lock for %s: start one portal at a time", engine.dialect.name)
        yield conn


@contextmanager
def _sqlite_write_lock(engine: Engine) -> Iterator[Connection]:
    """`BEGIN IMMEDIATE` takes the write lock of the file, across processes; readers go on
    (WAL). SQLite's own wait is the busy timeout (10 s); an upgrade may take longer."""
    deadline = time.monotonic() + LOCK_WAIT_SECONDS
    while True:
        conn = engine.connect()
        try:
            transaction = begin_write(conn)
            break
        except OperationalError as error:
            conn.close()
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise LockNotTaken(f"{shown(engine)}: could not take the database's write lock "
                                   f"to upgrade it ({error.orig}); is another program holding "
                                   "it? Stop it and start again.") from error
            log.info("waiting for another process to finish upgrading %s", shown(engine))
    try:
        with transaction:
            yield conn
    finally:
        conn.close()
