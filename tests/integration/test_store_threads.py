"""The store keeps database work off the event loop: a read, a scan or a write that takes
long leaves the loop free for everything else; and reads and writes mixed concurrently lose
nothing, never fail on a locked database, and each read sees every write that returned
before it started (on SQLite and on PostgreSQL)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from choice.store import Store
from choice.store.records import AuditEvent, Interaction
from choice.store.repository import Completed
from tests.pg_cluster import chosen_database

pytestmark = pytest.mark.usefixtures("backend")

BOUND_S = 10.0
"""How long a test waits for an event that should come at once."""


def asked(interaction_id: str) -> Interaction:
    return Interaction(id=interaction_id, status="pending", title="t", selection_mode="single",
                       interface="web", created_at=1.0, expires_at=4_102_444_800.0,
                       request_json={"options": [{"id": "a", "label": "A"}]})


def answered(row: Interaction) -> Completed:
    return Completed("submitted", {"selected_ids": ["a"]}, 2.0,
                     [AuditEvent(row.id, "answered", "human:web", 2.0)])


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store(chosen_database(tmp_path)).open()
    yield opened
    opened.close()


def _ways_in(store: Store) -> dict[str, Callable[..., Any]]:
    return {"read": store.read, "scan": store.scan, "write": store.write}


@pytest.mark.parametrize("way", ["read", "scan", "write"])
async def test_database_work_that_takes_long_leaves_the_event_loop_free(
        store: Store, way: str) -> None:
    await store.insert(asked("q1"), [])
    released = threading.Event()

    def held_until_released() -> Interaction:
        # On the event loop this would wait out its bound: nothing could release it.
        if not released.wait(BOUND_S):
            raise AssertionError("the event loop was held while the database work ran")
        return store.repo.get("q1")

    running = asyncio.ensure_future(_ways_in(store)[way](held_until_released))
    await asyncio.sleep(0)  # the task starts its database work
    released.set()  # runs only while the loop is free
    row = await asyncio.wait_for(running, BOUND_S)
    assert row.id == "q1"


async def test_mixed_reads_and_writes_lose_nothing_and_read_their_own_writes(
        store: Store) -> None:
    ids = [f"q{index}" for index in range(40)]
    await asyncio.gather(*(store.insert(asked(i), []) for i in ids))

    async def answer_then_read(interaction_id: str) -> tuple[str, str, int]:
        before = await store.read(store.repo.get, interaction_id)
        await store.write(store.repo.complete, interaction_id, answered)
        after = await store.read(store.repo.get, interaction_id)
        trail = await store.scan(store.repo.events, interaction_id)
        return before.status, after.status, len(trail)

    outcomes = await asyncio.gather(*(answer_then_read(i) for i in ids))
    assert outcomes == [("pending", "submitted", 1)] * len(ids)
    assert {row.status for row in await store.scan(store.repo.recent, "all", 100)} == {
        "submitted"}
