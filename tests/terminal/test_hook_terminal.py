"""A coding agent's Bash approval (`choice hook`) answered in `choice answer <id>` in a real
terminal: the command shows as code with where it runs, Deny is picked by its number, the
note typed with it goes to the agent as the deny message."""

from __future__ import annotations

import uuid

import pytest

from choice.client.portal_client import PortalClient
from tests.hook_process import claude, output_of, question_of, run_hook
from tests.portal_process import PortalProcess
from tests.terminal.conftest import Answer, events, finished

pytestmark = pytest.mark.slow

COMMAND = "git push --force-with-lease origin feature/hooks"
RULE = {"type": "addRules", "rules": [{"toolName": "Bash", "ruleContent": "git push:*"}],
        "behavior": "allow", "destination": "localSettings"}


def test_deny_by_its_number_with_a_note_in_choice_answer_is_the_hooks_deny(
        portal: PortalProcess, client: PortalClient, answer: Answer) -> None:
    project = f"repo-{uuid.uuid4().hex[:8]}"
    tool_input = {"command": COMMAND, "description": "Push the branch"}
    hook = run_hook(portal, claude("Bash", tool_input, cwd=f"/home/dev/{project}",
                                   suggestions=[RULE]), CHOICE_HOOK_WAIT_SECONDS="60")
    try:
        iid = str(question_of(client, project, hook)["interaction_id"])
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
        decision = hook.decision()
    finally:
        hook.kill()
    assert decision == output_of({"behavior": "deny",
                                  "message": "Not on a Friday; push on Monday."})
    result = finished(client, iid)
    assert (result["selected_ids"], result["interface"]) == (["deny"], "terminal")
    assert ("answered", "human:terminal") in events(client, iid)
