"""`web/security/sessions.py` on a real store (a copy of the migrated template) and a clock
the test moves: what a session is stored as, when it runs out, how its end slides without a
write per request, what logout and a new token do, and which cookie each host gets."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from choice.store import Store
from choice.store.members import record_sign_in
from choice.store.sessions import count_sessions
from choice.web.security.sessions import (
    COOKIE,
    KEEP,
    LIFETIME,
    REFRESH_SECONDS,
    SECURE_COOKIE,
    Check,
    Sessions,
    session_key,
    stored_hash,
)


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def store(migrated_database: Path) -> Iterator[Store]:
    opened = Store(f"sqlite:///{migrated_database}").open()
    yield opened
    opened.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def token() -> list[str]:
    return ["the-first-token"]


@pytest.fixture
def sessions(store: Store, clock: Clock, token: list[str]) -> Sessions:
    return Sessions(store, lambda: token[0], "https://choice.example", clock)


def rows(store: Store) -> list[dict[str, float | str]]:
    with store.engine.connect() as conn:
        return [dict(row) for row in conn.exec_driver_sql(
            "SELECT * FROM browser_session").mappings()]


async def test_a_session_is_random_and_stored_only_as_a_keyed_hash(sessions: Sessions,
                                                                   store: Store) -> None:
    first, second = await sessions.begin(), await sessions.begin()
    assert first != second and len(first) == 43
    stored = {row["id_hash"] for row in rows(store)}
    assert stored == {stored_hash(session_key("the-first-token"), v) for v in (first, second)}
    assert not {first, second} & stored
    assert await sessions.check(first) == Check(live=True)


async def test_use_slides_the_end_but_writes_at_most_every_few_minutes(
        sessions: Sessions, store: Store, clock: Clock) -> None:
    value = await sessions.begin()
    made = rows(store)[0]
    clock.now += REFRESH_SECONDS - 1
    assert await sessions.check(value) == Check(live=True)
    assert rows(store)[0] == made  # nothing written
    clock.now += 2
    assert await sessions.check(value) == Check(live=True, renewed=True)
    assert rows(store)[0]["expires_at"] == clock.now + LIFETIME
    for _ in range(3):  # used every 29 days: it never runs out
        clock.now += LIFETIME - 86_400
        assert (await sessions.check(value)).live


async def test_an_unused_session_runs_out(sessions: Sessions, clock: Clock) -> None:
    value = await sessions.begin()
    clock.now += LIFETIME
    assert await sessions.check(value) == Check(live=False)


async def test_a_members_session_names_them_and_runs_out_by_the_same_rules(
        sessions: Sessions, store: Store, clock: Clock) -> None:
    admin = record_sign_in(store.repo, "sub-1", "ann@example.com", "Ann", True, clock.now)
    value = await sessions.begin(admin.id)
    assert await sessions.check(value) == Check(live=True, member_id=admin.id, admin=True)
    clock.now += LIFETIME - 1
    assert (await sessions.check(value)).live  # used: it slides on
    clock.now += LIFETIME
    assert await sessions.check(value) == Check(live=False)


async def test_logout_ends_one_session(sessions: Sessions) -> None:
    leaving, staying = await sessions.begin(), await sessions.begin()
    await sessions.end(leaving)
    assert not (await sessions.check(leaving)).live
    assert (await sessions.check(staying)).live


async def test_a_new_token_ends_every_session(sessions: Sessions, token: list[str]) -> None:
    values = [await sessions.begin() for _ in range(3)]
    token[0] = "the-second-token"
    assert [(await sessions.check(v)).live for v in values] == [False, False, False]
    assert (await sessions.check(await sessions.begin())).live


async def test_anything_not_shaped_like_a_session_is_none_without_a_lookup(
        sessions: Sessions, store: Store) -> None:
    value = await sessions.begin()
    stored = str(rows(store)[0]["id_hash"])
    for wrong in ("", value[:-1], value + "x", stored, f"{value[:-1]}'", "the-first-token"):
        assert await sessions.check(wrong) == Check(live=False), wrong


async def test_sign_ins_past_the_limit_end_the_sessions_unused_longest(
        sessions: Sessions, store: Store, clock: Clock) -> None:
    oldest = await sessions.begin()
    clock.now += 1
    for _ in range(KEEP):
        await sessions.begin()
    assert count_sessions(store.engine, clock.now) == KEEP
    assert not (await sessions.check(oldest)).live


async def test_sign_in_sweeps_the_sessions_that_ran_out(sessions: Sessions, store: Store,
                                                        clock: Clock) -> None:
    for _ in range(3):
        await sessions.begin()
    clock.now += LIFETIME + 1
    await sessions.begin()
    assert len(rows(store)) == 1


def test_only_the_public_https_host_gets_the_secure_prefixed_cookie(sessions: Sessions,
                                                                     store: Store) -> None:
    for host in ("choice.example", "Choice.Example", "choice.example:443"):
        made = sessions.cookie(host, "v")
        assert (made.key, made.secure, made.httponly, made.samesite, made.path, made.domain) \
            == (SECURE_COOKIE, True, True, "lax", "/", None), host
    for host in ("127.0.0.1:8765", "localhost:8765", "[::1]:8765", "choice.example.evil", ""):
        made = sessions.cookie(host, "v")
        assert (made.key, made.secure) == (COOKIE, False), host
    plain_public = Sessions(store, lambda: "t", "http://choice.lan")
    assert plain_public.cookie("choice.lan", "v").key == COOKIE  # no https, no Secure
    assert sessions.cleared("choice.example").max_age == 0
