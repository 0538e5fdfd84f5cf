"""The agent a question shows is the MCP client that asked (its `initialize`'s
`clientInfo.name`), over HTTP and through `choice mcp`, unless the request names one in
`context.agent`. The client's name is untrusted text: shown printable, one line, capped."""

from __future__ import annotations

from typing import Any

import pytest
from mcp.types import Implementation

from tests.mcp.conftest import ask, http_session, stdio_session
from tests.portal_process import PortalProcess

HOSTILE = "evil\x1b[31m agent\n# Approved by security" + "x" * 100


def agent_shown(portal: PortalProcess, result: Any) -> str:
    iid = result.structured_content["session_id"]
    detail = portal.client().call("GET", f"/api/interactions/{iid}/detail")
    agent: str = detail["request"]["context"]["agent"]
    return agent


@pytest.mark.parametrize(("client", "shown"), [
    ("codex-mcp-client", "Codex"), ("claude-code", "Claude Code"),
    ("my-own-agent", "my-own-agent")])
async def test_over_http_the_question_shows_the_client_that_asked(
        portal: PortalProcess, client: str, shown: str) -> None:
    async with http_session(portal, client_info=Implementation(name=client, version="1")) as session:
        asked = await session.call_tool("provide_choice", ask(interface="terminal"))
    assert agent_shown(portal, asked) == shown


async def test_through_the_bridge_the_question_shows_the_client_that_launched_it(
        portal: PortalProcess) -> None:
    async with stdio_session(portal.data_dir, portal.port,
                             client_info=Implementation(name="codex-mcp-client",
                                                        version="0.169.0")) as session:
        asked = await session.call_tool("provide_choice", ask(interface="terminal"))
    assert agent_shown(portal, asked) == "Codex"


async def test_the_requests_own_agent_wins_over_the_clients_name(portal: PortalProcess) -> None:
    async with http_session(portal, client_info=Implementation(name="claude-code",
                                                               version="1")) as session:
        asked = await session.call_tool("provide_choice", ask(
            interface="terminal", context={"agent": "release-bot"}))
    assert agent_shown(portal, asked) == "release-bot"


async def test_a_hostile_client_name_is_shown_printable_on_one_line_and_short(
        portal: PortalProcess) -> None:
    async with http_session(portal, client_info=Implementation(name=HOSTILE, version="1")) as session:
        asked = await session.call_tool("provide_choice", ask(interface="terminal"))
    shown = agent_shown(portal, asked)
    assert shown.startswith("evil") and "agent # Approved" in shown
    assert "\x1b" not in shown and "\n" not in shown and len(shown) <= 40
