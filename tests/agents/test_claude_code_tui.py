"""Claude Code's interactive UI in tmux, where AskUserQuestion and ExitPlanMode ask (`claude
-p` never shows them), with the portal's hook from `choice hook-config claude`: the owner's
answer on the portal is the tool result the model gets."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from choice.client.errors import PortalRefused
from choice.client.portal_client import PortalClient
from tests.agents.claude_code import ClaudeCode
from tests.agents.fake_model import AnthropicModel, Say, ToolUse
from tests.agents.portal_questions import question_for
from tests.terminal.tmux import need_tmux

pytestmark = [pytest.mark.agents, pytest.mark.slow, pytest.mark.tmux]

Start = Callable[..., ClaudeCode]
ASK = {"questions": [{"question": "Which database should the sync service use?",
                      "header": "Database", "multiSelect": False,
                      "options": [{"label": "PostgreSQL (Recommended)",
                                   "description": "A server, robust."},
                                  {"label": "SQLite", "description": "One file."}]}]}
PLAN = "## Plan\n\n1. Add the `hook` command\n2. Write its tests\n"
PROCEED = "Do you want to proceed?"
"""Claude Code's own permission dialog."""
FIND_PLAN_TOOL = ToolUse("ToolSearch", {"query": "select:ExitPlanMode", "max_results": 1})


@pytest.fixture
def claude(claude: Start) -> Start:
    need_tmux()
    return claude


def open_tui(agent: ClaudeCode, mode: str) -> Callable[[], bool]:
    """Start the TUI with the first prompt; `mode` is `default` or `plan` (the default auto
    mode never calls the hook)."""
    agent.tui(mode=mode, extra=("Do the task.",))
    return lambda: True  # the TUI stays open; a missing question times out


def test_ask_user_question_answered_on_the_portal_gives_the_model_the_label(
        claude: Start, client: PortalClient) -> None:
    with AnthropicModel([ToolUse("AskUserQuestion", ASK), Say("SQLite it is.")]) as model:
        agent = claude(model)
        item = question_for(client, open_tui(agent, "default"), project=agent.project)
        client.respond(item["interaction_id"], {"answers": {"q1": {"selected_ids": ["2"]}}})
        result = model.result_of(0)
    assert not result.is_error, result.text
    assert "Which database should the sync service use?" in result.text
    assert "SQLite" in result.text and "PostgreSQL" not in result.text


def test_approving_the_plan_on_the_portal_gives_the_model_the_accepted_plan(
        claude: Start, client: PortalClient) -> None:
    with AnthropicModel([FIND_PLAN_TOOL, ToolUse("ExitPlanMode", {"plan": PLAN}),
                         Say("Starting.")]) as model:
        agent = claude(model)
        item = question_for(client, open_tui(agent, "plan"), project=agent.project)
        assert item["title"] == "Approve the plan?"
        client.respond(item["interaction_id"], {"selected_ids": ["approve"]})
        result = model.result_of(1, timeout=30)
    assert not result.is_error, result.text
    assert "approved" in result.text.lower()


def test_keep_planning_on_the_portal_sends_the_note_to_the_model(
        claude: Start, client: PortalClient) -> None:
    with AnthropicModel([FIND_PLAN_TOOL, ToolUse("ExitPlanMode", {"plan": PLAN}),
                         Say("Revising.")]) as model:
        agent = claude(model)
        item = question_for(client, open_tui(agent, "plan"), project=agent.project)
        client.respond(item["interaction_id"], {
            "selected_ids": ["keep"], "global_annotation": "Write the tests first."})
        result = model.result_of(1)
    assert result.is_error
    assert "Write the tests first." in result.text


def test_an_answer_in_claude_code_s_own_dialog_ends_the_portal_question(
        claude: Start, client: PortalClient) -> None:
    """Claude Code shows its own dialog while the hook waits: allowed there, the command
    runs, and the portal question ends at once, saying why, and takes no answer after."""
    touch = ToolUse("Bash", {"command": "touch marker-file", "description": "Make the marker"})
    with AnthropicModel([touch, Say("Done.")]) as model:
        agent = claude(model)
        item = question_for(client, open_tui(agent, "default"), project=agent.project)
        assert agent.pane is not None
        agent.pane.wait_for(PROCEED, timeout=60)
        deadline = time.monotonic() + 60
        while True:  # its first choice, Yes; an Enter that comes too soon is ignored
            agent.pane.press("Enter")
            try:
                agent.pane.wait_gone(PROCEED, timeout=1)
                break
            except AssertionError:
                if time.monotonic() > deadline:
                    raise
        result = model.result_of(0)
        assert not result.is_error, result.text
        ended = client.poll(item["interaction_id"], 20)
    assert (agent.cwd / "marker-file").exists()
    assert ended["status"] == "withdrawn", ended
    assert "own dialog" in ended["withdrawn_reason"]
    with pytest.raises(PortalRefused) as refused:
        client.respond(item["interaction_id"], {"selected_ids": ["deny"]})
    assert refused.value.status == 409
