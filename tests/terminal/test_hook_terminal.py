"""A coding agent's Bash approval (`choice hook`) answered in `choice answer <id>` in a real
terminal: the command shows as code with where it runs, Deny is picked by its number, the
note typed with it goes to the agent as the deny message."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import uuid

import pytest

from choice.client.portal_client import PortalClient
from tests.portal_process import PortalProcess
from tests.terminal.conftest import Answer, events, finished

pytestmark = pytest.mark.slow

COMMAND = "git push --force-with-lease origin feature/hooks"
RULE = {"type": "addRules", "rules": [{"toolName": "Bash", "ruleContent": "git push:*"}],
        "behavior": "allow", "destination": "localSettings"}


def start_hook(portal: PortalProcess, project: str) -> subprocess.Popen[str]:
    """`choice hook` with Claude Code's payload for COMMAND, run in /home/dev/<project>."""
    payload = {"session_id": "5f3c2a10-8d1e-4c7b-9a2f-0e6d4b1c9a77",
               "transcript_path": f"/home/dev/.claude/projects/{project}/session.jsonl",
               "cwd": f"/home/dev/{project}", "permission_mode": "default",
               "hook_event_name": "PermissionRequest", "tool_name": "Bash",
               "tool_input": {"command": COMMAND, "description": "Push the branch"},
               "permission_suggestions": [RULE]}
    process = subprocess.Popen([sys.executable, "-m", "choice.cli", "hook"],
                               env={**portal.env, "CHOICE_HOOK_WAIT_SECONDS": "60"}, text=True,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    assert process.stdin is not None
    process.stdin.write(json.dumps(payload))
    process.stdin.close()
    process.stdin = None  # written and closed: communicate() only reads now
    return process


def question_of(client: PortalClient, project: str, hook: subprocess.Popen[str]) -> str:
    """The id of the hook's question, once the portal lists it (polled, bounded)."""
    deadline = time.monotonic() + 20
    while True:
        for item in client.list("active", 100)["interactions"]:
            if item.get("project") == project:
                return str(item["interaction_id"])
        if hook.poll() is not None:
            raise AssertionError(f"the hook exited before asking: {hook.communicate()}")
        if time.monotonic() > deadline:
            hook.kill()
            raise AssertionError("the hook's question never showed up in the list")
        time.sleep(0.02)  # a polling interval, not a synchronization


def test_deny_by_its_number_with_a_note_in_choice_answer_is_the_hooks_deny(
        portal: PortalProcess, client: PortalClient, answer: Answer) -> None:
    project = f"repo-{uuid.uuid4().hex[:8]}"
    hook = start_hook(portal, project)
    try:
        iid = question_of(client, project, hook)
        pane = answer(iid)
        pane.wait_for("Allow Bash: Push the branch", COMMAND, f"/home/dev/{project}",
                      "1 › ( ) Allow once", "2   ( ) Always allow this", "3   ( ) Deny")
        assert "```" not in pane.screen()  # a code block, not its Markdown fence
        pane.press("3")
        pane.wait_for("3 › (•) Deny")
        pane.press("g")
        pane.wait_for("Note for the agent: ▏")
        pane.type("Not on a Friday; push on Monday.")
        pane.press("Enter")
        pane.wait_for("Note for the agent: Not on a Friday; push on Monday.")
        pane.press("Enter")
        assert pane.exit_code() == 0
        stdout, stderr = hook.communicate(timeout=60)
    finally:
        if hook.poll() is None:
            hook.kill()
            hook.communicate(timeout=10)
    assert (hook.returncode, stderr) == (0, "")
    assert json.loads(stdout) == {"hookSpecificOutput": {
        "hookEventName": "PermissionRequest",
        "decision": {"behavior": "deny", "message": "Not on a Friday; push on Monday."}}}
    result = finished(client, iid)
    assert (result["selected_ids"], result["interface"]) == (["deny"], "terminal")
    assert ("answered", "human:terminal") in events(client, iid)
