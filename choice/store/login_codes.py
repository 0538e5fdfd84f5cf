"""Redeemed sign-in codes: a code signs in once, on whichever instance its link lands.

The codes are signed, not stored (`web/security/auth.py`); a redeemed one's nonce is written here
until the code expires, in the same statement that tells whether it was already there
(`INSERT ... ON CONFLICT DO NOTHING RETURNING`: the first redeemer wins, on one database or several
instances of one). Expired nonces are swept on the way.
"""

from __future__ import annotations

import importlib

from sqlalchemy import Engine, delete

from choice.store.engine import writing
from choice.store.tables import LOGIN_CODES_USED as TABLE


def spend_login_code(engine: Engine, nonce: str, expires_at: float, now: float) -> bool:
    """True if this call redeemed the code; False if it had been redeemed before."""
    # The dialect's own `insert` (ON CONFLICT), imported by name: SQLAlchemy's PostgreSQL
    # dialect and its drivers' modules would cost a SQLite portal memory if imported at start.
    dialect = importlib.import_module(f"sqlalchemy.dialects.{engine.dialect.name}")
    with engine.connect() as conn, writing(conn):
        conn.execute(delete(TABLE).where(TABLE.c.expires_at < now))
        inserted = conn.execute(dialect.insert(TABLE).values(
            nonce=nonce, expires_at=expires_at).on_conflict_do_nothing().returning(
            TABLE.c.nonce))
        return inserted.first() is not None
