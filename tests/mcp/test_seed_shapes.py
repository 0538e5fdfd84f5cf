"""The compatibility shapes answer the way their callers expect
(docs/reference/contract.md#compatibility-shapes), through the MCP SDK client on a real
portal: a `hitl_request` says `outcome: confirmed | canceled` with `selected_option` (a
cancel or a timeout never reads as success) and takes no free text; a `request_user_choice`
answers with exactly the chosen title or the typed words, and gets advice when it breaks that
shape's prompt rules (two distinct options, one recommended); `/api/stream` announces it as
`user_choice_required`."""

from __future__ import annotations

import asyncio
import threading
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from mcp import ClientSession
from mcp.types import CallToolResult

from tests.mcp.conftest import http_session
from tests.mcp.test_mcp_http import answer_when_asked, asked, structured
from tests.portal_process import PortalProcess
from tests.sse import sse_events


def hitl(**overrides: Any) -> dict[str, Any]:
    request: dict[str, Any] = {"question": f"Deploy build {uuid.uuid4().hex[:8]} to prod?",
                               "options": ["Deploy now", "Wait for QA"], "confirm": True}
    request.update(overrides)
    return request


def text_of(result: CallToolResult) -> str:
    return result.content[0].text  # type: ignore[union-attr,no-any-return]


async def final(session: ClientSession, tool: str, first: CallToolResult) -> CallToolResult:
    """Poll with the session_id until the call is no longer pending (a bounded loop)."""
    result = first
    for _ in range(20):
        body = structured(result)
        if body.get("status") not in ("pending", "widened"):
            return result
        result = await session.call_tool(tool, {"session_id": body["session_id"]})
    raise AssertionError("still pending after 20 polls")


async def test_a_confirmed_hitl_request_says_confirmed_with_its_option(
        portal: PortalProcess) -> None:
    async with http_session(portal) as session:
        request = hitl()
        call = asyncio.create_task(session.call_tool("hitl_request", request))
        title = str(request["question"])[:80]
        iid = await asked(portal, title)
        client = portal.client()
        for free_text in ({"global_annotation": "ship it"}, {"custom_input": "ship it"},
                          {"option_annotations": {"1": "ship it"}}):
            status, refused = await asyncio.to_thread(
                client.request, "POST", f"/api/interactions/{iid}/response",
                {"selected_ids": ["1"], "confirmed": True, **free_text})
            assert status == 422  # options-only: no free text, not even with the answer
            assert [e["code"] for e in refused["errors"]] == ["free_text_not_allowed"]
        await asyncio.to_thread(client.call, "POST", f"/api/interactions/{iid}/response",
                                {"selected_ids": ["1"], "confirmed": True})
        result = await final(session, "hitl_request", await asyncio.wait_for(call, 10))
    body = structured(result)
    assert (body["outcome"], body["selected_option"]) == ("confirmed",
                                                          {"id": "1", "label": "Deploy now"})
    assert text_of(result).startswith("outcome: confirmed; selected_option: Deploy now (id 1).")


async def test_a_cancelled_hitl_request_is_canceled_with_no_option(portal: PortalProcess) -> None:
    async with http_session(portal) as session:
        request = hitl()
        call = asyncio.create_task(session.call_tool("hitl_request", request))
        iid = await asked(portal, str(request["question"])[:80])
        client = portal.client()
        status, refused = await asyncio.to_thread(
            client.request, "POST", f"/api/interactions/{iid}/cancel",
            {"global_annotation": "not today"})
        assert status == 422
        assert refused["errors"][0]["code"] == "free_text_not_allowed"
        await asyncio.to_thread(client.call, "POST", f"/api/interactions/{iid}/cancel", {})
        result = await final(session, "hitl_request", await asyncio.wait_for(call, 10))
    body = structured(result)
    assert (body["status"], body["outcome"], body["selected_option"]) == (
        "cancelled", "canceled", None)
    assert text_of(result).startswith("outcome: canceled. ")


async def test_a_timed_out_hitl_request_is_canceled(portal: PortalProcess) -> None:
    async with http_session(portal) as session:
        request = hitl()
        call = asyncio.create_task(session.call_tool("hitl_request", request))
        iid = await asked(portal, str(request["question"])[:80])
        soon = (datetime.now(UTC) + timedelta(seconds=1.5)).isoformat()
        await asyncio.to_thread(portal.client().call, "PATCH", f"/api/interactions/{iid}",
                                {"expires_at": soon})
        result = await final(session, "hitl_request", await asyncio.wait_for(call, 10))
    body = structured(result)
    assert (body["status"], body["outcome"], body["selected_option"]) == (
        "timeout", "canceled", None)


async def test_request_user_choice_answers_with_exactly_the_title_or_the_words(
        portal: PortalProcess) -> None:
    async with http_session(portal) as session:
        question = f"Which cache {uuid.uuid4().hex[:8]}?"
        request = {"question": question,
                   "options": [{"title": "Redis", "isRecommended": True}, {"title": "Memcached"}]}
        call = asyncio.create_task(session.call_tool("request_user_choice", request))
        await answer_when_asked(portal, question[:80], {"selected_ids": ["1"]})
        result = await final(session, "request_user_choice", await asyncio.wait_for(call, 10))
        assert text_of(result) == "Redis"
        assert structured(result)["selected_labels"] == ["Redis"]

        typed = {"question": f"Which queue {uuid.uuid4().hex[:8]}?",
                 "options": [{"title": "SQS", "isRecommended": True}, {"title": "Kafka"}]}
        call = asyncio.create_task(session.call_tool("request_user_choice", typed))
        await answer_when_asked(portal, str(typed["question"])[:80],
                                {"selected_ids": [], "custom_input": "Neither: use Postgres."})
        result = await final(session, "request_user_choice", await asyncio.wait_for(call, 10))
        assert text_of(result) == "Neither: use Postgres."
        assert structured(result)["action_status"] == "custom_input"
        assert not structured(result).get("warnings")


async def test_request_user_choice_breaking_the_adr_rules_still_asks_with_advice(
        portal: PortalProcess) -> None:
    async with http_session(portal) as session:
        question = f"Which logger {uuid.uuid4().hex[:8]}?"
        request = {"question": question, "options": [{"title": "structlog"},
                                                     {"title": " Structlog "}]}
        call = asyncio.create_task(session.call_tool("request_user_choice", request))
        await answer_when_asked(portal, question[:80], {"selected_ids": ["1"]})
        result = await asyncio.wait_for(call, 10)
    warnings = structured(result)["warnings"]
    assert any("at least two distinct options" in w for w in warnings)
    assert any("isRecommended: true" in w for w in warnings)


async def test_a_refused_compatibility_call_names_only_the_tools_own_fields(
        portal: PortalProcess) -> None:
    """What the tool description promised: the task context goes
    in `question`, and an error never talks about fields the tool does not have."""
    async with http_session(portal) as session:
        empty = await session.call_tool("request_user_choice",
                                        {"question": "Which layout?", "options": []})
        context = await session.call_tool("hitl_request", hitl(prompt="CI is green."))
    assert empty.is_error and context.is_error
    [error] = structured(empty)["errors"]
    assert (error["field"], error["code"]) == ("options", "required")
    assert "selection_mode" not in text_of(empty) and "hybrid" not in text_of(empty)
    [error] = structured(context)["errors"]
    assert (error["field"], error["code"]) == ("prompt", "unknown_field")
    assert "into question" in error["message"]


def test_the_stream_announces_a_request_user_choice_as_user_choice_required(
        portal: PortalProcess) -> None:
    events: list[tuple[str, dict[str, Any]]] = []
    ready, heard = threading.Event(), threading.Event()
    question = f"Which region {uuid.uuid4().hex[:8]}?"

    def listen() -> None:
        for kind, data in sse_events(portal):
            events.append((kind, data))
            if data.get("replay"):
                ready.set()  # the stream is live: what comes next is heard
            if kind == "user_choice_required" and data.get("question") == question:
                heard.set()
                return

    client = portal.client()
    client.create({"question": "Plain hitl?", "options": ["Yes", "No"]})  # replayed, not announced
    threading.Thread(target=listen, daemon=True).start()
    assert ready.wait(10), "no replay"
    created = client.create({
        "question": question, "options": [{"title": "eu-west-1", "isRecommended": True},
                                          {"title": "us-east-1"}],
        "context": {"conversation_id": "conv-7", "tool_call_id": "call-3"}})
    assert heard.wait(10), "no user_choice_required"
    iid = created["interaction_id"]
    announced = [data for kind, data in events if kind == "user_choice_required"]
    assert [data["interaction_id"] for data in announced] == [iid]
    data = announced[0]
    assert data["options"][0] == {"id": "1", "title": "eu-west-1", "description": None,
                                  "isRecommended": True}
    assert (data["conversation_id"], data["tool_call_id"], data["schema_version"]) == (
        "conv-7", "call-3", 1)
    kinds = [kind for kind, data in events if data.get("interaction_id") == iid]
    assert kinds[:2] == ["interaction.created", "user_choice_required"]
