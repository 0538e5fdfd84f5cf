"""The MCP tools over Streamable HTTP at /mcp, with the SDK's client."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import httpx
from mcp.types import CallToolResult

from tests.mcp.conftest import ask, http_session
from tests.portal_process import PortalProcess


def structured(result: Any) -> dict[str, Any]:
    assert isinstance(result, CallToolResult)
    assert isinstance(result.structured_content, dict)
    return result.structured_content


async def asked(portal: PortalProcess, title: str) -> str:
    """The id of the question titled `title`, once the agent's call has created it."""
    client = portal.client()
    for _ in range(250):
        active = await asyncio.to_thread(client.list, "active", 200)
        for row in active["interactions"]:
            if row["title"] == title:
                return str(row["interaction_id"])
        await asyncio.sleep(0.02)  # polling another process's state, bounded by the loop
    raise AssertionError(f"the question {title!r} never appeared")


async def answer_when_asked(portal: PortalProcess, title: str, body: dict[str, Any]) -> None:
    """Act as the human: wait for the question, then answer it through the API."""
    iid = await asked(portal, title)
    await asyncio.to_thread(portal.client().call, "POST", f"/api/interactions/{iid}/response", body)


async def test_lists_the_seven_tools_with_contract_schemas(portal: PortalProcess) -> None:
    async with http_session(portal) as session:
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
    assert set(tools) == {"provide_choice", "hitl_request", "request_user_choice",
                          "ask_user_question", "list_pending", "submit_candidate",
                          "withdraw_question"}
    schema = tools["provide_choice"].input_schema
    assert {"title", "prompt", "options", "session_id"} <= set(schema["properties"])
    assert "required" not in schema
    assert "destructive" in (tools["provide_choice"].description or "")
    assert "question" in tools["hitl_request"].input_schema["properties"]


async def test_a_call_returns_the_humans_answer(portal: PortalProcess) -> None:
    async with http_session(portal) as session:
        request = ask()
        call = asyncio.create_task(session.call_tool("provide_choice", request))
        await answer_when_asked(portal, str(request["title"]), {"selected_ids": ["lite"]})
        result = await asyncio.wait_for(call, 10)
    body = structured(result)
    assert body["status"] == "submitted" and body["selected_ids"] == ["lite"]
    assert result.content[0].text == 'Selected "SQLite" (lite).'  # type: ignore[union-attr]


async def test_pending_then_poll_keeps_an_answer_given_between_calls(portal: PortalProcess) -> None:
    async with http_session(portal) as session:
        progress: list[float] = []

        async def on_progress(value: float, total: float | None, message: str | None) -> None:
            progress.append(value)

        first = await session.call_tool("provide_choice", ask(), progress_callback=on_progress)
        pending = structured(first)
        assert pending["status"] == "pending" and pending["session_id"]
        assert "session_id" in pending["instructions"] and not first.is_error
        assert len(progress) >= 2 and progress == sorted(progress)
        portal.client().call("POST", f"/api/interactions/{pending['session_id']}/response",
                             {"selected_ids": ["pg"]})
        polled = await session.call_tool("provide_choice", {"session_id": pending["session_id"]})
    assert structured(polled)["selected_ids"] == ["pg"]


async def test_terminal_interface_hands_off_at_once(portal: PortalProcess) -> None:
    async with http_session(portal) as session:
        result = await asyncio.wait_for(
            session.call_tool("provide_choice", ask(interface="terminal")), 1.5)
    body = structured(result)
    assert body["status"] == "pending" and body["interface"] == "terminal"
    assert body["terminal_command"].endswith(f"choice answer {body['session_id']}")
    assert body["url"].endswith(f"/choice/{body['session_id']}")
    assert "run `" in body["instructions"]


async def test_invalid_requests_are_tool_errors_with_the_field_list(portal: PortalProcess) -> None:
    async with http_session(portal) as session:
        result = await session.call_tool("provide_choice", ask(title="", selection_mode="pick"))
    assert result.is_error
    fields = {error["field"] for error in structured(result)["errors"]}
    assert fields == {"title", "selection_mode"}
    assert "nothing was asked" in result.content[0].text  # type: ignore[union-attr]


async def test_hitl_request_refuses_free_text(portal: PortalProcess) -> None:
    async with http_session(portal) as session:
        result = await session.call_tool("hitl_request", {"question": "Delete the branch?",
                                                          "options": ["Yes", "No"],
                                                          "placeholder": "why"})
    assert result.is_error
    assert structured(result)["errors"][0]["code"] == "free_text_not_allowed"


async def test_hitl_request_with_confirmation_round_trip(portal: PortalProcess) -> None:
    async with http_session(portal) as session:
        question = f"Delete the branch {uuid.uuid4().hex[:8]}?"
        call = asyncio.create_task(session.call_tool(
            "hitl_request", {"question": question, "options": ["Yes", "No"], "confirm": True}))
        await answer_when_asked(portal, question, {"selected_ids": ["1"], "confirmed": True})
        body = structured(await asyncio.wait_for(call, 10))
    assert body["selected_labels"] == ["Yes"] and body["confirmed"] is True


async def test_a_cancel_tells_the_agent_not_to_ask_again(portal: PortalProcess) -> None:
    async with http_session(portal) as session:
        question = f"Which layout {uuid.uuid4().hex[:8]}?"
        call = asyncio.create_task(session.call_tool("request_user_choice", {
            "question": question, "options": [{"title": "Grid", "description": "cards"}]}))
        iid = await asked(portal, question)
        await asyncio.to_thread(portal.client().call, "POST", f"/api/interactions/{iid}/cancel", {})
        result = await asyncio.wait_for(call, 10)
    assert structured(result)["action_status"] == "cancelled"
    assert "do not ask again" in result.content[0].text  # type: ignore[union-attr]


async def test_mcp_needs_the_token_and_a_known_host(portal: PortalProcess) -> None:
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "t", "version": "1"}}}
    headers = {"Accept": "application/json, text/event-stream"}
    async with httpx.AsyncClient() as http:
        anonymous = await http.post(f"{portal.base_url}/mcp", json=init, headers=headers)
        wrong = await http.post(f"{portal.base_url}/mcp", json=init,
                                headers={**headers, "Authorization": "Bearer nope"})
        rebound = await http.post(f"{portal.base_url}/mcp", json=init, headers={
            **headers, "Authorization": f"Bearer {portal.token}", "Host": "evil.example"})
    assert anonymous.status_code == 401 and wrong.status_code == 401
    assert rebound.status_code == 421
