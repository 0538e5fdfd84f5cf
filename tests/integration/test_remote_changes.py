"""Two services in one process on one PostgreSQL database, as two instances would be: a
change whose note never went out (its instance died between commit and reply) still
reaches the other instance's deadline scheduler, at the next reconciliation."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from choice.instances import remote_changes
from tests.integration.test_service import Portal, request
from tests.pg_cluster import Cluster


async def test_a_deadline_whose_note_was_lost_is_scheduled_at_the_next_reconciliation(
        pg_cluster: Cluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(remote_changes, "RECONCILE_SECONDS", 0.2)
    url = pg_cluster.new_database()
    a, b = Portal(tmp_path / "a", CHOICE_DB_URL=url), Portal(tmp_path / "b", CHOICE_DB_URL=url)
    on_a, on_b = await a.start(), await b.start()
    try:
        on_a.notifier.relay = None  # A commits, then dies before announcing it
        created = await on_a.create(request(timeout_seconds=600))
        iid = created.row.id
        deadline = time.monotonic() + 5
        while on_b.deadlines.deadline_of(iid) is None:
            assert time.monotonic() < deadline, "B never scheduled the deadline"
            await asyncio.sleep(0.02)  # the reconciliation runs on its own timer
        assert on_b.deadlines.deadline_of(iid) == created.row.expires_at
    finally:
        await a.stop()
        await b.stop()
