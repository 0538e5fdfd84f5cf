"""The store's side of an admin's view of the members, on SQLite and PostgreSQL: the list
counts each member's live sessions (not the ones that ran out) and tokens, and cutting a
member off ends every session and token of theirs in one go, leaving everyone else's."""

from __future__ import annotations

from pathlib import Path

import pytest

from choice.store import Store
from choice.store.member_tokens import find_token, make_token
from choice.store.members import CutOff, cut_off_member, list_members, record_sign_in
from choice.store.sessions import find_session, open_session
from tests.pg_cluster import chosen_database

pytestmark = pytest.mark.usefixtures("backend")
DAY = 86_400.0


def test_the_list_counts_live_sessions_and_tokens_and_a_cut_off_ends_them_all(
        tmp_path: Path) -> None:
    store = Store(chosen_database(tmp_path)).open()
    try:
        ann = record_sign_in(store.repo, "ann", "ann@example.com", "Ann", False, 1.0)
        bo = record_sign_in(store.repo, "bo", "bo@example.com", "Bo", True, 2.0)
        for n, lifetime in enumerate((DAY, DAY, 5.0)):  # the third runs out at 15.0
            open_session(store.repo, f"ann-{n}".ljust(64, "0"), 10.0, lifetime, 100, ann.id)
        open_session(store.repo, "bo".ljust(64, "0"), 10.0, DAY, 100, bo.id)
        make_token(store.repo, ann.id, "agent", "a" * 64, 10.0, limit=5)
        make_token(store.repo, bo.id, "agent", "b" * 64, 10.0, limit=5)

        listed = list_members(store.engine, now=20.0)
        assert [(m.email, m.admin, m.sessions, m.tokens) for m in listed] == [
            ("ann@example.com", False, 2, 1), ("bo@example.com", True, 1, 1)]
        assert (listed[0].created_at, listed[1].last_sign_in_at) == (1.0, 2.0)

        assert cut_off_member(store.repo, ann.id) == CutOff(sessions=3, tokens=1)
        assert find_session(store.engine, "ann-0".ljust(64, "0"), 20.0) is None
        assert find_token(store.engine, "a" * 64) is None
        assert find_session(store.engine, "bo".ljust(64, "0"), 20.0) is not None
        assert find_token(store.engine, "b" * 64) is not None
        assert [(m.sessions, m.tokens) for m in list_members(store.engine, 20.0)] == [
            (0, 0), (1, 1)]
        assert cut_off_member(store.repo, "no-such-member") is None
    finally:
        store.close()
