"""One-time sign-in codes: signed with the token's key, so any instance sharing the token
checks them; each signs in once; a tampered, expired or foreign code never does."""

from __future__ import annotations

import base64
from collections.abc import Callable

from choice.web.security.auth import LoginCodes

TOKEN = "t" * 43


def codes_in_memory(token: str = TOKEN, spent: set[str] | None = None,
                    clock: Callable[[], float] | None = None) -> LoginCodes:
    """Codes whose redeemed nonces are kept in `spent` (the database's part, in memory)."""
    used = spent if spent is not None else set()

    async def spend(nonce: str, _expires: float) -> bool:
        if nonce in used:
            return False
        used.add(nonce)
        return True

    return LoginCodes(token, spend, clock) if clock else LoginCodes(token, spend)


async def test_a_code_signs_in_once_on_any_instance_that_shares_the_token() -> None:
    spent: set[str] = set()
    instance_a, instance_b = codes_in_memory(spent=spent), codes_in_memory(spent=spent)
    code = instance_a.issue()
    assert await instance_b.redeem(code)
    assert not await instance_a.redeem(code) and not await instance_b.redeem(code)


async def test_a_tampered_or_foreign_or_garbled_code_is_refused() -> None:
    codes = codes_in_memory()
    code = codes.issue()
    raw = bytearray(base64.urlsafe_b64decode(code + "=" * (-len(code) % 4)))
    raw[3] ^= 1  # a later expiry, say
    tampered = base64.urlsafe_b64encode(bytes(raw)).decode().rstrip("=")
    assert not await codes.redeem(tampered)
    assert not await codes_in_memory(token="u" * 43).redeem(code)
    for garbled in ("", "x", "%%%", code[:-2], code + "AA"):
        assert not await codes.redeem(garbled)
    assert await codes.redeem(code)  # the refusals spent nothing


async def test_a_code_expires() -> None:
    now = [1_800_000_000.0]
    codes = codes_in_memory(clock=lambda: now[0])
    short, long = codes.issue(60), codes.issue(3600)
    now[0] += 61
    assert not await codes.redeem(short)
    assert await codes.redeem(long)
