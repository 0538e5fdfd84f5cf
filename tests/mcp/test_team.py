"""A widened question seen by an agent through the SDK's own client (Streamable HTTP and
the stdio bridge): `continue` answers the waiting call at once with `widened`, `block`
keeps it waiting, a later poll with `session_id` gets the owner's decision, and
`list_pending` is the end-of-run pass.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import pytest
from mcp.client.session import ClientSession

from tests.mcp.conftest import ask, http_session, stdio_session
from tests.mcp.test_mcp_http import asked, structured
from tests.portal_process import PortalProcess

pytestmark = pytest.mark.slow

WINDOW = 20.0
"""The portal's MCP wait: long enough that a call returning early was woken, not timed out."""


@pytest.fixture(scope="module")
def portal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PortalProcess]:
    process = PortalProcess(tmp_path_factory.mktemp("mcp-team-portal"),
                            CHOICE_MCP_WAIT_SECONDS=str(int(WINDOW)),
                            CHOICE_MCP_PROGRESS_SECONDS="0.3").start()
    process.client().call("PUT", "/api/settings",
                          {"team": [{"name": "Alice"}, {"name": "Bob", "handle": "@bob"}]})
    yield process
    process.stop()


async def waiting_for(portal: PortalProcess, title: str) -> str:
    """The question's id, once an agent's call is waiting on it (a registered waiter)."""
    iid = await asked(portal, title)
    client = portal.client()
    for _ in range(500):
        if (await asyncio.to_thread(client.call, "GET", "/healthz"))["waiting"] >= 1:
            return iid
        await asyncio.sleep(0.01)  # another process's state, bounded by the loop
    raise AssertionError("the call never waited")


async def widen(portal: PortalProcess, iid: str, mode: str, **extra: Any) -> dict[str, Any]:
    body = {"mode": mode, **extra}
    reply: dict[str, Any] = await asyncio.to_thread(
        portal.client().call, "POST", f"/api/interactions/{iid}/widen", body)
    return reply


async def answer(portal: PortalProcess, iid: str, selected: list[str]) -> None:
    await asyncio.to_thread(portal.client().call, "POST", f"/api/interactions/{iid}/response",
                            {"selected_ids": selected})


async def continue_flow(portal: PortalProcess, session: ClientSession) -> None:
    """Ask; widen with `continue` while the call waits; the call answers `widened` at once;
    the owner decides; a poll with `session_id` returns that decision."""
    request = ask()
    call = asyncio.create_task(session.call_tool("provide_choice", request))
    iid = await waiting_for(portal, str(request["title"]))
    await widen(portal, iid, "continue", note="Which one would you run?")
    # woken, not timed out: it returns within half its window (how soon is a figure:
    # bench/timing_bench.py)
    result = await asyncio.wait_for(call, WINDOW / 2)
    body = structured(result)
    assert not result.is_error
    assert body["status"] == "widened" and body["action_status"] == "widened"
    assert body["session_id"] == iid == body["interaction_id"]
    assert body["mode"] == "continue" and body["participants"] == ["Alice", "Bob"]
    text = result.content[0].text  # type: ignore[union-attr]
    assert "carry on" in text and "Do not ask it again" in text and iid in text

    polling = asyncio.create_task(session.call_tool("provide_choice", {"session_id": iid}))
    await answer(portal, iid, ["lite"])
    final = structured(await asyncio.wait_for(polling, WINDOW))
    assert final["status"] == "submitted" and final["selected_ids"] == ["lite"]


async def test_continue_answers_the_waiting_call_at_once_over_http(portal: PortalProcess) -> None:
    async with http_session(portal) as session:
        await continue_flow(portal, session)


async def test_continue_answers_the_waiting_call_at_once_through_the_stdio_bridge(
        portal: PortalProcess) -> None:
    async with stdio_session(portal.data_dir, portal.port,
                             CHOICE_MCP_WAIT_SECONDS=str(int(WINDOW))) as session:
        await continue_flow(portal, session)


async def test_block_keeps_the_call_waiting_until_its_window_ends(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """Its own portal with a short window: the call must outlive the widen and end only
    when the window does, with the widened reply; the decision comes on a later poll."""
    window = 3.0
    process = PortalProcess(tmp_path_factory.mktemp("mcp-block-portal"),
                            CHOICE_MCP_WAIT_SECONDS=str(int(window)),
                            CHOICE_MCP_PROGRESS_SECONDS="0.3").start()
    try:
        async with http_session(process) as session:
            request = ask()
            progress: list[str] = []

            async def on_progress(value: float, total: float | None, message: str | None) -> None:
                progress.append(message or "")

            started = time.monotonic()
            call = asyncio.create_task(session.call_tool("provide_choice", request,
                                                         progress_callback=on_progress))
            iid = await waiting_for(process, str(request["title"]))
            await widen(process, iid, "block", audience=["Carol"])
            result = await asyncio.wait_for(call, window + 5)
            elapsed = time.monotonic() - started
            body = structured(result)
            assert elapsed >= window - 0.2, elapsed  # it waited its whole window
            assert body["status"] == "widened" and body["mode"] == "block"
            assert body["participants"] == ["Carol"]
            assert "poll again" in result.content[0].text  # type: ignore[union-attr]
            assert any("team" in message for message in progress)  # said what it waits for

            polling = asyncio.create_task(session.call_tool("hitl_request", {"session_id": iid}))
            await answer(process, iid, ["pg"])
            final = structured(await asyncio.wait_for(polling, window + 5))
            assert final["status"] == "submitted" and final["selected_ids"] == ["pg"]
    finally:
        process.stop()


async def test_list_pending_is_the_end_of_run_pass(portal: PortalProcess) -> None:
    client = portal.client()
    widened_id = (await asyncio.to_thread(client.create, ask()))["interaction_id"]
    pending_id = (await asyncio.to_thread(client.create, ask()))["interaction_id"]
    done_id = (await asyncio.to_thread(client.create, ask()))["interaction_id"]
    await widen(portal, widened_id, "continue", audience=["alice"])
    await answer(portal, done_id, ["pg"])
    async with http_session(portal) as session:
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        assert "list_pending" in tools and tools["list_pending"].output_schema
        everything = structured(await session.call_tool("list_pending", {}))
        widened = structured(await session.call_tool("list_pending", {"status": "widened"}))
        pending = structured(await session.call_tool("list_pending", {"status": "pending"}))
        refused = await session.call_tool("list_pending", {"status": "done", "limit": 3})
        await answer(portal, widened_id, ["lite"])
        after = structured(await session.call_tool("list_pending", {}))

    by_id = {entry["session_id"]: entry for entry in everything["interactions"]}
    assert widened_id in by_id and pending_id in by_id and done_id not in by_id
    entry = by_id[widened_id]
    assert (entry["status"], entry["mode"], entry["participants"]) == ("widened", "continue",
                                                                       ["Alice"])
    assert entry["expires_at"].endswith("Z") and entry["title"].startswith("Pick a database")
    assert by_id[pending_id]["mode"] is None and by_id[pending_id]["participants"] == []
    assert "session_id" in everything["instructions"]
    assert {e["status"] for e in widened["interactions"]} == {"widened"}
    assert {e["status"] for e in pending["interactions"]} == {"pending"}
    assert widened_id in {e["session_id"] for e in widened["interactions"]}
    assert pending_id in {e["session_id"] for e in pending["interactions"]}
    assert refused.is_error
    assert {e["field"] for e in structured(refused)["errors"]} == {"status", "limit"}
    assert widened_id not in {e["session_id"] for e in after["interactions"]}


async def test_the_tool_descriptions_say_what_widened_means(portal: PortalProcess) -> None:
    async with http_session(portal) as session:
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
    for name in ("provide_choice", "hitl_request", "request_user_choice", "ask_user_question"):
        description = tools[name].description or ""
        assert "'widened'" in description and "list_pending" in description, name
        assert "Never ask a widened question again" in description, name
    assert "session_id" in (tools["list_pending"].description or "")
