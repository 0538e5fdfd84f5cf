"""The store's group commit: concurrent creates share a commit, and one bad row fails alone
(on SQLite and on PostgreSQL)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from choice.store import Store
from choice.store.records import AuditEvent, Interaction
from tests.pg_cluster import chosen_database

pytestmark = pytest.mark.usefixtures("backend")


def interaction(interaction_id: str) -> Interaction:
    return Interaction(id=interaction_id, status="pending", title="t", selection_mode="single",
                       interface="web", created_at=1.0, expires_at=2.0, request_json={})


def created(interaction_id: str) -> list[AuditEvent]:
    return [AuditEvent(interaction_id=interaction_id, kind="created", actor="agent", at=1.0)]


async def test_concurrent_inserts_are_all_committed(tmp_path: Path) -> None:
    store = Store(chosen_database(tmp_path)).open()
    try:
        ids = [f"id{i}" for i in range(40)]
        await asyncio.gather(*(store.insert(interaction(i), created(i)) for i in ids))
        assert {row.id for row in store.repo.recent("all", 100)} == set(ids)
        assert all(len(store.repo.events(i)) == 1 for i in ids)
    finally:
        store.close()


async def test_a_failing_row_fails_only_its_own_insert(tmp_path: Path) -> None:
    store = Store(chosen_database(tmp_path)).open()
    try:
        await store.insert(interaction("taken"), created("taken"))
        outcomes = await asyncio.gather(
            store.insert(interaction("a"), created("a")),
            store.insert(interaction("taken"), created("taken")),
            store.insert(interaction("b"), created("b")),
            return_exceptions=True)
        assert outcomes[0] is None and outcomes[2] is None
        assert isinstance(outcomes[1], Exception)
        assert {row.id for row in store.repo.recent("all", 10)} == {"taken", "a", "b"}
        assert len(store.repo.events("taken")) == 1
    finally:
        store.close()


async def test_insert_with_a_limit_reports_the_stored_count(tmp_path: Path) -> None:
    store = Store(chosen_database(tmp_path)).open()
    try:
        for index in range(3):
            await store.insert(interaction(f"p{index}"), [])
        assert await store.insert(interaction("p3"), [], max_sessions=10) == 4
    finally:
        store.close()
