"""`withdraw_question` through the SDK's own client: the agent's waiting call on the
question ends at once with `withdrawn`, a second withdrawal answers the standing result,
an answered question is not withdrawn (its result comes back instead), a missing
session_id or reason is a field error, and only a question asked over MCP (through the
stdio bridge too) may be withdrawn: one asked over the HTTP API is refused and left as it
is."""

from __future__ import annotations

import asyncio

import pytest

from tests.mcp.conftest import ask, http_session, stdio_session
from tests.mcp.test_mcp_http import asked, structured
from tests.portal_process import PortalProcess

pytestmark = pytest.mark.slow


async def test_a_withdrawn_question_ends_the_waiting_call_with_the_reason(
        portal: PortalProcess) -> None:
    async with http_session(portal) as session:
        request = ask(title="Withdrawn while waiting")
        call = asyncio.create_task(session.call_tool("provide_choice", request))
        iid = await asked(portal, "Withdrawn while waiting")
        withdrawn = await session.call_tool("withdraw_question",
                                            {"session_id": iid, "reason": "Found it myself."})
        body = structured(withdrawn)
        assert not withdrawn.is_error
        assert (body["status"], body["withdrawn_reason"]) == ("withdrawn", "Found it myself.")
        waited = structured(await asyncio.wait_for(call, 30))  # woken, not timed out
        assert waited["status"] == "withdrawn"
        again = structured(await session.call_tool(
            "withdraw_question", {"session_id": iid, "reason": "Twice."}))
        assert again["withdrawn_reason"] == "Found it myself."  # the standing result


async def test_an_answered_question_is_not_withdrawn_and_bad_calls_name_the_field(
        portal: PortalProcess) -> None:
    async with http_session(portal) as session:
        request = ask(title="Answered before the withdrawal")
        call = asyncio.create_task(session.call_tool("provide_choice", request))
        iid = await asked(portal, "Answered before the withdrawal")
        await asyncio.to_thread(portal.client().respond, iid, {"selected_ids": ["pg"]})
        await asyncio.wait_for(call, 30)
        kept = structured(await session.call_tool(
            "withdraw_question", {"session_id": iid, "reason": "Too late."}))
        assert (kept["status"], kept["selected_ids"]) == ("submitted", ["pg"])
        for arguments, field in (({"reason": "x"}, "session_id"), ({"session_id": iid}, "reason")):
            refused = await session.call_tool("withdraw_question", arguments)
            assert refused.is_error
            assert [e["field"] for e in structured(refused)["errors"]] == [field]


async def test_a_question_asked_over_the_http_api_is_not_withdrawn_over_mcp(
        portal: PortalProcess) -> None:
    client = portal.client()
    created = await asyncio.to_thread(client.create, ask(title="Asked over the API"))
    iid = created["interaction_id"]
    async with http_session(portal) as session:
        refused = await session.call_tool("withdraw_question",
                                          {"session_id": iid, "reason": "Not mine to take."})
    assert refused.is_error
    [error] = structured(refused)["errors"]
    assert (error["field"], error["code"]) == ("session_id", "asked_elsewhere")
    assert "not asked over MCP" in error["message"] and "/withdraw" in error["message"]
    standing = await asyncio.to_thread(client.call, "GET", f"/api/interactions/{iid}")
    assert standing["status"] == "pending"
    kinds = [e["kind"] for e in (await asyncio.to_thread(
        client.call, "GET", f"/api/interactions/{iid}/events"))["events"]]
    assert "withdrawn" not in kinds
    withdrawn = await asyncio.to_thread(client.withdraw, iid, "Withdrawn where it was asked.")
    assert withdrawn["status"] == "withdrawn"  # the API that asked it still may


async def test_a_question_asked_through_the_stdio_bridge_is_withdrawn_over_mcp(
        portal: PortalProcess) -> None:
    async with stdio_session(portal.data_dir, portal.port) as bridge:
        waited = structured(await bridge.call_tool(
            "provide_choice", ask(title="Asked through the bridge")))
    assert waited["status"] == "pending"  # the wait window ran out
    async with http_session(portal) as session:
        withdrawn = await session.call_tool("withdraw_question", {
            "session_id": waited["session_id"], "reason": "Found it myself."})
    assert not withdrawn.is_error
    assert structured(withdrawn)["status"] == "withdrawn"
