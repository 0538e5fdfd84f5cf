"""Claude Code headless (`claude -p`, `--permission-mode default`) against a fake model,
with the portal's hook installed by `choice hook-config claude`: each Bash, Edit or Write
the model asks for becomes a portal question, and what the owner answers there is what the
model gets back and what happens on disk."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from choice.client.portal_client import PortalClient
from tests.agents.claude_code import ClaudeCode
from tests.agents.fake_model import AnthropicModel, Say, ToolUse
from tests.agents.portal_questions import question_for, questions_of

pytestmark = [pytest.mark.agents, pytest.mark.slow]

TOUCH = ToolUse("Bash", {"command": "touch marker-file", "description": "Make the marker"})


Start = Callable[..., ClaudeCode]


def test_bash_allowed_on_the_portal_runs_and_the_model_gets_its_output(
        claude: Start, client: PortalClient) -> None:
    with AnthropicModel([TOUCH, Say("Done.")]) as model:
        agent = claude(model).headless()
        item = question_for(client, agent.running, project=agent.project)
        assert item["title"] == "Allow Bash: Make the marker"
        client.respond(item["interaction_id"], {"selected_ids": ["allow"]})
        result = model.result_of(0)
        code, stdout, _ = agent.finish()
    assert not result.is_error, result.text
    assert (agent.cwd / "marker-file").exists()
    assert code == 0 and "Done." in stdout


def test_bash_denied_with_a_note_does_not_run_and_the_model_reads_the_note(
        claude: Start, client: PortalClient) -> None:
    with AnthropicModel([TOUCH, Say("Understood.")]) as model:
        agent = claude(model).headless()
        item = question_for(client, agent.running, project=agent.project)
        client.respond(item["interaction_id"], {
            "selected_ids": ["deny"], "global_annotation": "Not here; use the build folder."})
        result = model.result_of(0)
        agent.finish()
    assert result.is_error
    assert "Not here; use the build folder." in result.text
    assert not (agent.cwd / "marker-file").exists()


def test_always_allow_saves_the_rule_and_the_same_command_is_not_asked_again(
        claude: Start, client: PortalClient) -> None:
    """A command Claude Code offers a saved rule for (a bare `touch` in the working folder
    gets only session-wide suggestions, which save nothing)."""
    touch = ToolUse("Bash", {"command": "sh -c 'touch marker-file'",
                             "description": "Make the marker"})
    with AnthropicModel([touch, touch, Say("Done twice.")]) as model:
        agent = claude(model).headless()
        item = question_for(client, agent.running, project=agent.project)
        options = client.detail(item["interaction_id"])["request"]["options"]
        assert "always" in [option["id"] for option in options]
        client.respond(item["interaction_id"], {"selected_ids": ["always"]})
        first, second = model.result_of(0), model.result_of(1)
        code, _, _ = agent.finish()
    assert not first.is_error and not second.is_error, (first, second)
    assert code == 0
    assert (agent.cwd / "marker-file").exists()
    saved = json.loads((agent.cwd / ".claude" / "settings.local.json").read_text())
    assert "Bash(sh -c 'touch marker-file')" in saved["permissions"]["allow"]
    assert [q["interaction_id"] for q in questions_of(client, agent.project)] == [
        item["interaction_id"]]  # the second touch asked nobody


def test_an_edit_allowed_on_the_portal_changes_the_file(claude: Start, client: PortalClient) -> None:
    with AnthropicModel([]) as model:
        agent = claude(model)
        target = agent.cwd / "answer.py"
        target.write_text("def answer():\n    return 41\n")
        model.turns[:] = [ToolUse("Read", {"file_path": str(target)}),
                          ToolUse("Edit", {"file_path": str(target), "old_string": "return 41",
                                           "new_string": "return 42"}),
                          Say("Edited.")]
        agent.headless()
        item = question_for(client, agent.running, project=agent.project)
        assert "answer.py" in item["title"]
        client.respond(item["interaction_id"], {"selected_ids": ["allow"]})
        result = model.result_of(1)
        agent.finish()
    assert not result.is_error, result.text
    assert target.read_text() == "def answer():\n    return 42\n"


def test_a_write_allowed_on_the_portal_creates_the_file(claude: Start, client: PortalClient) -> None:
    with AnthropicModel([]) as model:
        agent = claude(model)
        target = agent.cwd / "notes.md"
        model.turns[:] = [ToolUse("Write", {"file_path": str(target), "content": "# Notes\n"}),
                          Say("Written.")]
        agent.headless()
        item = question_for(client, agent.running, project=agent.project)
        client.respond(item["interaction_id"], {"selected_ids": ["allow"]})
        result = model.result_of(0)
        agent.finish()
    assert not result.is_error, result.text
    assert target.read_text() == "# Notes\n"


def test_a_write_denied_on_the_portal_leaves_no_file(claude: Start, client: PortalClient) -> None:
    with AnthropicModel([]) as model:
        agent = claude(model)
        target = agent.cwd / "notes.md"
        model.turns[:] = [ToolUse("Write", {"file_path": str(target), "content": "# Notes\n"}),
                          Say("Not written.")]
        agent.headless()
        item = question_for(client, agent.running, project=agent.project)
        client.respond(item["interaction_id"], {"selected_ids": ["deny"],
                                                "global_annotation": "Put it in the README."})
        result = model.result_of(0)
        agent.finish()
    assert result.is_error and "Put it in the README." in result.text
    assert not target.exists()


def test_nobody_answering_falls_through_to_the_agent_and_withdraws_the_question(
        claude: Start, client: PortalClient) -> None:
    """Headless, Claude Code's own fall-through is a denial. The wait is set where the
    person sets it, for `choice hook-config`: the settings it prints must carry it."""
    with AnthropicModel([TOUCH, Say("Nobody answered.")]) as model:
        agent = claude(model, hook_env={"CHOICE_HOOK_WAIT_SECONDS": "5"}).headless()
        item = question_for(client, agent.running, project=agent.project)
        result = model.result_of(0)
        agent.finish()
    assert result.is_error
    assert not (agent.cwd / "marker-file").exists()
    ended = client.poll(item["interaction_id"], 0)  # the hook withdrew it before it ended
    assert ended["status"] == "withdrawn", ended
    assert ended["withdrawn_reason"].startswith("nobody answered here in time")
