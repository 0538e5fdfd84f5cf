"""Team mode's personal agent tokens: their secrets, and the member a request's secret names.

A secret is `chp_` and 256 random bits (`secrets.token_urlsafe(32)`): the prefix lets
secret scanners and people tell what a leaked string is. It is shown once, when it is made;
the database keeps only its SHA-256 (a plain hash suffices: the secret is random, not a
password), so a stolen copy of the database holds no usable token. Every request that sends
one is a database read (`store/member_tokens.find_token`): no cache, so a revoked token is
refused at once on every instance sharing the database. Its use is written down at most
every `USE_NOTED_SECONDS`, like a session's renewal, not on every request.

Owns the secret and its lookup; the rows are `store/member_tokens.py`'s, the name's rule
`contract/member_tokens.py`'s, who is let in `auth.py`'s.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable

from choice.contract.member_tokens import TOKENS_PER_MEMBER
from choice.store import Store
from choice.store.member_tokens import (
    MemberToken,
    TokenUse,
    find_token,
    list_tokens,
    make_token,
    revoke_token,
    token_used,
)

PREFIX = "chp_"
USE_NOTED_SECONDS = 300.0
"""A token's `last_used_at` is written at most this often (the list shows it to the minute
at best: a write per agent request would cost more than it tells)."""


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class TooManyTokens(Exception):
    """The member already holds `TOKENS_PER_MEMBER` live tokens."""


class MemberTokens:
    def __init__(self, store: Store, clock: Callable[[], float] = time.time,
                 limit: int = TOKENS_PER_MEMBER) -> None:
        self._store = store
        self._clock = clock
        self.limit = limit

    async def make(self, member_id: str, name: str) -> tuple[MemberToken, str]:
        """A new token and its secret (the only copy). Raises `TooManyTokens`."""
        secret = PREFIX + secrets.token_urlsafe(32)
        made = await self._store.write(make_token, self._store.repo, member_id, name,
                                       secret_hash(secret), self._clock(), self.limit)
        if made is None:
            raise TooManyTokens(member_id)
        return made, secret

    async def of(self, member_id: str) -> list[MemberToken]:
        return await self._store.read(list_tokens, self._store.engine, member_id)

    async def revoke(self, member_id: str, token_id: str) -> bool:
        """False when the token is not `member_id`'s, or is gone."""
        return bool(await self._store.write(revoke_token, self._store.repo, member_id,
                                            token_id))

    async def holder(self, secret: str) -> TokenUse | None:
        """The live token this is, with its member (None: unknown, revoked, or not a
        token)."""
        secret = secret.strip()
        if not secret.startswith(PREFIX):
            return None
        found = await self._store.read(find_token, self._store.engine, secret_hash(secret))
        if found is None:
            return None
        now = self._clock()
        if found.last_used_at is None or now - found.last_used_at >= USE_NOTED_SECONDS:
            await self._store.write(token_used, self._store.repo, found.id, now)
        return found
