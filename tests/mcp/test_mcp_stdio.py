"""`choice mcp`: the stdio bridge, its auto-started portal, and two agents sharing it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from choice.client.portal_client import PortalClient
from choice.core.token import read_token
from tests.mcp.conftest import ask, stdio_session
from tests.portal_process import free_port

pytestmark = pytest.mark.slow


def stop_portal(port: int) -> None:
    import os
    import signal

    from tests.mcp.bridge_process import owner_token

    client = PortalClient(f"http://127.0.0.1:{port}", owner_token())
    if client.is_portal():
        os.kill(client.call("GET", "/healthz")["pid"], signal.SIGINT)


def owners_view(port: int) -> dict[str, int]:
    """`/healthz` as the owner sees it (the counts are not for anyone else)."""
    from tests.mcp.bridge_process import owner_token

    reply: dict[str, int] = PortalClient(f"http://127.0.0.1:{port}", owner_token()).call(
        "GET", "/healthz")
    return reply


async def test_two_agents_share_one_auto_started_portal(isolated_env: Path) -> None:
    port = free_port()
    try:
        async with stdio_session(isolated_env, port) as first, \
                stdio_session(isolated_env, port) as second:
            assert len((await first.list_tools()).tools) == 7
            asked = await first.call_tool("provide_choice", ask())
            pending: dict[str, Any] = asked.structured_content  # type: ignore[assignment]
            assert pending["status"] == "pending"
            client = PortalClient(f"http://127.0.0.1:{port}", read_token(isolated_env / "token"))
            client.call("POST", f"/api/interactions/{pending['session_id']}/response",
                        {"selected_ids": ["pg"]})
            polled = await second.call_tool("provide_choice",
                                            {"session_id": pending["session_id"]})
            assert polled.structured_content["selected_ids"] == ["pg"]  # type: ignore[index]
            assert client.call("GET", "/healthz")["status"] == "ok"
        log = (isolated_env / "portal.log").read_text()
        assert log.count("Uvicorn running on") == 1  # one portal served both bridges
    finally:
        stop_portal(port)


async def test_a_ping_and_another_call_are_answered_while_a_call_waits(isolated_env: Path) -> None:
    port = free_port()
    try:
        async with stdio_session(isolated_env, port, CHOICE_MCP_WAIT_SECONDS="30") as session:
            request = ask()
            waiting = asyncio.create_task(session.call_tool("provide_choice", request))
            client = PortalClient(f"http://127.0.0.1:{port}", None)
            for _ in range(500):  # until the portal (started by the bridge) holds the call
                if client.is_portal() and owners_view(port)["waiting"] >= 1:
                    break
                await asyncio.sleep(0.02)
            await asyncio.wait_for(session.send_ping(), 1.5)
            handoff = await asyncio.wait_for(
                session.call_tool("provide_choice", ask(interface="terminal")), 5)
            assert handoff.structured_content["interface"] == "terminal"  # type: ignore[index]
            assert not waiting.done()
            client.token = read_token(isolated_env / "token")
            asked = client.list("active")["interactions"]
            (iid,) = [row["interaction_id"] for row in asked if row["title"] == request["title"]]
            client.respond(iid, {"selected_ids": ["pg"]})
            result = await asyncio.wait_for(waiting, 10)
            assert result.structured_content["selected_ids"] == ["pg"]  # type: ignore[index]
    finally:
        stop_portal(port)
