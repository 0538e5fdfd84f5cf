"""Team mode's members (the `member` table): made at a member's first sign-in, refreshed
from the provider's claims at each later one, found by id for each signed-in request, and
removed with every session and agent token they hold (on every instance at once: both are
rows). Listed for an admin with how many live sessions and tokens each holds, and cut off
(every session ended, every token revoked) by one; listed by name for an owner who names
some when widening (`member_directory`). And whose each question is
(`interaction.member_id`): looked up for every request about one.

Nothing here knows what a claim, a cookie or a provider is: the caller
(`web/security/team_sign_in.py`) decides who may sign in and with which name.
"""

from __future__ import annotations

import secrets

from msgspec import Struct
from sqlalchemy import Engine, delete, func, insert, select, update

from choice.store.repository import Repository
from choice.store.tables import (
    BROWSER_SESSIONS,
    INTERACTIONS,
    MEMBER_PREFERENCES,
    MEMBER_TOKENS,
    MEMBERS,
    PARTICIPANTS,
)


class Member(Struct, frozen=True):
    """A member as the portal shows them (`GET /api/me`)."""

    id: str
    email: str
    name: str
    admin: bool


def record_sign_in(repo: Repository, subject: str, email: str, name: str, admin: bool,
                   now: float) -> Member:
    """The member the provider calls `subject`, made now if new, with this sign-in's email,
    name and admin flag. An admin takes every question nobody's yet: those of the database's
    local-mode days, given to the first admin who signs in after the switch to team mode."""
    with repo.transaction() as conn:
        found = conn.execute(select(MEMBERS.c.id).where(MEMBERS.c.subject == subject)).scalar()
        if found is None:
            found = secrets.token_hex(16)
            conn.execute(insert(MEMBERS).values(
                id=found, subject=subject, email=email, name=name, admin=admin,
                created_at=now, last_sign_in_at=now))
        else:
            conn.execute(update(MEMBERS).where(MEMBERS.c.id == found).values(
                email=email, name=name, admin=admin, last_sign_in_at=now))
        if admin:
            conn.execute(update(INTERACTIONS).where(INTERACTIONS.c.member_id.is_(None))
                         .values(member_id=found))
    return Member(id=found, email=email, name=name, admin=admin)


def find_member(engine: Engine, member_id: str) -> Member | None:
    with engine.connect() as conn:
        row = conn.execute(select(MEMBERS.c.id, MEMBERS.c.email, MEMBERS.c.name,
                                  MEMBERS.c.admin).where(MEMBERS.c.id == member_id)).first()
    return None if row is None else Member(id=row.id, email=row.email, name=row.name,
                                           admin=bool(row.admin))


def members_by_email(engine: Engine, emails: list[str]) -> dict[str, Member]:
    """The members with these emails (matched without regard to case), by lower-cased email:
    an email no member signed in with is left out."""
    wanted = {email.strip().lower() for email in emails}
    if not wanted:
        return {}
    with engine.connect() as conn:
        rows = conn.execute(select(MEMBERS.c.id, MEMBERS.c.email, MEMBERS.c.name,
                                   MEMBERS.c.admin).where(
            func.lower(MEMBERS.c.email).in_(sorted(wanted)))).all()
    return {row.email.lower(): Member(id=row.id, email=row.email, name=row.name,
                                      admin=bool(row.admin)) for row in rows}


def member_directory(engine: Engine, limit: int) -> list[Member]:
    """The members who have signed in here, by name then email (at most `limit`): whom an
    owner may name when widening. Names and emails only, never a session or a token."""
    with engine.connect() as conn:
        rows = conn.execute(select(MEMBERS.c.id, MEMBERS.c.email, MEMBERS.c.name,
                                   MEMBERS.c.admin)
                            .order_by(func.lower(MEMBERS.c.name), func.lower(MEMBERS.c.email))
                            .limit(limit)).all()
    return [Member(id=row.id, email=row.email, name=row.name, admin=bool(row.admin))
            for row in rows]


def widened_to_member(engine: Engine, interaction_id: str, member_id: str) -> bool:
    """Whether the question is widened to the member (a participant not withdrawn)."""
    with engine.connect() as conn:
        return conn.execute(select(PARTICIPANTS.c.id).where(
            PARTICIPANTS.c.interaction_id == interaction_id,
            PARTICIPANTS.c.member_id == member_id,
            PARTICIPANTS.c.revoked_at.is_(None)).limit(1)).first() is not None


def participant_member(engine: Engine, participant_id: str) -> str | None:
    """The member a participant is (None: a guest, or no such participant)."""
    with engine.connect() as conn:
        return conn.execute(select(PARTICIPANTS.c.member_id).where(
            PARTICIPANTS.c.id == participant_id)).scalar()


def remove_member(repo: Repository, member_id: str) -> bool:
    """Remove a member, end every session they hold, revoke every token they made and drop
    their saved preferences (nobody could read them again); False if there was no such
    member."""
    with repo.transaction() as conn:
        conn.execute(delete(BROWSER_SESSIONS).where(BROWSER_SESSIONS.c.member_id == member_id))
        conn.execute(delete(MEMBER_PREFERENCES).where(
            MEMBER_PREFERENCES.c.member_id == member_id))
        conn.execute(delete(MEMBER_TOKENS).where(MEMBER_TOKENS.c.member_id == member_id))
        return bool(conn.execute(delete(MEMBERS).where(MEMBERS.c.id == member_id)).rowcount)


class MemberListing(Struct, frozen=True):
    """A member as an admin's list shows them: never a session id or a token's secret."""

    id: str
    email: str
    name: str
    admin: bool
    created_at: float
    last_sign_in_at: float
    sessions: int
    """Live browser sessions."""
    tokens: int
    """Live agent tokens."""


def list_members(engine: Engine, now: float) -> list[MemberListing]:
    """Every member, by email, with their live sessions and tokens counted."""
    sessions = (select(BROWSER_SESSIONS.c.member_id, func.count().label("n"))
                .where(BROWSER_SESSIONS.c.expires_at > now)
                .group_by(BROWSER_SESSIONS.c.member_id).subquery())
    tokens = (select(MEMBER_TOKENS.c.member_id, func.count().label("n"))
              .group_by(MEMBER_TOKENS.c.member_id).subquery())
    with engine.connect() as conn:
        rows = conn.execute(
            select(MEMBERS.c.id, MEMBERS.c.email, MEMBERS.c.name, MEMBERS.c.admin,
                   MEMBERS.c.created_at, MEMBERS.c.last_sign_in_at,
                   func.coalesce(sessions.c.n, 0).label("sessions"),
                   func.coalesce(tokens.c.n, 0).label("tokens"))
            .outerjoin(sessions, sessions.c.member_id == MEMBERS.c.id)
            .outerjoin(tokens, tokens.c.member_id == MEMBERS.c.id)
            .order_by(MEMBERS.c.email)).all()
    return [MemberListing(id=row.id, email=row.email, name=row.name, admin=bool(row.admin),
                          created_at=float(row.created_at),
                          last_sign_in_at=float(row.last_sign_in_at),
                          sessions=int(row.sessions), tokens=int(row.tokens)) for row in rows]


class CutOff(Struct, frozen=True):
    """What ending a member's access took away."""

    sessions: int
    tokens: int


def cut_off_member(repo: Repository, member_id: str) -> CutOff | None:
    """End every session of the member and revoke every token they hold, in one
    transaction (each request looks both up in the database: refused from now on, on every
    instance); the member stays, with their questions. None if there is no such member."""
    with repo.transaction() as conn:
        if conn.execute(select(MEMBERS.c.id).where(MEMBERS.c.id == member_id)).first() is None:
            return None
        sessions = conn.execute(delete(BROWSER_SESSIONS).where(
            BROWSER_SESSIONS.c.member_id == member_id)).rowcount
        tokens = conn.execute(delete(MEMBER_TOKENS).where(
            MEMBER_TOKENS.c.member_id == member_id)).rowcount
    return CutOff(sessions=int(sessions), tokens=int(tokens))


class Whose(Struct, frozen=True):
    """A question's member, if the question exists (`member_id` None: nobody's yet)."""

    exists: bool
    member_id: str | None = None


def whose_question(engine: Engine, interaction_id: str) -> Whose:
    with engine.connect() as conn:
        row = conn.execute(select(INTERACTIONS.c.member_id).where(
            INTERACTIONS.c.id == interaction_id)).first()
    return Whose(exists=False) if row is None else Whose(exists=True, member_id=row.member_id)
