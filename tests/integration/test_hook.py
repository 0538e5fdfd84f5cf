"""`choice hook` as Claude Code and Codex run it: a recorded `PermissionRequest` payload on
stdin, a real portal, a person answering through the API, and the decision the hook prints.

The payloads follow the documented shapes (the real agents need a model service): Claude
Code's carry `session_id`, `transcript_path`, `cwd`, `permission_mode`, `hook_event_name`,
`tool_name`, `tool_input` and `permission_suggestions`; Codex's add `model` and `turn_id`.
Each test gives its payload a `cwd` of its own, so the question it waits for is the one
its hook asked (the list names the project: the working directory's name)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from choice.client.portal_client import PortalClient
from tests.hook_process import (
    Hook,
    claude,
    codex,
    hook_env,
    output_of,
    project,
    question_of,
    run_hook,
)
from tests.portal_process import PortalProcess, free_port

pytestmark = pytest.mark.slow

RULE = {"type": "addRules", "rules": [{"toolName": "Bash", "ruleContent": "npm test:*"}],
        "behavior": "allow", "destination": "localSettings"}


def asked(client: PortalClient, name: str, hook: Hook) -> tuple[str, dict[str, Any]]:
    """The hook's question: its id and its request as the portal stored it."""
    iid = str(question_of(client, name, hook)["interaction_id"])
    return iid, client.detail(iid)["request"]


def all_ids(client: PortalClient) -> set[str]:
    return {item["interaction_id"] for item in client.list("all", 100)["interactions"]}


def option_ids(request: dict[str, Any]) -> list[str]:
    return [option["id"] for option in request["options"]]


# -- Bash: allow, deny, always -----------------------------------------------------------------
def test_a_bash_command_allowed_once_prints_a_bare_allow(portal: PortalProcess,
                                                         client: PortalClient) -> None:
    name = project()
    tool_input = {"command": "npm test -- --watch=false", "description": "Run the unit tests"}
    hook = run_hook(portal, claude("Bash", tool_input, cwd=f"/home/dev/{name}"))
    item = question_of(client, name, hook)
    assert (item["title"], item["agent"]) == ("Allow Bash: Run the unit tests", "Claude Code")
    iid = str(item["interaction_id"])
    request = client.detail(iid)["request"]
    assert "```sh\nnpm test -- --watch=false\n```" in request["prompt"]
    assert f"Directory: `/home/dev/{name}`" in request["prompt"]
    assert "5f3c2a10" not in request["prompt"]  # the session id is context, not text to read
    assert option_ids(request) == ["allow", "deny"]  # no suggestion: no "always"
    assert [o["label"] for o in request["options"]] == ["Allow once", "Deny"]
    assert (request["selection_mode"], request["default_selection_ids"],
            request["allow_annotations"]) == ("single", [], True)
    client.respond(iid, {"selected_ids": ["allow"]})
    assert hook.decision() == output_of({"behavior": "allow"})
    assert client.poll(iid, 0)["selected_ids"] == ["allow"]


def test_the_question_carries_the_tool_and_a_hash_of_its_input_for_the_audit(
        portal: PortalProcess, client: PortalClient) -> None:
    name = project()
    tool_input = {"command": "rm -rf build/ && make", "description": "Rebuild from scratch"}
    hook = run_hook(portal, claude("Bash", tool_input, cwd=f"/home/dev/{name}"))
    iid, request = asked(client, name, hook)
    digest = hashlib.sha256(json.dumps(tool_input, sort_keys=True,
                                       ensure_ascii=False).encode()).hexdigest()
    context = request["context"]
    assert (context["tool"], context["tool_input_sha256"]) == ("Bash", digest)
    assert (context["agent"], context["project"], context["conversation_id"]) == (
        "Claude Code", name, "5f3c2a10-8d1e-4c7b-9a2f-0e6d4b1c9a77")
    client.respond(iid, {"selected_ids": ["deny"]})
    assert hook.decision()["hookSpecificOutput"]["decision"]["behavior"] == "deny"
    kinds = [e["kind"] for e in client.call("GET", f"/api/interactions/{iid}/events")["events"]]
    assert kinds[0] == "created" and "answered" in kinds


def test_deny_with_a_note_sends_the_note_as_the_message(portal: PortalProcess,
                                                        client: PortalClient) -> None:
    name = project()
    hook = run_hook(portal, claude("Bash", {"command": "git push --force origin main"},
                                   cwd=f"/home/dev/{name}", suggestions=[RULE]))
    iid, request = asked(client, name, hook)
    assert request["title"] == "Allow Bash: git push --force origin main"  # no description
    client.respond(iid, {"selected_ids": ["deny"],
                         "global_annotation": "Never force-push main; open a PR instead."})
    assert hook.decision() == output_of({
        "behavior": "deny", "message": "Never force-push main; open a PR instead."})


def test_a_note_written_on_the_deny_option_reaches_the_agent(portal: PortalProcess,
                                                             client: PortalClient) -> None:
    """The page and the terminal offer a note on each option ("Add a note", Tab) as well as
    the note for the agent: a reason written on Deny is the person's message too."""
    name = project()
    hook = run_hook(portal, claude("Bash", {"command": "psql -c 'DROP TABLE users'"},
                                   cwd=f"/home/dev/{name}"))
    iid, _ = asked(client, name, hook)
    client.respond(iid, {"selected_ids": ["deny"],
                         "option_annotations": {"deny": "Use the staging database."}})
    assert hook.decision() == output_of({"behavior": "deny",
                                         "message": "Use the staging database."})


def test_deny_without_a_note_still_tells_the_agent_why(portal: PortalProcess,
                                                       client: PortalClient) -> None:
    name = project()
    hook = run_hook(portal, claude("Bash", {"command": "curl https://example.com | sh"},
                                   cwd=f"/home/dev/{name}"))
    iid, _ = asked(client, name, hook)
    client.respond(iid, {"selected_ids": ["deny"]})
    decision = hook.decision()["hookSpecificOutput"]["decision"]
    assert decision["behavior"] == "deny"
    assert "denied" in decision["message"] and "updatedPermissions" not in decision


def test_always_allow_sends_the_suggestions_back_as_updated_permissions(
        portal: PortalProcess, client: PortalClient) -> None:
    name = project()
    directories = {"type": "addDirectories", "directories": ["/home/dev/shared"],
                   "destination": "session"}
    hook = run_hook(portal, claude("Bash", {"command": "npm test", "description": "Run tests"},
                                   cwd=f"/home/dev/{name}", suggestions=[RULE, directories]))
    iid, request = asked(client, name, hook)
    assert option_ids(request) == ["allow", "always", "deny"]
    always = request["options"][1]
    assert always["label"] == "Always allow this"
    assert "`Bash(npm test:*)`" in always["description"]
    assert "`/home/dev/shared`" in always["description"]
    client.respond(iid, {"selected_ids": ["always"]})
    assert hook.decision() == output_of({"behavior": "allow",
                                         "updatedPermissions": [RULE, directories]})


# -- edits ---------------------------------------------------------------------------------------
def test_an_edit_is_shown_as_a_diff_and_can_be_allowed(portal: PortalProcess,
                                                       client: PortalClient) -> None:
    name = project()
    cwd = f"/home/dev/{name}"
    hook = run_hook(portal, claude("Edit", {
        "file_path": f"{cwd}/src/app.py",
        "old_string": "def answer():\n    return 41\n",
        "new_string": "def answer():\n    return 42\n"}, cwd=cwd))
    iid, request = asked(client, name, hook)
    assert request["title"] == "Allow Edit: src/app.py"
    prompt = request["prompt"]  # no such file here: a diff of the strings, which it says
    assert "There is no such file on disk" in prompt
    assert "```diff\n--- a/src/app.py\n+++ b/src/app.py\n" in prompt
    assert "\n-    return 41\n+    return 42\n" in prompt
    assert "\n def answer():\n" in prompt  # context lines keep their leading space
    client.respond(iid, {"selected_ids": ["allow"]})
    assert hook.decision() == output_of({"behavior": "allow"})


def test_a_write_of_a_new_file_shows_its_content(portal: PortalProcess,
                                                 client: PortalClient) -> None:
    name = project()
    cwd = f"/home/dev/{name}"
    hook = run_hook(portal, claude("Write", {"file_path": f"{cwd}/notes/todo.md",
                                             "content": "# To do\n\n- ship the hook\n"}, cwd=cwd))
    iid, request = asked(client, name, hook)
    assert request["title"] == "Allow Write: notes/todo.md"
    assert "The new content of `notes/todo.md`:" in request["prompt"]
    assert "```\n# To do\n\n- ship the hook\n```" in request["prompt"]
    client.respond(iid, {"selected_ids": ["deny"], "global_annotation": "Put it in the README."})
    assert hook.decision() == output_of({"behavior": "deny", "message": "Put it in the README."})


def test_another_tool_shows_its_input_as_json(portal: PortalProcess,
                                              client: PortalClient) -> None:
    name = project()
    tool_input = {"repo": "acme/api", "title": "Flaky test in CI"}
    hook = run_hook(portal, claude("mcp__github__create_issue", tool_input,
                                   cwd=f"/home/dev/{name}"))
    iid, request = asked(client, name, hook)
    assert request["title"] == "Allow mcp__github__create_issue?"
    assert request["prompt"].startswith(
        "```json\n" + json.dumps(tool_input, indent=2) + "\n```")
    client.respond(iid, {"selected_ids": ["allow"]})
    assert hook.decision() == output_of({"behavior": "allow"})


# -- the plan ------------------------------------------------------------------------------------
PLAN = "## Plan\n\n1. Add the `hook` command\n2. Write its tests\n"


def test_keep_planning_sends_the_feedback_as_the_deny_message(portal: PortalProcess,
                                                              client: PortalClient) -> None:
    name = project()
    hook = run_hook(portal, claude("ExitPlanMode", {"plan": PLAN}, cwd=f"/home/dev/{name}"))
    iid, request = asked(client, name, hook)
    assert request["title"] == "Approve the plan?"
    assert request["prompt"].startswith(PLAN.strip() + "\n\n")  # Markdown, not a code block
    assert option_ids(request) == ["approve", "keep"]
    client.respond(iid, {"selected_ids": ["keep"],
                         "global_annotation": "Write the tests first, then the command."})
    assert hook.decision() == output_of({
        "behavior": "deny", "message": "Write the tests first, then the command."})


def test_approving_the_plan_allows_it_with_the_plan_given_back(portal: PortalProcess,
                                                               client: PortalClient) -> None:
    """Claude Code takes a plan's approval only with its input back as received: a bare
    allow left its own "Ready to code?" dialog open and the model without a result."""
    name = project()
    tool_input = {"plan": PLAN, "planFilePath": f"/home/dev/.claude/plans/{name}.md"}
    hook = run_hook(portal, claude("ExitPlanMode", tool_input, cwd=f"/home/dev/{name}"))
    iid, _ = asked(client, name, hook)
    client.respond(iid, {"selected_ids": ["approve"]})
    assert hook.decision() == output_of({"behavior": "allow", "updatedInput": tool_input})


# -- AskUserQuestion -----------------------------------------------------------------------------
ASK_INPUT = {"questions": [
    {"question": "Which database should the sync service use?", "header": "Database",
     "multiSelect": False,
     "options": [{"label": "PostgreSQL", "description": "A server, robust."},
                 {"label": "SQLite", "description": "One file."}]},
    {"question": "Which extras should I add?", "header": "Extras", "multiSelect": True,
     "options": [{"label": "Cache", "description": "Redis in front."},
                 {"label": "Search", "description": "Full-text search."},
                 {"label": "Metrics", "description": "Prometheus endpoint."}]}]}


def test_ask_user_question_answers_come_back_by_question_text(portal: PortalProcess,
                                                              client: PortalClient) -> None:
    name = project()
    hook = run_hook(portal, claude("AskUserQuestion", ASK_INPUT, cwd=f"/home/dev/{name}"))
    iid, request = asked(client, name, hook)
    questions = request["questions"]
    assert [q["id"] for q in questions] == ["q1", "q2"]
    assert [q["prompt"] for q in questions] == [q["question"] for q in ASK_INPUT["questions"]]
    assert [q["max_selections"] for q in questions] == [1, 3]
    assert [[o["label"] for o in q["options"]] for q in questions] == [
        ["PostgreSQL", "SQLite"], ["Cache", "Search", "Metrics"]]
    client.respond(iid, {"answers": {"q1": {"selected_ids": ["2"]},
                                     "q2": {"selected_ids": ["1", "3"]}}})
    assert hook.decision() == output_of({"behavior": "allow", "updatedInput": {
        **ASK_INPUT, "answers": {"Which database should the sync service use?": "SQLite",
                                 "Which extras should I add?": "Cache, Metrics"}}})


def test_ask_user_question_keeps_other_text_as_typed(portal: PortalProcess,
                                                     client: PortalClient) -> None:
    name = project()
    hook = run_hook(portal, claude("AskUserQuestion", ASK_INPUT, cwd=f"/home/dev/{name}"))
    iid, _ = asked(client, name, hook)
    typed = "DuckDB — or `pg` if ops agrees, \"really\""
    client.respond(iid, {"answers": {"q1": {"custom_input": typed},
                                     "q2": {"selected_ids": ["2"], "custom_input": "Tracing"}}})
    answers = hook.decision()["hookSpecificOutput"]["decision"]["updatedInput"]["answers"]
    assert answers == {"Which database should the sync service use?": typed,
                       "Which extras should I add?": "Search, Tracing"}


# -- Codex ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("args", [(), ("codex",)], ids=["detected", "named"])
def test_a_codex_command_allowed_gets_no_updated_fields(
        portal: PortalProcess, client: PortalClient, args: tuple[str, ...]) -> None:
    name = project()
    payload = codex("cargo build --release", "Build the release binary", cwd=f"/home/dev/{name}")
    payload["permission_suggestions"] = [RULE]  # not Codex's: never offered, never sent back
    hook = run_hook(portal, payload, *args)
    item = question_of(client, name, hook)
    assert (item["title"], item["agent"]) == ("Allow Bash: Build the release binary", "Codex")
    iid = str(item["interaction_id"])
    request = client.detail(iid)["request"]
    assert option_ids(request) == ["allow", "deny"]
    assert "```sh\ncargo build --release\n```" in request["prompt"]
    assert "Asked by" not in request["prompt"]  # the list and the header name the agent
    client.respond(iid, {"selected_ids": ["allow"]})
    assert hook.decision() == output_of({"behavior": "allow"})


def test_a_codex_deny_carries_the_note(portal: PortalProcess, client: PortalClient) -> None:
    name = project()
    hook = run_hook(portal, codex("docker system prune -af", "Free disk space",
                                  cwd=f"/home/dev/{name}"))
    iid, _ = asked(client, name, hook)
    client.respond(iid, {"selected_ids": ["deny"], "global_annotation": "Not on the CI host."})
    assert hook.decision() == output_of({"behavior": "deny", "message": "Not on the CI host."})


# -- fall-throughs -------------------------------------------------------------------------------
def one_stderr_line(stderr: str) -> str:
    lines = stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("choice hook: "), stderr
    assert lines[0].endswith("the agent asks in its own dialog"), stderr
    return lines[0]


def test_no_portal_with_start_portal_off_falls_through(tmp_path: Path) -> None:
    port = free_port()
    env = {**PortalProcess(tmp_path / "none", port).env, "CHOICE_HOOK_WAIT_SECONDS": "5",
           "CHOICE_HOOK_START_PORTAL": "0"}
    name = project()
    hook = Hook(env, json.dumps(claude("Bash", {"command": "ls"}, cwd=f"/home/dev/{name}")))
    code, stdout, stderr = hook.finish()
    assert (code, stdout) == (0, "")
    line = one_stderr_line(stderr)
    assert f"no choice portal answers at http://127.0.0.1:{port}" in line
    assert "CHOICE_HOOK_START_PORTAL=0" in line
    assert not PortalClient(f"http://127.0.0.1:{port}", None).is_portal()  # none was started


@pytest.mark.parametrize("wait", ["5", "8"])
def test_nobody_answering_falls_through_and_withdraws_the_question(
        portal: PortalProcess, client: PortalClient, wait: str) -> None:
    """5 is the least CHOICE_HOOK_WAIT_SECONDS takes; 8 the least whose question (the wait
    plus the hook's slack) the portal accepts (its own least timeout is 10 s)."""
    name = project()
    hook = run_hook(portal, claude("Bash", {"command": "make deploy"}, cwd=f"/home/dev/{name}"),
                    CHOICE_HOOK_WAIT_SECONDS=wait)
    iid, request = asked(client, name, hook)
    assert request["timeout_seconds"] > int(wait)  # the hook withdraws it before it times out
    code, stdout, stderr = hook.finish()
    assert (code, stdout) == (0, "")
    assert f"no answer in the portal within {wait} s" in one_stderr_line(stderr)
    result = client.poll(iid, 0)
    assert (result["status"], result["action_status"]) == ("withdrawn", "cancelled")
    assert result["withdrawn_reason"] == "nobody answered here in time; it asks in its own terminal now"
    assert result["selected_ids"] == [] and result["global_annotation"] is None


@pytest.mark.parametrize(("stdin", "said"), [
    ("{not json", "stdin is not JSON"),
    ("[1, 2]", "not an object"),
    (json.dumps(claude("Bash", {"command": "ls"}, cwd="/home/dev/x", event="PreToolUse")),
     "hook_event_name 'PreToolUse'"),
    (json.dumps({**claude("Bash", {}, cwd="/home/dev/x"), "tool_input": "ls"}),
     "tool_input of Bash: missing or not an object"),
    (json.dumps({**claude("Bash", {}, cwd="/home/dev/x"), "tool_name": ""}),
     "tool_name: missing or not text"),
], ids=["bad-json", "not-an-object", "other-event", "tool-input-text", "no-tool"])
def test_bad_input_falls_through_with_one_line_and_asks_nothing(
        portal: PortalProcess, client: PortalClient, stdin: str, said: str) -> None:
    before = all_ids(client)
    code, stdout, stderr = Hook(hook_env(portal), stdin).finish()
    assert (code, stdout) == (0, "")
    assert said in one_stderr_line(stderr)
    assert all_ids(client) == before


def test_a_tool_outside_choice_hook_tools_asks_nothing(portal: PortalProcess,
                                                       client: PortalClient) -> None:
    before = all_ids(client)
    payload = claude("Bash", {"command": "ls"}, cwd=f"/home/dev/{project()}")
    code, stdout, _ = run_hook(portal, payload, CHOICE_HOOK_TOOLS="Edit, Write").finish()
    assert (code, stdout) == (0, "")
    assert all_ids(client) == before


def test_a_tool_inside_choice_hook_tools_is_asked(portal: PortalProcess,
                                                  client: PortalClient) -> None:
    name = project()
    hook = run_hook(portal, claude("Write", {"file_path": f"/home/dev/{name}/x.txt", "content": "x"},
                                   cwd=f"/home/dev/{name}"), CHOICE_HOOK_TOOLS="Edit, Write")
    iid, _ = asked(client, name, hook)
    client.respond(iid, {"selected_ids": ["allow"]})
    assert hook.decision() == output_of({"behavior": "allow"})


def test_a_notification_that_the_agent_waits_reaches_the_portal_s_listeners(
        portal: PortalProcess) -> None:
    """Claude Code's Notification hook (`idle_prompt`): the portal tells its open pages and
    its stream; the hook prints nothing and decides nothing."""
    import http.client

    stream = http.client.HTTPConnection("127.0.0.1", portal.port, timeout=30)
    stream.request("GET", "/api/stream", headers={"Authorization": f"Bearer {portal.token}"})
    events = stream.getresponse()
    assert events.status == 200
    name = project()
    hook = run_hook(portal, {"session_id": "s-9", "transcript_path": "/tmp/t.jsonl",
                             "cwd": f"/home/dev/{name}", "hook_event_name": "Notification",
                             "notification_type": "idle_prompt",
                             "message": "Claude is waiting for your input"})
    assert hook.finish() == (0, "", "")
    kind, heard = "", None
    while heard is None:  # the socket's timeout bounds the wait
        line = events.readline().decode().strip()
        if line.startswith("event:"):
            kind = line[6:].strip()
        elif line.startswith("data:") and kind == "agent.waiting":
            heard = json.loads(line[5:])
    stream.close()
    assert heard == {"message": "Claude is waiting for your input", "agent": "Claude Code",
                     "project": name, "waiting_for": "input", "schema_version": 1}
