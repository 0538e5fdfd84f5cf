"""Team mode's personal agent tokens (the `member_token` table): made by a member, listed
for that member only, revoked (deleted) by that member, found by the hash of their secret on
each request that sends one, and their use noted now and then.

Rows hold only the SHA-256 of a secret, which the caller computes
(`web/security/member_tokens.py`): nothing here knows what a secret, a header or a request
is, and nothing stored lets anyone use a token. A member holds at most `limit` live tokens;
removing a member removes theirs (`members.remove_member`).
"""

from __future__ import annotations

import secrets

from msgspec import Struct
from sqlalchemy import Engine, delete, func, insert, select, update

from choice.store.repository import Repository
from choice.store.tables import MEMBER_TOKENS as TABLE
from choice.store.tables import MEMBERS


class MemberToken(Struct, frozen=True):
    """A token as its member's list shows it: never its secret."""

    id: str
    name: str
    created_at: float
    last_used_at: float | None


class TokenUse(Struct, frozen=True):
    """What a request's secret turned out to be: its token, its member, when it was last
    noted in use."""

    id: str
    member_id: str
    last_used_at: float | None
    admin: bool = False
    """The member is an admin (as of their latest sign-in)."""


def make_token(repo: Repository, member_id: str, name: str, secret_hash: str, now: float,
               limit: int) -> MemberToken | None:
    """A new token of `member_id`'s; None when they already hold `limit` live tokens. The
    member's row is locked for the count (PostgreSQL; SQLite writes one at a time anyway),
    so two instances making a member's last token at once cannot both make it."""
    with repo.transaction() as conn:
        conn.execute(select(MEMBERS.c.id).where(MEMBERS.c.id == member_id).with_for_update())
        held = conn.execute(select(func.count()).select_from(TABLE)
                            .where(TABLE.c.member_id == member_id)).scalar_one()
        if held >= limit:
            return None
        token_id = secrets.token_hex(8)
        conn.execute(insert(TABLE).values(id=token_id, member_id=member_id, name=name,
                                          secret_hash=secret_hash, created_at=now,
                                          last_used_at=None))
    return MemberToken(id=token_id, name=name, created_at=now, last_used_at=None)


def list_tokens(engine: Engine, member_id: str) -> list[MemberToken]:
    """`member_id`'s live tokens, oldest first."""
    with engine.connect() as conn:
        rows = conn.execute(select(TABLE.c.id, TABLE.c.name, TABLE.c.created_at,
                                   TABLE.c.last_used_at)
                            .where(TABLE.c.member_id == member_id)
                            .order_by(TABLE.c.created_at, TABLE.c.id)).all()
    return [MemberToken(id=row.id, name=row.name, created_at=float(row.created_at),
                        last_used_at=None if row.last_used_at is None
                        else float(row.last_used_at)) for row in rows]


def revoke_token(repo: Repository, member_id: str, token_id: str) -> bool:
    """Delete one of `member_id`'s tokens; False when it is someone else's, or gone."""
    with repo.transaction() as conn:
        return bool(conn.execute(delete(TABLE).where(
            TABLE.c.id == token_id, TABLE.c.member_id == member_id)).rowcount)


def find_token(engine: Engine, secret_hash: str) -> TokenUse | None:
    """The live token whose secret hashes to `secret_hash`; None if there is none, or its
    member was removed."""
    with engine.connect() as conn:
        row = conn.execute(
            select(TABLE.c.id, TABLE.c.member_id, TABLE.c.last_used_at, MEMBERS.c.admin)
            .join(MEMBERS, MEMBERS.c.id == TABLE.c.member_id)
            .where(TABLE.c.secret_hash == secret_hash)).first()
    if row is None:
        return None
    return TokenUse(id=row.id, member_id=row.member_id,
                    last_used_at=None if row.last_used_at is None else float(row.last_used_at),
                    admin=bool(row.admin))


def token_used(repo: Repository, token_id: str, now: float) -> None:
    """Note that the token was used `now` (a revoked token changes nothing)."""
    with repo.transaction() as conn:
        conn.execute(update(TABLE).where(TABLE.c.id == token_id).values(last_used_at=now))
