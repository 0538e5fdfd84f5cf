"""`ask_user_question` through the MCP SDK client on a real portal
(docs/guides/mcp-clients.md#claude-codes-askuserquestion-answered-here): an agent trained on
Claude Code's AskUserQuestion calls it with that input and reads the answer the way that
tool gives it, with our whole result (and `answers` by question id) alongside."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

from tests.mcp.conftest import http_session
from tests.mcp.test_mcp_http import asked, structured
from tests.mcp.test_seed_shapes import final, text_of
from tests.portal_process import PortalProcess


def questions(tag: str) -> dict[str, Any]:
    return {"questions": [
        {"question": f"Which database for {tag}?", "header": "Database",
         "options": [{"label": "PostgreSQL (Recommended)", "description": "Relational"},
                     {"label": "SQLite", "description": "A file"}], "multiSelect": False},
        {"question": "Which checks run on each push?", "header": "Checks",
         "options": [{"label": "Lint", "description": "ruff"},
                     {"label": "Types", "description": "mypy"}], "multiSelect": True},
    ]}


async def test_ask_user_question_answers_in_its_own_shape(portal: PortalProcess) -> None:
    tag = uuid.uuid4().hex[:8]
    async with http_session(portal) as session:
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        schema = tools["ask_user_question"].input_schema
        item = schema["properties"]["questions"]["items"]
        assert {"question", "header", "options", "multiSelect"} <= set(item["properties"])
        call = asyncio.create_task(session.call_tool("ask_user_question", questions(tag)))
        iid = await asked(portal, "Database · Checks")
        client = portal.client()
        detail = await asyncio.to_thread(client.call, "GET",
                                         f"/api/interactions/{iid}/detail")
        first = detail["request"]["questions"][0]
        assert first["options"][0] == {"id": "1", "label": "PostgreSQL", "description":
                                       "Relational", "recommended": True, "rationale": None,
                                       "attachment_ids": []}
        await asyncio.to_thread(client.call, "POST", f"/api/interactions/{iid}/response", {
            "answers": {"q1": {"selected_ids": ["1"]},
                        "q2": {"selected_ids": ["1", "2"], "custom_input": "and tests"}}})
        result = await final(session, "ask_user_question", await asyncio.wait_for(call, 10))
    body = structured(result)
    # each label as the model wrote it: a model matches the answers against its own labels
    assert body["answers_by_question"] == {f"Which database for {tag}?":
                                           "PostgreSQL (Recommended)",
                                           "Which checks run on each push?":
                                           "Lint, Types, and tests"}
    assert body["answers"]["q2"]["selected_labels"] == ["Lint", "Types"]
    assert text_of(result) == (
        f'User has answered your questions: "Which database for {tag}?"="PostgreSQL '
        '(Recommended)", '
        '"Which checks run on each push?"="Lint, Types, and tests". You can now continue '
        "with the user's answers in mind.")


async def test_a_cancelled_ask_user_question_reads_as_no_answer(portal: PortalProcess) -> None:
    async with http_session(portal) as session:
        call = asyncio.create_task(session.call_tool("ask_user_question", questions("x")))
        iid = await asked(portal, "Database · Checks")
        await asyncio.to_thread(portal.client().call, "POST",
                                f"/api/interactions/{iid}/cancel", {})
        result = await final(session, "ask_user_question", await asyncio.wait_for(call, 10))
    body = structured(result)
    assert body["action_status"] == "cancelled" and body["answers_by_question"] is None
    assert text_of(result).startswith("The human cancelled")
