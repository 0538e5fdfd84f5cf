"""The store's side of members' agent tokens, on SQLite and PostgreSQL: a token is found by
its secret's hash while its member lives, listed and revoked only by its member, capped per
member, and gone with the member."""

from __future__ import annotations

from pathlib import Path

import pytest

from choice.store import Store
from choice.store.member_tokens import (
    find_token,
    list_tokens,
    make_token,
    revoke_token,
    token_used,
)
from choice.store.members import record_sign_in, remove_member
from tests.pg_cluster import chosen_database

pytestmark = pytest.mark.usefixtures("backend")


def test_a_token_is_its_members_alone_and_goes_with_the_member(tmp_path: Path) -> None:
    store = Store(chosen_database(tmp_path)).open()
    try:
        ann = record_sign_in(store.repo, "ann", "ann@example.com", "Ann", False, 1.0)
        bo = record_sign_in(store.repo, "bo", "bo@example.com", "Bo", False, 1.0)
        made = make_token(store.repo, ann.id, "agent", "a" * 64, 2.0, limit=2)
        assert made is not None
        found = find_token(store.engine, "a" * 64)
        assert found is not None and found.member_id == ann.id and found.last_used_at is None
        token_used(store.repo, made.id, 3.0)
        assert [t.last_used_at for t in list_tokens(store.engine, ann.id)] == [3.0]
        assert list_tokens(store.engine, bo.id) == []
        assert revoke_token(store.repo, bo.id, made.id) is False
        assert make_token(store.repo, ann.id, "second", "b" * 64, 4.0, limit=2) is not None
        assert make_token(store.repo, ann.id, "third", "c" * 64, 5.0, limit=2) is None
        assert remove_member(store.repo, ann.id) is True
        assert find_token(store.engine, "a" * 64) is None
        assert list_tokens(store.engine, ann.id) == []
    finally:
        store.close()
