"""Claude Code headless with the portal's MCP server (`choice mcp`, from `choice mcp-config
json`): a `provide_choice` question answered only after the client's first wait still
reaches the model, and with the hook installed too the portal's own tool asks nothing more
than the question itself."""

from __future__ import annotations

import functools
import json
import re
import uuid
from collections.abc import Callable

import pytest

from choice.client.portal_client import PortalClient
from tests.agents.claude_code import ClaudeCode
from tests.agents.fake_model import AnthropicModel, Say, Then, ToolUse
from tests.agents.portal_questions import question_for, questions_of

pytestmark = [pytest.mark.agents, pytest.mark.slow]

TOOL = "mcp__choice__provide_choice"
Start = Callable[..., ClaudeCode]


def ask(title: str) -> dict[str, object]:
    return {"title": title, "prompt": "The service needs a store; both fit.",
            "options": [{"id": "pg", "label": "PostgreSQL"}, {"id": "lite", "label": "SQLite"}]}


def again_with_its_session(result: str) -> ToolUse | Say:
    found = re.search(r'"session_id"\s*:\s*"([^"]+)"', result)
    if found is None:
        return Say(f"No session_id came back: {result[:200]}")
    return ToolUse(TOOL, {"session_id": found.group(1)})


@pytest.fixture
def claude(claude: Start) -> Start:
    """Claude Code with the portal's MCP server set up."""
    return functools.partial(claude, mcp=True)


def test_an_answer_given_after_the_first_wait_still_reaches_the_model(
        claude: Start, client: PortalClient) -> None:
    title = f"Pick a store {uuid.uuid4().hex[:8]}"
    with AnthropicModel([ToolUse(TOOL, ask(title)), Then(again_with_its_session),
                         Say("Using it.")]) as model:
        agent = claude(model, hooks=False).headless(
            extra=("--allowedTools", TOOL))
        item = question_for(client, agent.running, title=title)
        first = model.result_of(0)  # the first wait ended with nobody answering
        assert json.loads(first.text)["status"] == "pending", first.text
        client.respond(item["interaction_id"], {"selected_ids": ["lite"]})
        second = model.result_of(1)
        code, _, _ = agent.finish()
    answer = json.loads(second.text)
    assert (answer["status"], answer["selected_labels"]) == ("submitted", ["SQLite"]), second.text
    assert code == 0


def test_with_the_hook_installed_too_the_tool_asks_only_its_own_question(
        claude: Start, client: PortalClient) -> None:
    title = f"Pick a store {uuid.uuid4().hex[:8]}"
    with AnthropicModel([ToolUse(TOOL, ask(title)), Then(again_with_its_session),
                         Say("Using it.")]) as model:
        agent = claude(model, hooks=True).headless()
        item = question_for(client, agent.running, title=title)
        try:
            client.respond(item["interaction_id"], {"selected_ids": ["pg"]})
            result = model.wait_for(lambda: next(
                (r for r in (model.find_result(model.call_id(i)) for i in (0, 1))
                 if r is not None and '"submitted"' in r.text), None), "the answer")
        finally:
            agent.stop()
    assert json.loads(result.text)["selected_ids"] == ["pg"]
    # no "Allow mcp__choice__provide_choice?" before it: the hook asked nothing of this project
    assert questions_of(client, agent.project) == []
    assert not [q for q in client.list("all", 200)["interactions"]
                if q["title"].startswith(f"Allow {TOOL}")]
