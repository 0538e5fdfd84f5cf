"""Signed-in browsers (the `browser_session` table, migration 0007): made at sign-in, found
on each request, seen again now and then (the lifetime slides), ended at logout or all at
once when the token changes. In team mode a session names its member (`member_id`), and
removing the member removes their sessions (`members.py`).

Rows are keyed by the hash of the session id, which the caller computes
(`web/security/sessions.py`); nothing here knows what a cookie or a token is. Writes run on
the store's writer thread, in its transactions; `find_session` reads on any thread. Every
sign-in sweeps the sessions that ran out and keeps at most `keep` (the longest unused go),
so a script that signs in in a loop cannot grow the table without end.
"""

from __future__ import annotations

from msgspec import Struct
from sqlalchemy import Engine, delete, func, insert, inspect, select, update

from choice.store.engine import writing
from choice.store.repository import Repository
from choice.store.tables import BROWSER_SESSIONS as TABLE
from choice.store.tables import MEMBERS


def open_session(repo: Repository, id_hash: str, now: float, lifetime: float,
                 keep: int, member_id: str | None = None) -> None:
    """A new session; `member_id`: the team-mode member it signs in (None: the owner)."""
    with repo.transaction() as conn:
        conn.execute(delete(TABLE).where(TABLE.c.expires_at <= now))
        conn.execute(insert(TABLE).values(id_hash=id_hash, created_at=now, last_seen_at=now,
                                          expires_at=now + lifetime, member_id=member_id))
        # A subquery with OFFSET: SQLite and PostgreSQL both delete by it in one statement.
        unused = (select(TABLE.c.id_hash).order_by(TABLE.c.last_seen_at.desc(),
                                                    TABLE.c.created_at.desc())
                  .offset(keep).scalar_subquery())
        conn.execute(delete(TABLE).where(TABLE.c.id_hash.in_(unused)))


class Found(Struct, frozen=True):
    last_seen_at: float
    member_id: str | None
    """Team mode: the member it signed in; None: the owner."""
    admin: bool = False
    """Team mode: that member is an admin (as of their latest sign-in)."""


def find_session(engine: Engine, id_hash: str, now: float) -> Found | None:
    """When a live session was last seen, and whose it is; None if there is no such session
    or it ran out."""
    with engine.connect() as conn:
        row = conn.execute(
            select(TABLE.c.last_seen_at, TABLE.c.member_id, MEMBERS.c.id.label("member"),
                   MEMBERS.c.admin)
            .outerjoin(MEMBERS, MEMBERS.c.id == TABLE.c.member_id)
            .where(TABLE.c.id_hash == id_hash, TABLE.c.expires_at > now)).first()
    if row is None or (row.member_id is not None and row.member is None):
        return None  # no session, or its member was removed
    return Found(float(row.last_seen_at), row.member_id, bool(row.admin))


def session_seen(repo: Repository, id_hash: str, now: float, lifetime: float) -> bool:
    """Slide a live session's end to `now + lifetime`; False if it ended meanwhile."""
    with repo.transaction() as conn:
        changed = conn.execute(update(TABLE).where(
            TABLE.c.id_hash == id_hash, TABLE.c.expires_at > now).values(
            last_seen_at=now, expires_at=now + lifetime))
        return bool(changed.rowcount == 1)


def end_session(repo: Repository, id_hash: str) -> bool:
    with repo.transaction() as conn:
        return bool(conn.execute(delete(TABLE).where(TABLE.c.id_hash == id_hash)).rowcount)


def end_all_sessions(engine: Engine) -> int:
    """End every session (the token changed): how many there were. A database that has no
    such table yet (older than 0007) has none."""
    with engine.connect() as conn:
        if not inspect(conn).has_table(TABLE.name):
            return 0
    with engine.connect() as conn, writing(conn):
        return int(conn.execute(delete(TABLE)).rowcount)


def count_sessions(engine: Engine, now: float) -> int:
    """How many sessions are live (for tests and inspection)."""
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(TABLE)
                                .where(TABLE.c.expires_at > now)).scalar_one())
