"""An agent that disconnects mid-wait cancels nothing: over HTTP (a blocked poll or create
whose socket is closed or reset) and over MCP (a call cancelled, or the connection dropped).
The portal stops waiting for the gone HTTP client, the question stays pending, the human
answers, and the agent's next poll or MCP call gets the answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import struct
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx2
import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

from choice.client.portal_client import PortalClient
from tests.portal_process import PortalProcess
from tests.reliability.faults import outcome, question, terminal_events, wait_until, waiting
from tests.tally import faults

pytestmark = pytest.mark.slow


def send_raw(portal: PortalProcess, method: str, path: str, body: Any = None) -> socket.socket:
    """Send one request on a bare socket and leave it waiting for the reply."""
    payload = json.dumps(body).encode() if body is not None else b""
    head = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{portal.port}\r\n"
            f"Authorization: Bearer {portal.token}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(payload)}\r\n\r\n")
    sock = socket.create_connection(("127.0.0.1", portal.port), timeout=10)
    sock.sendall(head.encode() + payload)
    return sock


def hang_up(sock: socket.socket, how: str) -> None:
    """`close`: an orderly FIN, as a client that gave up; `reset`: an RST, as a killed one."""
    if how == "reset":
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def asked(client: PortalClient, title: str) -> str:
    [row] = [r for r in client.list("active", 200)["interactions"] if r["title"] == title]
    return str(row["interaction_id"])


AREA = "Agent disconnects mid-wait"


def answer(client: PortalClient, iid: str) -> tuple[str, str, tuple[str, ...]]:
    """The human answers after the agent left (the question must still be open); returns
    the ending the portal acknowledged."""
    assert client.poll(iid, 0)["status"] == "pending"
    return outcome(client.respond(iid, {"selected_ids": ["b"]}))


@pytest.mark.parametrize("how", ["close", "reset"])
@pytest.mark.parametrize("blocked_in", ["poll", "create"])
def test_an_agent_hanging_up_mid_wait_leaves_the_question_open(
        portal: PortalProcess, client: PortalClient, blocked_in: str, how: str) -> None:
    title = f"hang up in {blocked_in} ({how}) {uuid.uuid4().hex[:6]}"
    before = waiting(client)
    with faults(AREA) as seen:
        seen.tries()
        if blocked_in == "poll":
            iid = client.create(question(title))["interaction_id"]
            sock = send_raw(portal, "GET", f"/api/interactions/{iid}?wait=60")
        else:
            sock = send_raw(portal, "POST", "/api/interactions?wait=60", question(title))
        wait_until(lambda: waiting(client) == before + 1, what="the agent's request is waiting")
        iid = asked(client, title)
        hang_up(sock, how)
        wait_until(lambda: waiting(client) == before, timeout=5,
                   what="the portal stops waiting for a client that left")
        acknowledged = answer(client, iid)
        seen.answers([acknowledged], [outcome(client.poll(iid, 5))])  # the agent's next poll
    assert [e["kind"] for e in terminal_events(client, iid)] == ["answered"]


@asynccontextmanager
async def mcp_session(portal: PortalProcess, *,
                      terminate_on_close: bool) -> AsyncIterator[ClientSession]:
    headers = {"Authorization": f"Bearer {portal.token}"}
    async with httpx2.AsyncClient(headers=headers, timeout=30) as http, \
            streamable_http_client(f"{portal.base_url}/mcp", http_client=http,
                                   terminate_on_close=terminate_on_close) as streams, \
            ClientSession(streams[0], streams[1]) as session:
        await session.initialize()
        yield session


async def eventually(condition: Any, what: str, timeout: float = 10.0) -> None:
    await asyncio.to_thread(wait_until, condition, timeout, what)


@pytest.mark.parametrize("how", ["cancel the call", "drop the connection"])
async def test_an_mcp_agent_that_leaves_mid_wait_gets_the_answer_in_a_new_session(
        portal: PortalProcess, how: str) -> None:
    client = portal.client()
    request = question(f"mcp {how} {uuid.uuid4().hex[:6]}")
    before = await asyncio.to_thread(waiting, client)

    async def agent() -> None:
        async with mcp_session(portal, terminate_on_close=how == "cancel the call") as session:
            call = asyncio.create_task(session.call_tool("provide_choice", request))
            await eventually(lambda: waiting(client) == before + 1, "the MCP call is waiting")
            if how == "cancel the call":  # the SDK sends notifications/cancelled
                call.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await call
                await eventually(lambda: waiting(client) == before,
                                 "the portal stops the cancelled call's wait")
            else:
                await call  # until the task holding the session is cancelled

    session_task = asyncio.create_task(agent())
    if how == "drop the connection":  # no DELETE: the agent's process just went away
        await eventually(lambda: waiting(client) == before + 1, "the MCP call is waiting")
        session_task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await session_task

    iid = await asyncio.to_thread(asked, client, request["title"])
    with faults(AREA) as seen:
        seen.tries()
        acknowledged = await asyncio.to_thread(answer, client, iid)
        # A dropped stream is not a cancel (MCP spec): its wait ran on until the answer came.
        await eventually(lambda: waiting(client) == before, "every wait for it is released")
        async with mcp_session(portal, terminate_on_close=True) as session:
            polled = await session.call_tool("provide_choice", {"session_id": iid})
        got = polled.structured_content
        seen.answers([acknowledged], [outcome({"interaction_id": iid, **got})] if got else [])
    trail = await asyncio.to_thread(client.call, "GET", f"/api/interactions/{iid}/events")
    kinds = [event["kind"] for event in trail["events"]]
    assert "cancelled" not in kinds and kinds.count("answered") == 1
