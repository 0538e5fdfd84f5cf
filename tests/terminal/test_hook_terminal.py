"""A coding agent's Bash approval (`choice hook`) answered in `choice answer <id>` in a real
terminal: the command shows as code with where it runs, Deny is picked by its number, the
note typed with it goes to the agent as the deny message. An edit's diff keeps its
indentation, and its Deny shows in a 50x20 window, the diff's head a key away."""

from __future__ import annotations

import re
import uuid

import pytest

from choice.client.portal_client import PortalClient
from tests.hook_process import Hook, claude, output_of, question_of, run_hook
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


OLD = "def total(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s\n"
NEW = "def total(xs):\n    return sum(xs)\n"
DIFF = ["--- a/src/stats.py", "+++ b/src/stats.py", "@@ -1,5 +1,2 @@", " def total(xs):",
        "-    s = 0", "-    for x in xs:", "-        s += x", "-    return s",
        "+    return sum(xs)"]


def edit_question(portal: PortalProcess, client: PortalClient) -> tuple[Hook, str]:
    project = f"repo-{uuid.uuid4().hex[:8]}"
    cwd = f"/home/dev/{project}"
    hook = run_hook(portal, claude("Edit", {"file_path": f"{cwd}/src/stats.py",
                                            "old_string": OLD, "new_string": NEW}, cwd=cwd),
                    CHOICE_HOOK_WAIT_SECONDS="60")
    return hook, str(question_of(client, project, hook)["interaction_id"])


def test_an_edits_diff_keeps_every_space_of_its_lines(
        portal: PortalProcess, client: PortalClient, answer: Answer) -> None:
    hook, iid = edit_question(portal, client)
    try:
        pane = answer(iid, width=80, height=30)
        screen = pane.wait_for("+    return sum(xs)")
        shown = [line[3:].rstrip() for line in screen.splitlines() if line.startswith("   ")]
        assert [line for line in shown if line in DIFF] == DIFF, screen
        pane.press("1", "Enter")
        assert pane.exit_code() == 0
        assert hook.decision() == output_of({"behavior": "allow"})
    finally:
        hook.kill()


def test_an_edits_deny_shows_at_50x20_and_the_diffs_head_is_a_key_away(
        portal: PortalProcess, client: PortalClient, answer: Answer) -> None:
    hook, iid = edit_question(portal, client)
    try:
        pane = answer(iid, width=50, height=20)
        screen = pane.wait_for("1 › ( ) Allow once", "2   ( ) Deny")
        assert "--- a/src/stats.py" not in screen
        assert re.search(r"^─+ ↑ \d+ more ─+$", screen, re.M), screen
        pane.press(*["Up"] * 8)  # on the first option: scrolls to the diff's head
        screen = pane.wait_for("--- a/src/stats.py", "+++ b/src/stats.py", "@@ -1,5 +1,2 @@")
        assert re.search(r"^─+ ↓ \d+ more ─+$", screen, re.M), screen  # the options, below
        pane.press(*["Down"] * 9)  # back to the options, then on to Deny
        pane.wait_for("2 › ( ) Deny")
        pane.press("Enter")
        assert pane.exit_code() == 0
        assert hook.decision()["hookSpecificOutput"]["decision"]["behavior"] == "deny"
    finally:
        hook.kill()
    assert finished(client, iid)["selected_ids"] == ["deny"]
