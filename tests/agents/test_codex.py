"""Codex's TUI (in tmux) against a fake Responses model, with the portal's hook installed by
`choice hook-config codex` and trusted in Codex's own review dialog: a command the model
wants to run outside the sandbox (`sandbox_permissions: "require_escalated"`) becomes a
portal question, and the owner's answer is what the model gets and what happens on disk.
Its MCP client reaches the portal's tools too."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from choice.client.portal_client import PortalClient
from tests.agents.clis import AgentClis
from tests.agents.codex import Codex
from tests.agents.fake_model import ResponsesModel, Say, Then, ToolUse
from tests.agents.portal_questions import question_for
from tests.portal_process import PortalProcess
from tests.terminal.tmux import need_tmux

pytestmark = [pytest.mark.agents, pytest.mark.slow, pytest.mark.tmux]

TOUCH = ToolUse("exec_command", {"cmd": "touch marker-file",
                                 "sandbox_permissions": "require_escalated",
                                 "justification": "Make the marker"})
Start = Callable[..., Codex]


@pytest.fixture
def codex(clis: AgentClis, portal: PortalProcess, tmp_path: Path) -> Iterator[Start]:
    need_tmux()
    agents: list[Codex] = []

    def start(model: ResponsesModel, **options: Any) -> Codex:
        agent = Codex(clis, tmp_path / f"x{len(agents)}", model.base_url, portal=portal,
                      **options)
        agents.append(agent)
        return agent
    yield start
    for agent in agents:
        agent.stop()


def always(agent: Codex) -> Callable[[], bool]:
    return lambda: True  # the TUI stays open; a missing question times out with the screen


def test_a_command_allowed_on_the_portal_runs(codex: Start, client: PortalClient) -> None:
    with ResponsesModel([TOUCH, Say("Done.")]) as model:
        agent = codex(model)
        pane = agent.tui()
        item = question_for(client, always(agent), project=agent.project)
        assert item["agent"] == "Codex"
        client.respond(item["interaction_id"], {"selected_ids": ["allow"]})
        result = model.result_of(0)
        pane.wait_for("Done.")
    assert (agent.cwd / "marker-file").exists()
    assert "Process exited with code 0" in result.text, result.text


def test_a_command_denied_with_a_note_does_not_run_and_the_model_reads_the_note(
        codex: Start, client: PortalClient) -> None:
    with ResponsesModel([TOUCH, Say("Understood.")]) as model:
        agent = codex(model)
        agent.tui()
        item = question_for(client, always(agent), project=agent.project)
        client.respond(item["interaction_id"], {"selected_ids": ["deny"],
                                                "global_annotation": "Not on this host."})
        result = model.result_of(0)
    assert "Not on this host." in result.text
    assert not (agent.cwd / "marker-file").exists()


def structured(text: str) -> dict[str, Any]:
    """The JSON object in an MCP tool's result as Codex passes it to the model (after a
    few lines of its own, such as the wall time)."""
    found = json.loads(text[text.index("{"):])
    assert isinstance(found, dict)
    return found


def again_with_its_session(result: str) -> ToolUse:
    return ToolUse("provide_choice", {"session_id": structured(result)["session_id"]},
                   namespace="mcp__choice")


def test_an_mcp_question_answered_after_the_first_wait_reaches_the_model(
        codex: Start, client: PortalClient) -> None:
    title = f"Pick a store {uuid.uuid4().hex[:8]}"
    ask = {"title": title, "prompt": "The service needs a store; both fit.",
           "options": [{"id": "pg", "label": "PostgreSQL"}, {"id": "lite", "label": "SQLite"}]}
    with ResponsesModel([ToolUse("provide_choice", ask, namespace="mcp__choice"),
                         Then(again_with_its_session), Say("Using it.")]) as model:
        agent = codex(model, hooks=True, mcp=True)  # both set up, as the guides say
        agent.tui()
        item = question_for(client, always(agent), title=title)
        assert item["agent"] == "Codex"  # named by its MCP clientInfo, not "mcp"
        first = structured(model.result_of(0).text)  # the first wait ended unanswered
        assert first["status"] == "pending", first
        client.respond(item["interaction_id"], {"selected_ids": ["lite"]})
        answer = structured(model.result_of(1).text)
    assert (answer["status"], answer["selected_labels"]) == ("submitted", ["SQLite"]), answer
    # the call was the only question: neither Codex nor the hook asked to allow it first
    assert [q["title"] for q in client.list("all", 200)["interactions"]
            if q.get("project") == agent.project or q["title"].startswith("Allow mcp")] == []
