"""Block or continue over HTTP, on a real uvicorn: an agent's blocking create or poll
(`?wait`) answers at once with `widened` when the owner widens with `continue`, keeps
waiting with `block`, and a later poll gets the owner's decision."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from choice.client.portal_client import PortalClient
from tests.integration.test_real_server import request, wait_until
from tests.portal_process import PortalProcess

pytestmark = pytest.mark.slow


def waiting(client: PortalClient, count: int = 1) -> bool:
    return bool(client.call("GET", "/healthz")["waiting"] >= count)


def newest_pending(client: PortalClient, title: str) -> str:
    for row in client.list("active", 50)["interactions"]:
        if row["title"] == title:
            return str(row["interaction_id"])
    raise AssertionError(f"{title!r} was not asked")


def widen(client: PortalClient, iid: str, mode: str) -> dict[str, Any]:
    widened: dict[str, Any] = client.call("POST", f"/api/interactions/{iid}/widen",
                                          {"audience": ["Alice", "Bob"], "mode": mode})
    return widened


def test_a_blocking_create_answers_widened_at_once_on_continue(portal: PortalProcess) -> None:
    agent, owner = portal.client(), portal.client()
    title = f"Create and wait {time.monotonic_ns()}"
    with ThreadPoolExecutor(1) as pool:
        created = pool.submit(agent.request, "POST", "/api/interactions?wait=30",
                              request(title=title), timeout=40)
        wait_until(lambda: waiting(owner))
        iid = newest_pending(owner, title)
        widen(owner, iid, "continue")
        # its window is 30 s: a reply within 10 was woken by the widen (how soon it comes
        # is a figure: bench/timing_bench.py)
        status, body = created.result(timeout=10)
    assert status == 201
    assert (body["status"], body["action_status"], body["mode"]) == ("widened", "widened",
                                                                      "continue")
    assert body["session_id"] == iid and body["participants"] == ["Alice", "Bob"]
    assert body["warnings"] == []

    with ThreadPoolExecutor(1) as pool:
        polled = pool.submit(agent.poll, iid, 30)
        wait_until(lambda: waiting(owner))
        owner.call("POST", f"/api/interactions/{iid}/response", {"selected_ids": ["b"]})
        result = polled.result(timeout=10)
    assert result["status"] == "submitted" and result["selected_ids"] == ["b"]


def test_a_blocking_poll_answers_widened_at_once_on_continue_then_waits_again(
        portal: PortalProcess) -> None:
    agent, owner = portal.client(), portal.client()
    iid = agent.create(request())["interaction_id"]
    with ThreadPoolExecutor(1) as pool:
        polled = pool.submit(agent.poll, iid, 30)
        wait_until(lambda: waiting(owner))
        widen(owner, iid, "continue")
        body = polled.result(timeout=10)  # its window is 30 s: woken by the widen
    assert body["status"] == "widened" and body["mode"] == "continue"
    # A later poll is not answered at once again (an agent's loop must not spin): it waits
    # for the decision, or for its whole window.
    started = time.monotonic()
    again = agent.poll(iid, 1.5)
    assert again["status"] == "widened" and time.monotonic() - started >= 1.4


def test_block_keeps_a_blocking_create_waiting_for_its_window(portal: PortalProcess) -> None:
    agent, owner = portal.client(), portal.client()
    title = f"Block {time.monotonic_ns()}"
    window = 3
    with ThreadPoolExecutor(1) as pool:
        started = time.monotonic()
        created = pool.submit(agent.request, "POST", f"/api/interactions?wait={window}",
                              request(title=title), timeout=20)
        wait_until(lambda: waiting(owner))
        iid = newest_pending(owner, title)
        widen(owner, iid, "block")
        status, body = created.result(timeout=window + 10)
        elapsed = time.monotonic() - started
    assert elapsed >= window - 0.1, elapsed
    assert status == 201 and body["status"] == "widened" and body["mode"] == "block"

    with ThreadPoolExecutor(1) as pool:
        polled = pool.submit(agent.poll, iid, 30)
        wait_until(lambda: waiting(owner))
        owner.call("POST", f"/api/interactions/{iid}/cancel", {"global_annotation": "later"})
        result = polled.result(timeout=10)
    assert result["status"] == "cancelled" and result["action_status"] == "cancelled"
