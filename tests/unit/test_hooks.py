"""`choice hook`'s pure parts: reading a payload (either agent, or refused with why), the
question each kind of request becomes, and the decision each answer becomes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from choice.contract.compat import parse_request
from choice.contract.validation import validate_request
from choice.core.i18n import translator
from choice.hooks.decisions import decision_for
from choice.hooks.payload import BadPayload, HookPayload, WaitingNotice, read_payload
from choice.hooks.questions import question_for

SUGGESTION = {"type": "addRules", "rules": [{"toolName": "Bash", "ruleContent": "npm test:*"}],
              "behavior": "allow", "destination": "localSettings"}


def claude(tool: str, tool_input: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"session_id": "s-1", "transcript_path": "/tmp/t.jsonl", "cwd": "/home/me/billing",
            "permission_mode": "default", "hook_event_name": "PermissionRequest",
            "tool_name": tool, "tool_input": tool_input, **extra}


def codex(command: str) -> dict[str, Any]:
    return {"session_id": "s-2", "turn_id": "t-1", "transcript_path": None, "cwd": "/srv/app",
            "model": "gpt-5", "permission_mode": "default", "hook_event_name": "PermissionRequest",
            "tool_name": "Bash", "tool_input": {"command": command, "description": "Why"}}


def payload(data: dict[str, Any], agent: str | None = None) -> HookPayload:
    read = read_payload(json.dumps(data), agent)
    assert isinstance(read, HookPayload)
    return read


def asked(data: dict[str, Any], language: str = "en") -> dict[str, Any]:
    return question_for(payload(data), translator(language), 52)


def test_the_agent_is_detected_and_claude_s_suggestions_kept() -> None:
    mine = payload(claude("Bash", {"command": "ls"}, permission_suggestions=[SUGGESTION, "junk"]))
    assert (mine.agent, mine.kind, mine.suggestions) == ("claude", "shell", [SUGGESTION])
    theirs = payload(codex("ls"))
    assert (theirs.agent, theirs.kind, theirs.suggestions) == ("codex", "shell", [])


@pytest.mark.parametrize(("text", "says"), [
    ("not json", "stdin is not JSON"), ("[1]", "not an object"),
    (json.dumps({"hook_event_name": "PreToolUse"}), "hook_event_name 'PreToolUse'"),
    (json.dumps({"hook_event_name": "Notification", "notification_type": "auth_success"}),
     "notification_type 'auth_success'"),
    (json.dumps(claude("", {})), "tool_name"), (json.dumps(claude("Bash", [])), "tool_input")])
def test_a_payload_it_cannot_answer_is_refused_with_why(text: str, says: str) -> None:
    with pytest.raises(BadPayload, match=says):
        read_payload(text)


def test_a_notification_of_an_agent_waiting_at_its_prompt_is_read_as_a_notice() -> None:
    for kind, waiting_for in (("idle_prompt", "input"), ("permission_prompt", "permission")):
        notice = read_payload(json.dumps({
            "session_id": "s-1", "cwd": "/home/me/billing", "hook_event_name": "Notification",
            "notification_type": kind, "message": "Claude is waiting for your input"}))
        assert notice == WaitingNotice("claude", "Claude is waiting for your input", waiting_for,
                                       "/home/me/billing")


def test_a_command_shows_as_code_with_where_it_runs_and_three_options() -> None:
    request = asked(claude("Bash", {"command": "rm -rf build ```x```", "description": "Clean"},
                           permission_suggestions=[SUGGESTION]))
    assert request["title"] == "Allow Bash: Clean"
    assert "````sh\nrm -rf build ```x```\n````" in request["prompt"]  # no way out of the block
    assert "`/home/me/billing`" in request["prompt"] and "s-1" not in request["prompt"]
    assert (request["context"]["project"], request["context"]["conversation_id"]) == ("billing", "s-1")
    assert [o["id"] for o in request["options"]] == ["allow", "always", "deny"]
    assert "`Bash(npm test:*)`" in request["options"][1]["description"]
    assert request["default_selection_ids"] == [] and request["allow_annotations"] is True
    assert request["context"]["tool"] == "Bash" and len(request["context"]["tool_input_sha256"]) == 64
    validate_request(request)  # what the portal will accept


def test_always_says_what_it_changes_mode_and_directories_too() -> None:
    request = asked(claude("Edit", {"file_path": "/a", "old_string": "", "new_string": "x"},
                           permission_suggestions=[
                               {"type": "setMode", "mode": "acceptEdits", "destination": "session"},
                               {"type": "addDirectories", "directories": ["/srv/data"],
                                "destination": "session"}]))
    assert request["options"][1] == {"id": "always", "label": "Allow for this session", "description": (
        "- Switches the agent to its `acceptEdits` mode for this session.\n"
        "- Lets the agent work in `/srv/data` for this session.")}


def test_always_is_offered_only_with_a_rule_to_save_and_never_to_codex() -> None:
    assert [o["id"] for o in asked(claude("Bash", {"command": "ls"}))["options"]] == ["allow", "deny"]
    assert [o["id"] for o in asked(codex("ls"))["options"]] == ["allow", "deny"]


def test_an_edit_is_a_diff_and_a_write_never_reads_a_file_that_may_hold_secrets(
        tmp_path: Path) -> None:
    edit = asked(claude("Edit", {"file_path": "/home/me/billing/app.py",
                                 "old_string": "x = 1\n", "new_string": "x = 2\n"}))
    assert edit["title"] == "Allow Edit: app.py"
    assert "```diff" in edit["prompt"] and "-x = 1" in edit["prompt"] and "+x = 2" in edit["prompt"]
    secret = tmp_path / ".env"
    secret.write_text("TOKEN=hunter2\n")
    write = asked(claude("Write", {"file_path": str(secret), "content": "TOKEN=new\n"}))
    assert "TOKEN=new" in write["prompt"] and "hunter2" not in write["prompt"]
    new = asked(claude("Write", {"file_path": str(tmp_path / "new.txt"),
                                 "content": "\n".join(f"line {i}" for i in range(400))}))
    assert "line 0\nline 1\n" in new["prompt"] and "line 399\n" in new["prompt"]  # whole
    assert "All 400 lines are below." in new["prompt"]
    for request in (edit, write, new):
        validate_request(request)


def test_the_plan_is_markdown_with_approve_or_keep_planning_in_chinese_too() -> None:
    request = asked(claude("ExitPlanMode", {"plan": "## Steps\n\n1. **Migrate**"}), "zh")
    assert request["prompt"].startswith("## Steps\n\n1. **Migrate**")
    assert request["title"] == "批准这个计划吗？"
    assert [(o["id"], o["label"]) for o in request["options"]] == [("approve", "批准"),
                                                                  ("keep", "继续规划")]
    validate_request(request)


def test_ask_user_question_passes_its_own_questions_and_nothing_else() -> None:
    request = asked(claude("AskUserQuestion", {"questions": [
        {"question": "Which DB?", "header": "DB", "multiSelect": False, "extra": 1,
         "options": [{"label": "PostgreSQL", "description": "A server", "x": 2},
                     {"label": "SQLite"}]}]}))
    assert request["questions"] == [{"question": "Which DB?", "header": "DB", "multiSelect": False,
                                     "options": [{"label": "PostgreSQL", "description": "A server"},
                                                 {"label": "SQLite"}]}]
    assert parse_request(request).request.shape == "ask_user_question"  # the portal reads it so


def test_any_other_tool_shows_its_input_as_json() -> None:
    request = asked(claude("mcp__db__drop", {"table": "users"}))
    assert request["title"] == "Allow mcp__db__drop?"
    assert '```json\n{\n  "table": "users"\n}\n```' in request["prompt"]


def answered(*ids: str, note: str = "", **extra: Any) -> dict[str, Any]:
    return {"status": "completed", "action_status": "selected", "selected_ids": list(ids),
            "global_annotation": note or None, **extra}


def decision(result: dict[str, Any], data: dict[str, Any]) -> Any:
    output = decision_for(payload(data), result)
    return output and output["hookSpecificOutput"]["decision"]


def test_each_answer_becomes_the_agent_s_decision() -> None:
    bash = claude("Bash", {"command": "ls"}, permission_suggestions=[SUGGESTION])
    assert decision(answered("allow", note="fine"), bash) == {"behavior": "allow"}
    assert decision(answered("always"), bash) == {"behavior": "allow",
                                                  "updatedPermissions": [SUGGESTION]}
    assert decision(answered("deny", note="Not on main."), bash) == {
        "behavior": "deny", "message": "Not on main."}
    assert decision(answered("deny"), bash)["message"].startswith("The person denied")
    on_the_option = answered("deny", option_annotations={"deny": "Use staging."}, note="Sorry.")
    assert decision(on_the_option, bash)["message"] == "Use staging.\n\nSorry."
    plan = claude("ExitPlanMode", {"plan": "x"})
    assert decision(answered("approve"), plan) == {"behavior": "allow", "updatedInput": {"plan": "x"}}
    assert decision(answered("keep", note="Add tests first."), plan) == {
        "behavior": "deny", "message": "Add tests first."}
    assert decision(answered("allow"), codex("ls")) == {"behavior": "allow"}


def test_ask_user_question_is_allowed_with_its_answers_by_question_text() -> None:
    data = claude("AskUserQuestion", {"questions": [{"question": "Which DB?", "header": "DB",
                                                     "options": [{"label": "A"}, {"label": "B"}]}]})
    result = {"status": "completed", "action_status": "selected",
              "answers_by_question": {"Which DB?": "A, B, my own"}}
    assert decision(result, data) == {"behavior": "allow", "updatedInput": {
        **data["tool_input"], "answers": {"Which DB?": "A, B, my own"}}}


@pytest.mark.parametrize("result", [
    {"status": "cancelled", "action_status": "cancelled"},
    {"status": "timeout", "action_status": "timeout"},
    answered("something-else"), answered()])
def test_anything_but_a_person_s_pick_falls_through(result: dict[str, Any]) -> None:
    assert decision_for(payload(claude("Bash", {"command": "ls"})), result) is None
