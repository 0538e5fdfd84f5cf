"""Every `structuredContent` a tool returns validates against the `outputSchema` it lists,
as a TypeScript-SDK client checks it: outcomes of each kind, the pending and the terminal
hand-off, the widened reply (`block` and `continue`), `list_pending`'s list, warnings, and
the field errors of a refused request (the SDK's Python client skips errors; TypeScript
clients do not). Each shape must also use only the properties of
the branch it matches, so the schema documents every field an agent gets.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any

from jsonschema.validators import validator_for
from mcp.client.session import ClientSession

from choice.contract.clock import iso
from tests.mcp.conftest import ask, http_session
from tests.mcp.test_mcp_http import answer_when_asked, asked
from tests.portal_process import PortalProcess

Shapes = dict[str, tuple[str, dict[str, Any]]]


def check(schema: dict[str, Any], content: dict[str, Any]) -> list[str]:
    """What is wrong with `content` under `schema`: validation errors, then undocumented keys."""
    validator = validator_for(schema)(schema)
    problems = [error.message for error in validator.iter_errors(content)]
    branches = [b for b in schema["anyOf"] if not list(validator_for(b)(b).iter_errors(content))]
    if not branches:
        return [*problems, "matches no branch"]
    undocumented = set(content) - set(branches[0]["properties"])
    return problems + [f"undocumented: {sorted(undocumented)}"] * bool(undocumented)


async def call(session: ClientSession, shapes: Shapes, name: str, tool: str,
               arguments: dict[str, Any]) -> dict[str, Any]:
    result = await session.call_tool(tool, arguments)
    assert isinstance(result.structured_content, dict), name
    shapes[name] = (tool, result.structured_content)
    return result.structured_content


async def outcomes_and_handoffs(portal: PortalProcess, session: ClientSession, shapes: Shapes) -> None:
    request = ask(allow_cancel=False)  # ignored, with a warning
    answering = asyncio.create_task(answer_when_asked(
        portal, str(request["title"]), {"selected_ids": ["pg"], "global_annotation": "fast"}))
    await call(session, shapes, "selected, with warnings", "provide_choice", request)
    await answering

    question = f"Which layout {uuid.uuid4().hex[:8]}?"
    answering = asyncio.create_task(answer_when_asked(portal, question, {"custom_input": "tabs"}))
    await call(session, shapes, "custom input", "request_user_choice",
               {"question": question, "options": [{"title": "Grid", "isRecommended": True}]})
    await answering

    question = f"Delete the branch {uuid.uuid4().hex[:8]}?"
    answering = asyncio.create_task(answer_when_asked(
        portal, question, {"selected_ids": ["1"], "confirmed": True}))
    await call(session, shapes, "confirmed", "hitl_request",
               {"question": question, "options": ["Yes", "No"], "confirm": True})
    await answering

    request = ask()
    cancelling = asyncio.create_task(cancel_when_asked(portal, str(request["title"])))
    await call(session, shapes, "cancelled by the human", "provide_choice", request)
    await cancelling

    await call(session, shapes, "pending", "provide_choice", ask())
    await call(session, shapes, "terminal hand-off", "provide_choice", ask(interface="terminal"))
    await call(session, shapes, "refused", "provide_choice", ask(title="", selection_mode="pick"))
    await call(session, shapes, "refused (compatibility shape)", "hitl_request",
               {"question": "Delete?", "options": ["Yes", "No"], "placeholder": "why"})


async def cancel_when_asked(portal: PortalProcess, title: str) -> None:
    iid = await asked(portal, title)
    await asyncio.to_thread(portal.client().call, "POST", f"/api/interactions/{iid}/cancel",
                            {"global_annotation": "not now"})


async def deadline_endings(portal: PortalProcess, session: ClientSession, shapes: Shapes) -> None:
    """What the deadline does, per `on_timeout`: the deadline is moved close, then polled."""
    client = portal.client()

    async def ending(on_timeout: str) -> None:
        request = ask(on_timeout=on_timeout, timeout_seconds=60, default_selection_ids=["pg"])
        iid = (await asyncio.to_thread(client.create, request))["interaction_id"]
        await asyncio.to_thread(client.call, "PATCH", f"/api/interactions/{iid}",
                                {"expires_at": iso(time.time() + 1.5)})
        content: dict[str, Any] = {}
        for _ in range(5):  # each poll waits up to the portal's window for the deadline
            content = await call(session, shapes, f"deadline: {on_timeout}", "provide_choice",
                                 {"session_id": iid})
            if content["status"] != "pending":
                return
        raise AssertionError(f"{on_timeout}: still pending after the deadline: {content}")

    await asyncio.gather(*(ending(kind) for kind in ("timeout", "submit_defaults", "cancel")))


async def widened_and_listed(portal: PortalProcess, session: ClientSession, shapes: Shapes) -> None:
    """Widened replies (each mode, polled once the widen is in), and `list_pending`'s."""
    client = portal.client()
    for mode in ("block", "continue"):
        iid = (await asyncio.to_thread(client.create, ask()))["interaction_id"]
        await asyncio.to_thread(client.call, "POST", f"/api/interactions/{iid}/widen",
                                {"audience": ["Alice", "Bob"], "mode": mode})
        content = await call(session, shapes, f"widened: {mode}", "provide_choice",
                             {"session_id": iid})
        assert content["status"] == "widened" and content["mode"] == mode
    listed = await call(session, shapes, "list_pending", "list_pending", {})
    assert {entry["status"] for entry in listed["interactions"]} == {"pending", "widened"}
    await call(session, shapes, "list_pending refused", "list_pending", {"status": "all"})


async def test_every_structured_content_matches_the_listed_output_schema(
        portal: PortalProcess) -> None:
    shapes: Shapes = {}
    async with http_session(portal) as session:
        schemas = {tool.name: tool.output_schema for tool in (await session.list_tools()).tools}
        await outcomes_and_handoffs(portal, session, shapes)
        await deadline_endings(portal, session, shapes)
        await widened_and_listed(portal, session, shapes)
    assert all(schemas.values()), "every tool lists an outputSchema"
    statuses = {content.get("status") for _, content in shapes.values()}
    assert statuses == {"submitted", "auto_submitted", "cancelled", "timeout", "pending",
                        "widened", None}
    assert "warnings" in shapes["selected, with warnings"][1]
    problems = {name: found for name, (tool, content) in shapes.items()
                if (found := check(schemas[tool], content))}  # type: ignore[arg-type]
    assert problems == {}


async def test_the_schema_refuses_what_no_tool_returns(portal: PortalProcess) -> None:
    async with http_session(portal) as session:
        schema = (await session.list_tools()).tools[0].output_schema
    assert schema is not None
    for wrong in ({}, {"status": "pending"}, {"errors": "none"},
                  {"interaction_id": "x", "status": "pending", "interface": "web"},
                  {"interaction_id": "x", "session_id": "x", "status": "widened",
                   "action_status": "widened", "mode": "later", "participants": [],
                   "url": "u", "expires_at": "t", "instructions": "i"}):
        assert check(schema, wrong), wrong
