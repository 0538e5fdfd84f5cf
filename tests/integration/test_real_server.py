"""A real uvicorn process: blocking waits, races, the event stream, and `kill -9`."""

from __future__ import annotations

import sqlite3
import subprocess
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from choice.client.portal_client import PortalError, PortalUnreachable
from tests.pg_cluster import chosen_database
from tests.portal_process import PortalProcess
from tests.sse import sse_events

pytestmark = pytest.mark.slow


def request(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"title": "Pick", "prompt": "Context and reason.",
                            "options": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}]}
    body.update(overrides)
    return body


@pytest.fixture
def portal(isolated_env: Path, backend: str) -> Iterator[PortalProcess]:
    process = PortalProcess(isolated_env, CHOICE_DB_URL=chosen_database(isolated_env)).start()
    yield process
    process.stop()


def wait_until(condition: Any, timeout: float = 10.0) -> None:
    """Wait for a condition on another process, bounded; each check is a real request."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        threading.Event().wait(0.01)


def test_a_blocked_poll_is_woken_by_a_submit_from_another_client(portal: PortalProcess) -> None:
    agent, human = portal.client(), portal.client()
    iid = agent.create(request())["interaction_id"]
    with ThreadPoolExecutor(1) as pool:
        poll = pool.submit(agent.poll, iid, 30)
        wait_until(lambda: human.call("GET", "/healthz")["waiting"] == 1)
        human.call("POST", f"/api/interactions/{iid}/response", {"selected_ids": ["b"]})
        # its window is 30 s: a result within 10 was woken by the submit (how soon is a
        # figure: bench/core_bench.py's waiters)
        result = poll.result(timeout=10)
    assert result["status"] == "submitted" and result["selected_ids"] == ["b"]


def test_two_concurrent_submits_give_one_200_and_one_409(portal: PortalProcess) -> None:
    for _ in range(5):
        iid = portal.client().create(request())["interaction_id"]
        barrier = threading.Barrier(2)

        def submit(choice: str, iid: str = iid, barrier: threading.Barrier = barrier) -> int:
            barrier.wait()
            status, _ = portal.client().request(
                "POST", f"/api/interactions/{iid}/response", {"selected_ids": [choice]})
            return status

        with ThreadPoolExecutor(2) as pool:
            statuses = sorted(pool.map(submit, ["a", "b"]))
        assert statuses == [200, 409]


def test_event_stream_announces_created_and_completed(portal: PortalProcess) -> None:
    client = portal.client()
    already = client.create(request(title="already open"))["interaction_id"]
    events: list[tuple[str, dict[str, Any]]] = []
    saw_replay, saw_completed = threading.Event(), threading.Event()

    def listen() -> None:
        for kind, data in sse_events(portal):
            events.append((kind, data))
            if data.get("replay"):
                saw_replay.set()
            if kind == "interaction.completed":
                saw_completed.set()
                return

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    assert saw_replay.wait(10)
    iid = client.create(request(title="new"))["interaction_id"]
    client.call("POST", f"/api/interactions/{iid}/cancel", {})
    assert saw_completed.wait(10)
    assert events[0] == ("interaction.created", events[0][1])
    assert events[0][1]["interaction_id"] == already and events[0][1]["replay"] is True
    assert ("interaction.created", iid) in [(k, d["interaction_id"]) for k, d in events]
    assert events[-1][1]["interaction_id"] == iid and events[-1][1]["status"] == "cancelled"


def test_kill_9_loses_no_acknowledged_answer(isolated_env: Path) -> None:
    """Submissions stream in; the server dies mid-stream; every 2xx is in the database."""
    portal = PortalProcess(isolated_env).start()
    try:
        client = portal.client()
        ids = [client.create(request(timeout_seconds=3600))["interaction_id"] for _ in range(80)]
        acknowledged: dict[str, str] = {}
        enough = threading.Event()

        def submit_all() -> None:
            for index, iid in enumerate(ids):
                choice = "a" if index % 2 else "b"
                try:
                    status, _ = client.request("POST", f"/api/interactions/{iid}/response",
                                               {"selected_ids": [choice]})
                except PortalUnreachable:
                    return
                if status == 200:
                    acknowledged[iid] = choice
                if len(acknowledged) >= 25:
                    enough.set()

        writer = threading.Thread(target=submit_all)
        writer.start()
        assert enough.wait(30)
        portal.kill9()
        writer.join(10)
        assert 25 <= len(acknowledged) < len(ids)

        database = isolated_env / "choice.db"
        with sqlite3.connect(database) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"

        portal.start()
        client = portal.client()
        for iid, choice in acknowledged.items():
            result = client.poll(iid, 0)
            assert result["status"] == "submitted", iid
            assert result["selected_ids"] == [choice]
        untouched = [iid for iid in ids if iid not in acknowledged]
        still_pending = [client.poll(iid, 0) for iid in untouched[1:]]
        assert all(row["status"] == "pending" for row in still_pending)
    finally:
        portal.stop()


def test_client_errors_never_produce_a_500(portal: PortalProcess) -> None:
    client = portal.client()
    iid = client.create(request())["interaction_id"]
    bodies: list[Any] = [None, [], "x", 1, {"selected_ids": "a"}, {"selected_ids": [1]},
                         {"option_annotations": []}, {"confirmed": "yes"}, {"x": {"y": [None]}}]
    for body in bodies:
        for path in (f"/api/interactions/{iid}/response", f"/api/interactions/{iid}/cancel",
                     "/api/interactions"):
            status, _ = client.request("POST", path, body)
            assert status < 500, (path, body)
    with pytest.raises(PortalError) as refused:
        client.call("PATCH", f"/api/interactions/{iid}", {"expires_at": "tomorrow"})
    assert refused.value.status == 422


def test_an_on_demand_portal_exits_once_idle_but_not_while_a_question_is_open(
        isolated_env: Path) -> None:
    portal = PortalProcess(isolated_env, CHOICE_IDLE_EXIT="1").start()
    try:
        client = portal.client()
        iid = client.create(request())["interaction_id"]
        assert portal.process is not None
        with pytest.raises(subprocess.TimeoutExpired):
            portal.process.wait(timeout=3)  # a pending question keeps it alive
        client.call("POST", f"/api/interactions/{iid}/cancel", {})
        assert portal.process.wait(timeout=20) == 0
    finally:
        portal.stop()
