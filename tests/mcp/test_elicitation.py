"""Asking inside the MCP client (elicitation), through the SDK's own client and its
`elicitation_callback`: over MCP HTTP and through `choice mcp`'s stdio bridge."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import httpx
import httpx2
from mcp import types
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from tests.mcp.conftest import FAST, ask, http_session
from tests.mcp.test_mcp_http import answer_when_asked, asked, structured
from tests.portal_process import PortalProcess

Callback = Callable[[Any, types.ElicitRequestParams],
                    Awaitable[types.ElicitResult | types.ErrorData]]


@asynccontextmanager
async def eliciting(portal: PortalProcess, callback: Callback,
                    heard: Callable[[Any], Awaitable[None]] | None = None,
                    ) -> AsyncIterator[ClientSession]:
    headers = {"Authorization": f"Bearer {portal.token}"}
    async with httpx2.AsyncClient(headers=headers, timeout=30) as http, \
            streamable_http_client(f"{portal.base_url}/mcp", http_client=http) as streams, \
            ClientSession(streams[0], streams[1], elicitation_callback=callback,
                          message_handler=heard) as session:
        await session.initialize()
        yield session


def answering(content: dict[str, Any] | None, action: str = "accept",
              seen: list[types.ElicitRequestParams] | None = None) -> Callback:
    async def callback(_context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        if seen is not None:
            seen.append(params)
        return types.ElicitResult(action=action, content=content)  # type: ignore[arg-type]

    return callback


def events(portal: PortalProcess, iid: str) -> list[dict[str, Any]]:
    return list(portal.client().call("GET", f"/api/interactions/{iid}/events")["events"])


def signed_in_list(portal: PortalProcess) -> str:
    with httpx.Client(follow_redirects=True, timeout=10) as browser:
        return browser.get(f"{portal.base_url}/login?token={portal.token}&next=/").text


async def test_a_single_question_is_answered_in_the_clients_form(portal: PortalProcess) -> None:
    seen: list[types.ElicitRequestParams] = []
    request = ask(interface="client", options=[
        {"id": "pg", "label": "PostgreSQL", "recommended": True},
        {"id": "lite", "label": "SQLite", "description": "One file."}])
    async with eliciting(portal, answering({"answer": "lite", ":note": "small"}, seen=seen)) as s:
        body = structured(await asyncio.wait_for(s.call_tool("provide_choice", request), 20))
    assert body["status"] == "submitted" and body["selected_ids"] == ["lite"]
    assert body["interface"] == "client" and body["answered_via"] == "client"
    assert body["global_annotation"] == "small"
    form = seen[0]
    assert isinstance(form, types.ElicitRequestFormParams)
    field = form.requested_schema["properties"]["answer"]
    assert field["oneOf"] == [{"const": "pg", "title": "PostgreSQL (recommended)"},
                              {"const": "lite", "title": "SQLite"}]
    assert "SQLite: One file." in field["description"]
    answered = [e for e in events(portal, body["interaction_id"]) if e["kind"] == "answered"]
    assert answered[0]["actor"] == "human:client"
    assert answered[0]["detail"]["interface"] == "client"


async def test_several_questions_are_several_fields(portal: PortalProcess) -> None:
    seen: list[types.ElicitRequestParams] = []
    request = {"title": f"Set up {uuid.uuid4().hex[:8]}", "interface": "client", "questions": [
        {"id": "db", "header": "Database", "prompt": "Which store?",
         "options": [{"id": "pg", "label": "PostgreSQL"}, {"id": "lite", "label": "SQLite"}]},
        {"id": "extras", "prompt": "Extras?", "selection_mode": "multi", "max_selections": 2,
         "options": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"},
                     {"id": "c", "label": "C"}]},
        {"id": "name", "prompt": "Name it", "selection_mode": "text_input"}]}
    content = {"db": "pg", "extras": ["c", "a"], "name": "orders"}
    async with eliciting(portal, answering(content, seen=seen)) as session:
        body = structured(await asyncio.wait_for(session.call_tool("provide_choice", request), 20))
    assert body["status"] == "submitted" and body["interface"] == "client"
    answers = body["answers"]
    assert answers["db"]["selected_ids"] == ["pg"]
    assert answers["extras"]["selected_ids"] == ["a", "c"]  # option order
    assert answers["name"]["custom_input"] == "orders"
    schema = seen[0].requested_schema  # type: ignore[union-attr]
    assert schema["properties"]["extras"]["type"] == "array"
    assert schema["properties"]["extras"]["maxItems"] == 2
    assert schema["properties"]["db"]["title"] == "Database"


async def test_decline_cancels_with_the_reason(portal: PortalProcess) -> None:
    async with eliciting(portal, answering(None, "decline")) as session:
        body = structured(await asyncio.wait_for(
            session.call_tool("provide_choice", ask(interface="client")), 20))
    assert body["status"] == "cancelled" and body["interface"] == "client"
    assert body["global_annotation"] == "Declined in the MCP client."


async def test_cancel_cancels_with_the_reason(portal: PortalProcess) -> None:
    async with eliciting(portal, answering(None, "cancel")) as session:
        body = structured(await asyncio.wait_for(
            session.call_tool("provide_choice", ask(interface="client")), 20))
    assert body["status"] == "cancelled"
    assert "Dismissed in the MCP client" in body["global_annotation"]


async def test_a_client_error_falls_back_to_the_page_with_a_warning(
        portal: PortalProcess) -> None:
    async def refuses(_context: Any, _params: types.ElicitRequestParams) -> types.ErrorData:
        return types.ErrorData(code=types.INVALID_PARAMS, message="unsupported field type")

    request = ask(interface="client")
    async with eliciting(portal, refuses) as session:
        call = asyncio.create_task(session.call_tool("provide_choice", request))
        iid = await asked(portal, str(request["title"]))
        for _ in range(250):  # the fallback switches the question to the page
            if portal.client().call("GET", f"/api/interactions/{iid}")["interface"] == "web":
                break
            await asyncio.sleep(0.02)
        await answer_when_asked(portal, str(request["title"]), {"selected_ids": ["pg"]})
        body = structured(await asyncio.wait_for(call, 20))
    assert body["status"] == "submitted" and body["interface"] == "web"
    assert any("unsupported field type" in w and "web page" in w for w in body["warnings"])


async def test_an_answer_the_rules_refuse_falls_back_with_the_field(
        portal: PortalProcess) -> None:
    request = ask(interface="client")
    async with eliciting(portal, answering({"answer": "nosuch"})) as session:
        call = asyncio.create_task(session.call_tool("provide_choice", request))
        await asked(portal, str(request["title"]))
        first = structured(await asyncio.wait_for(call, 20))  # the window ends: pending
    assert first["status"] == "pending" and first["interface"] == "web"
    assert any("selected_ids" in w for w in first["warnings"])


async def test_a_client_without_elicitation_gets_the_page(portal: PortalProcess) -> None:
    request = ask(interface="client")
    async with http_session(portal) as session:
        call = asyncio.create_task(session.call_tool("provide_choice", request))
        await answer_when_asked(portal, str(request["title"]), {"selected_ids": ["pg"]})
        body = structured(await asyncio.wait_for(call, 20))
    assert body["interface"] == "web" and body["selected_ids"] == ["pg"]
    assert any("elicitation" in w for w in body["warnings"])


async def test_the_portal_answering_first_closes_the_form(portal: PortalProcess) -> None:
    shown, closed = asyncio.Event(), asyncio.Event()

    async def waits(_context: Any, _params: types.ElicitRequestParams) -> types.ElicitResult:
        shown.set()
        try:
            await asyncio.sleep(60)  # the human never answers in the client
        except asyncio.CancelledError:
            closed.set()
            raise
        return types.ElicitResult(action="decline")

    request = ask(interface="client")
    async with eliciting(portal, waits) as session:
        call = asyncio.create_task(session.call_tool("provide_choice", request))
        await asyncio.wait_for(shown.wait(), 10)
        listed = await asyncio.to_thread(signed_in_list, portal)
        assert "In the MCP client" in listed  # the list says where it is being asked
        await answer_when_asked(portal, str(request["title"]), {"selected_ids": ["pg"]})
        body = structured(await asyncio.wait_for(call, 20))
        await asyncio.wait_for(closed.wait(), 10)  # the SDK withdrew the form
    assert body["status"] == "submitted" and body["interface"] == "web"
    assert body["answered_via"] == "api"


async def test_the_wait_outlasts_the_window_while_the_client_asks(portal: PortalProcess) -> None:
    """The window is 2 s here; a human answering in the client after it still reaches the
    agent in the same call (the form is open, nothing to poll)."""
    async def slow(_context: Any, _params: types.ElicitRequestParams) -> types.ElicitResult:
        await asyncio.sleep(2.5)  # the human takes their time, past the window
        return types.ElicitResult(action="accept", content={"answer": "pg"})

    async with eliciting(portal, slow) as session:
        body = structured(await asyncio.wait_for(
            session.call_tool("provide_choice", ask(interface="client")), 20))
    assert body["status"] == "submitted" and body["answered_via"] == "client"


async def test_auto_asks_in_the_client_only_when_the_setting_says_so(
        portal: PortalProcess) -> None:
    client = portal.client()
    async with eliciting(portal, answering({"answer": "pg"})) as session:
        request = ask()
        call = asyncio.create_task(session.call_tool("provide_choice", request))
        await answer_when_asked(portal, str(request["title"]), {"selected_ids": ["lite"]})
        assert structured(await asyncio.wait_for(call, 20))["interface"] == "web"
        client.call("PUT", "/api/settings", {"elicitation": "form"})
        try:
            body = structured(await asyncio.wait_for(session.call_tool("provide_choice", ask()),
                                                     20))
        finally:
            client.call("PUT", "/api/settings", {"elicitation": "off"})
    assert body["interface"] == "client" and body["selected_ids"] == ["pg"]


async def test_url_mode_opens_the_page_signed_in(portal: PortalProcess) -> None:
    """The callback plays the client that opens the link: it signs in with the one-time
    code and answers in the page; the call returns that answer and the client hears the
    elicitation completed."""
    completed = asyncio.Event()
    opened: list[str] = []

    async def opens(_context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        assert isinstance(params, types.ElicitRequestURLParams)
        opened.append(params.url)
        asyncio.get_running_loop().create_task(answer_in_page(params.url))
        return types.ElicitResult(action="accept")

    async def answer_in_page(url: str) -> None:
        def browse() -> None:
            with httpx.Client(follow_redirects=True, timeout=10) as browser:
                page = browser.get(url)
                assert page.status_code == 200 and "/choice/" in str(page.url)
                iid = str(page.url).rsplit("/", 1)[1]
                form = browser.post(f"{portal.base_url}/choice/{iid}/submit",
                                    data={"selected": "lite", "action": "submit"},
                                    headers={"Origin": portal.base_url})
                assert form.status_code == 200, form.text  # redirected to the outcome

        await asyncio.to_thread(browse)

    async def notices(message: Any) -> None:
        if getattr(message, "method", None) == "notifications/elicitation/complete":
            completed.set()

    client = portal.client()
    client.call("PUT", "/api/settings", {"elicitation": "url"})
    try:
        async with eliciting(portal, opens, notices) as session:
            body = structured(await asyncio.wait_for(
                session.call_tool("provide_choice", ask(interface="client")), 20))
            await asyncio.wait_for(completed.wait(), 10)
    finally:
        client.call("PUT", "/api/settings", {"elicitation": "off"})
    assert opened and "/login?code=" in opened[0]
    assert body["status"] == "submitted" and body["selected_ids"] == ["lite"]
    assert body["interface"] == "web"


async def test_the_form_works_through_the_stdio_bridge(portal: PortalProcess) -> None:
    env = {"CHOICE_DATA_DIR": str(portal.data_dir), "CHOICE_PORT": str(portal.port),
           "CHOICE_OPEN_BROWSER": "0", **FAST}
    params = StdioServerParameters(command=sys.executable, args=["-m", "choice.cli", "mcp"],
                                   env={**os.environ, **env})
    async with stdio_client(params) as (read, write), \
            ClientSession(read, write, elicitation_callback=answering({"answer": "lite"})) as s:
        await s.initialize()
        body = structured(await asyncio.wait_for(
            s.call_tool("provide_choice", ask(interface="client")), 30))
    assert body["status"] == "submitted" and body["answered_via"] == "client"
    assert json.loads(json.dumps(body))["selected_ids"] == ["lite"]
