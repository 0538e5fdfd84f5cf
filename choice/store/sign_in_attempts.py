"""Team mode's sign-ins on their way through the OpenID provider (the `sign_in_attempt`
table): written when `/login` sends a browser to the provider, taken once when the provider
sends it back to `/auth/callback` (on whichever instance it lands), swept when they run out.

Rows are keyed by the hash of the `state` the caller computes (`web/security/team_sign_in.py`):
nothing stored here lets anyone finish a sign-in they did not start.
"""

from __future__ import annotations

from msgspec import Struct
from sqlalchemy import delete, insert, select

from choice.store.repository import Repository
from choice.store.tables import SIGN_IN_ATTEMPTS as TABLE


class Attempt(Struct, frozen=True):
    browser_hash: str
    nonce: str
    code_verifier: str
    next_path: str


def open_attempt(repo: Repository, state_hash: str, attempt: Attempt, now: float,
                 lifetime: float) -> None:
    with repo.transaction() as conn:
        conn.execute(delete(TABLE).where(TABLE.c.expires_at <= now))
        conn.execute(insert(TABLE).values(
            state_hash=state_hash, browser_hash=attempt.browser_hash, nonce=attempt.nonce,
            code_verifier=attempt.code_verifier, next_path=attempt.next_path,
            expires_at=now + lifetime))


def take_attempt(repo: Repository, state_hash: str, now: float) -> Attempt | None:
    """The live attempt with this state, deleted in the same transaction (single use: a
    second callback with the same state finds nothing); None if there is none."""
    with repo.transaction() as conn:
        row = conn.execute(select(TABLE).where(TABLE.c.state_hash == state_hash,
                                               TABLE.c.expires_at > now)).first()
        if row is None:
            return None
        taken = conn.execute(delete(TABLE).where(TABLE.c.state_hash == state_hash)).rowcount
    if taken != 1:  # another instance took it between the two statements
        return None
    return Attempt(browser_hash=row.browser_hash, nonce=row.nonce,
                   code_verifier=row.code_verifier, next_path=row.next_path)
