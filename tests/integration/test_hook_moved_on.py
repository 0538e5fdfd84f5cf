"""`choice hook` when the agent went on without the portal: the person answered in the
agent's own dialog (shown at the same time as the hook waits), and the agent's later events
(`PostToolUse`, `Stop`, `UserPromptSubmit`, `SessionEnd`) run the same command. The
question it makes moot ends at once, withdrawn with the true reason; the waiting hook ends
and decides nothing; a portal answer that comes later gets 409. And the portal's own MCP
tools, which are questions already, are allowed without asking one."""

from __future__ import annotations

import json
from typing import Any

import pytest

from choice.client.errors import PortalRefused
from choice.client.portal_client import PortalClient
from tests.hook_process import Hook, claude, codex, output_of, project, question_of, run_hook
from tests.portal_process import PortalProcess

pytestmark = pytest.mark.slow

COMMAND = {"command": "rm -rf dist && npm run build", "description": "Rebuild"}


def event(name: str, cwd: str, **fields: Any) -> dict[str, Any]:
    """A later event of the same Claude Code session (`claude()`'s session id)."""
    payload = claude("Bash", COMMAND, cwd=cwd)
    for key in ("tool_name", "tool_input", "permission_mode"):
        payload.pop(key)
    return {**payload, "hook_event_name": name, **fields}


def told(portal: PortalProcess, payload: dict[str, Any], *args: str) -> None:
    """Run the hook for a notice: it prints nothing and exits 0, whatever it did."""
    assert run_hook(portal, payload, *args).finish() == (0, "", "")


def ended_without_deciding(hook: Hook) -> str:
    code, stdout, stderr = hook.finish()
    assert (code, stdout) == (0, "")
    return stderr


@pytest.mark.parametrize(("name", "fields", "reason"), [
    ("PostToolUse", {"tool_name": "Bash", "tool_input": COMMAND,
                     "tool_response": {"stdout": "built", "stderr": "", "interrupted": False}},
     "answered in the agent's own dialog: the tool has run"),
    ("Stop", {"stop_hook_active": False},
     "answered in the agent's own dialog: the agent has moved on"),
    ("UserPromptSubmit", {"prompt": "no, build it with make instead"},
     "answered in the agent's own dialog: the agent has moved on"),
    ("SessionEnd", {"reason": "prompt_input_exit"}, "the agent's session has ended"),
], ids=["tool-ran", "turn-ended", "new-prompt", "session-ended"])
def test_an_answer_in_the_agent_s_own_dialog_ends_the_portal_question(
        portal: PortalProcess, client: PortalClient, name: str, fields: dict[str, Any],
        reason: str) -> None:
    cwd = f"/home/dev/{project()}"
    hook = run_hook(portal, claude("Bash", COMMAND, cwd=cwd))
    iid = str(question_of(client, cwd.rsplit("/", 1)[1], hook)["interaction_id"])
    told(portal, event(name, cwd, **fields))
    assert f"the portal's question was withdrawn ({reason})" in ended_without_deciding(hook)
    result = client.poll(iid, 0)
    assert (result["status"], result["withdrawn_reason"]) == ("withdrawn", reason)
    with pytest.raises(PortalRefused) as late:  # a Deny now would be for a command that ran
        client.respond(iid, {"selected_ids": ["deny"], "global_annotation": "stop"})
    assert late.value.status == 409
    assert client.poll(iid, 0)["selected_ids"] == []


def test_another_call_running_leaves_the_question_open(portal: PortalProcess,
                                                       client: PortalClient) -> None:
    """Parallel calls of one session: only the call that ran is moot."""
    cwd = f"/home/dev/{project()}"
    hook = run_hook(portal, claude("Bash", COMMAND, cwd=cwd))
    iid = str(question_of(client, cwd.rsplit("/", 1)[1], hook)["interaction_id"])
    told(portal, event("PostToolUse", cwd, tool_name="Bash", tool_input={"command": "ls"},
                       tool_response={}))
    told(portal, {**event("Stop", cwd), "session_id": "another-session"})
    assert client.poll(iid, 0)["status"] == "pending"
    client.respond(iid, {"selected_ids": ["allow"]})
    assert hook.decision() == output_of({"behavior": "allow"})


def test_the_call_is_matched_by_its_id_when_the_agent_sends_one(portal: PortalProcess,
                                                                client: PortalClient) -> None:
    cwd = f"/home/dev/{project()}"
    hook = run_hook(portal, {**claude("Bash", COMMAND, cwd=cwd), "tool_use_id": "toolu_01A"})
    iid = str(question_of(client, cwd.rsplit("/", 1)[1], hook)["interaction_id"])
    # Claude Code may add fields to the input it ran: the id still finds the question
    told(portal, event("PostToolUse", cwd, tool_name="Bash", tool_use_id="toolu_01A",
                       tool_input={**COMMAND, "timeout": 120000}, tool_response={}))
    ended_without_deciding(hook)
    assert client.poll(iid, 0)["status"] == "withdrawn"


def test_a_codex_call_that_ran_ends_its_question(portal: PortalProcess,
                                                 client: PortalClient) -> None:
    cwd = f"/srv/{project()}"
    payload = codex("make deploy", "Deploy", cwd=cwd)
    hook = run_hook(portal, payload, "codex")
    iid = str(question_of(client, cwd.rsplit("/", 1)[1], hook)["interaction_id"])
    told(portal, {**payload, "hook_event_name": "PostToolUse", "tool_response": "done"}, "codex")
    ended_without_deciding(hook)
    assert client.poll(iid, 0)["withdrawn_reason"] == \
        "answered in the agent's own dialog: the tool has run"


def test_a_notice_with_no_portal_running_is_quiet_and_starts_none(tmp_path: Any) -> None:
    from tests.portal_process import free_port

    port = free_port()
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "CHOICE_PORT": str(port),
           "CHOICE_DATA_DIR": str(tmp_path / "data")}
    notice = Hook(env, '{"session_id": "s", "hook_event_name": "Stop", "cwd": "/x"}')
    assert notice.finish() == (0, "", "")
    assert not PortalClient(f"http://127.0.0.1:{port}", None).is_portal()


@pytest.mark.parametrize("tool", ["mcp__choice__provide_choice", "mcp__choice-http__list_pending"])
def test_the_portal_s_own_mcp_tools_are_allowed_without_a_question(
        portal: PortalProcess, client: PortalClient, tool: str) -> None:
    before = {item["interaction_id"] for item in client.list("all", 200)["interactions"]}
    hook = run_hook(portal, claude(tool, {"title": "Pick", "prompt": "Which?"},
                                   cwd=f"/home/dev/{project()}"))
    assert hook.decision() == output_of({"behavior": "allow"})
    assert {item["interaction_id"] for item in client.list("all", 200)["interactions"]} == before


def test_another_server_s_tool_of_the_same_name_is_still_asked(portal: PortalProcess,
                                                               client: PortalClient) -> None:
    name = project()
    hook = run_hook(portal, claude("mcp__choicex__provide_choice", {"title": "x"},
                                   cwd=f"/home/dev/{name}"))
    iid = str(question_of(client, name, hook)["interaction_id"])
    client.respond(iid, {"selected_ids": ["deny"]})
    assert hook.decision()["hookSpecificOutput"]["decision"]["behavior"] == "deny"


def test_a_notice_that_arrives_late_leaves_the_next_question_alone(
        portal: PortalProcess, client: PortalClient) -> None:
    """Claude Code runs these hooks in the background: the hook of a `UserPromptSubmit` may
    reach the portal after the model's first call already asked. Only what was asked
    before the event is moot."""
    import subprocess
    import sys

    from tests.hook_process import hook_env

    cwd = f"/home/dev/{project()}"
    late = subprocess.Popen([sys.executable, "-m", "choice.cli", "hook"], env=hook_env(portal),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    hook = run_hook(portal, claude("Bash", COMMAND, cwd=cwd))  # asked after the event
    iid = str(question_of(client, cwd.rsplit("/", 1)[1], hook)["interaction_id"])
    notice = json.dumps(event("UserPromptSubmit", cwd, prompt="build it"))
    assert late.communicate(notice, timeout=60) == ("", "")  # only now does it reach the portal
    assert client.poll(iid, 0)["status"] == "pending"
    client.respond(iid, {"selected_ids": ["allow"]})
    assert hook.decision() == output_of({"behavior": "allow"})
