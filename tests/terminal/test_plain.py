"""The plain-line fallback driven through a pipe (as a script would), and `choice ask
--interface terminal`, which runs the full-screen UI in its own terminal."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from choice.client.portal_client import PortalClient
from tests.portal_process import PortalProcess
from tests.terminal.conftest import Ask, Run, events, finished, terminal_env
from tests.terminal.tmux import Pane, need_tmux

pytestmark = pytest.mark.slow


def answer_through_a_pipe(portal: PortalProcess, *args: str,
                          stdin: str) -> subprocess.CompletedProcess[str]:
    env = {name: value for name, value in os.environ.items() if not name.startswith("CHOICE_")}
    return subprocess.run([sys.executable, "-m", "choice.cli", "answer", *args], input=stdin,
                          env={**env, **terminal_env(portal)}, capture_output=True, text=True,
                          timeout=30)


def test_a_number_on_stdin_picks_that_option(
        ask: Ask, portal: PortalProcess, client: PortalClient) -> None:
    iid = ask("Pick a store through a pipe")
    done = answer_through_a_pipe(portal, iid, stdin="2\n")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:2] == ["Pick a store through a pipe", "The service needs a store. Which one?"]
    assert "  2) SQLite (recommended) — A file; nothing to run." in lines
    assert lines[-2:] == ["> 2", 'Selected "SQLite" (lite).']  # the answer shows as typed
    result = finished(client, iid)
    assert (result["selected_ids"], result["interface"]) == (["lite"], "terminal")
    assert [kind for kind, _ in events(client, iid)] == ["created", "opened", "answered"]


def test_cancel_with_a_note_through_a_pipe(
        ask: Ask, portal: PortalProcess, client: PortalClient) -> None:
    iid = ask("Pick a store, then cancel through a pipe")
    done = answer_through_a_pipe(portal, iid, "--plain", stdin="!cancel because reasons\n")
    assert done.returncode == 3, done.stderr
    assert done.stdout.splitlines()[-1] == 'Cancelled. Note for the agent: "because reasons"'
    result = finished(client, iid)
    assert (result["action_status"], result["global_annotation"]) == (
        "cancelled", "because reasons")


def test_invalid_answers_prompt_again(
        ask: Ask, portal: PortalProcess, client: PortalClient) -> None:
    iid = ask("Pick a store, clumsily", selection_mode="multi", max_selections=2)
    done = answer_through_a_pipe(portal, iid, stdin="0\n4\nfirst\n1 2 3\n1,3\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("No such option: use the numbers shown.") == 3
    assert "3 options selected but at most 2 are allowed" in done.stdout
    assert done.stdout.count("Choose 1 to 2 numbers") == 5
    assert finished(client, iid)["selected_ids"] == ["pg", "duck"]


def test_enter_accepts_the_default_and_text_answers_a_hybrid(
        ask: Ask, portal: PortalProcess, client: PortalClient) -> None:
    kept = ask("Pick a store, defaults", default_selection_ids=["duck"])
    done = answer_through_a_pipe(portal, kept, stdin="\n")
    assert "Choose a number [3]  ([enter]=accept default | [w]iden | [d]efer | [!cancel])" in done.stdout
    assert (done.returncode, finished(client, kept)["selected_ids"]) == (0, ["duck"])
    typed = ask("Pick a store or type one, piped", selection_mode="hybrid",
                placeholder="e.g. Redis")
    done = answer_through_a_pipe(portal, typed, stdin="Valkey 8\n")
    assert "([text]=type answer (e.g. Redis) | [w]iden | [d]efer | [!cancel])" in done.stdout
    assert done.returncode == 0
    assert finished(client, typed)["custom_input"] == "Valkey 8"


def test_a_confirmation_is_asked_on_its_own_line(
        ask: Ask, portal: PortalProcess, client: PortalClient) -> None:
    iid = ask("Pick a store, confirm it piped", require_confirmation=True)
    done = answer_through_a_pipe(portal, iid, stdin="1\nn\n3\ny\n")
    assert done.returncode == 0, done.stderr
    assert "Please confirm: PostgreSQL\nConfirm? [y/N]\n> n" in done.stdout
    assert "Please confirm: DuckDB\nConfirm? [y/N]\n> y" in done.stdout
    result = finished(client, iid)
    assert (result["selected_ids"], result["confirmed"]) == (["duck"], True)


def test_the_end_of_input_without_an_answer_leaves_the_question_open(
        ask: Ask, portal: PortalProcess, client: PortalClient) -> None:
    iid = ask("Pick a store, never answered")
    done = answer_through_a_pipe(portal, iid, stdin="")
    assert done.returncode == 1
    assert done.stdout.splitlines()[-1] == "No answer given: the question is still open."
    assert client.poll(iid, 0)["status"] == "pending"
    client.cancel(iid)


def test_a_question_already_over_says_how_it_ended(
        ask: Ask, portal: PortalProcess, client: PortalClient) -> None:
    answered = ask("Pick a store, answered before")
    client.respond(answered, {"selected_ids": ["pg"]})
    done = answer_through_a_pipe(portal, answered, stdin="2\n")
    assert (done.returncode, done.stdout) == (
        0, 'Already finished elsewhere: Selected "PostgreSQL" (pg).\n')
    cancelled = ask("Pick a store, cancelled before")
    client.cancel(cancelled, "moot")
    done = answer_through_a_pipe(portal, cancelled, stdin="")
    assert (done.returncode, done.stdout) == (
        3, 'Already finished elsewhere: Cancelled. Note for the agent: "moot"\n')


def test_an_unknown_id_is_named_and_choice_list_is_offered(portal: PortalProcess) -> None:
    """The person used to be pointed to `GET /api/interactions`. An id no URL
    can carry (a control character, a space) is not sent: it used to end in a traceback."""
    for typed, shown in (("0123456789abcdef", "0123456789abcdef"),
                         ("no such\x1b[2J", "no such␛")):
        done = answer_through_a_pipe(portal, typed, stdin="")
        assert (done.returncode, done.stdout) == (1, "")
        assert done.stderr == (f'choice answer: no question has the id "{shown}": '
                               "`choice list` shows the open ones and their ids.\n")


def test_hostile_text_is_made_safe_in_plain_lines_too(
        ask: Ask, portal: PortalProcess) -> None:
    hostile = "\x1b[2J\x1b]0;pwned\x07\x1b[31mred\x00nul \u202eevil"
    iid = ask(f"Title {hostile}", prompt=f"Prompt {hostile}",
              options=[{"id": "bad", "label": f"Label {hostile}", "description": hostile}])
    done = answer_through_a_pipe(portal, iid, stdin="1\n")
    assert done.returncode == 0, done.stderr
    for raw in ("\x1b", "\x00", "\x07", "\u202e", "pwned"):
        assert raw not in done.stdout
    assert done.stdout.splitlines()[-1] == 'Selected "Label ␛␛␛red?nul evil" (bad).'


def test_choice_ask_with_the_terminal_interface_answers_in_place_and_prints_the_result(
        run: Run, client: PortalClient) -> None:
    pane = run("ask", "Pick a store from a script", "--prompt", "A shell script asks.",
               "--option", "pg=PostgreSQL", "--option", "lite=SQLite", "--interface", "terminal",
               "--timeout", "120", "--no-start", height=50)
    pane.wait_for("Pick a store from a script", "› ( ) PostgreSQL", "choice ask", "left")
    pane.press("j", "Enter")
    assert pane.exit_code() == 0
    output = pane.output()
    assert output[0] == 'Selected "SQLite" (lite).'  # the UI's line, on stderr
    result = json.loads("\n".join(output[1:]))  # the result JSON, on stdout
    assert (result["action_status"], result["selected_ids"]) == ("selected", ["lite"])
    assert (result["interface"], result["status"]) == ("terminal", "submitted")
    assert finished(client, result["interaction_id"])["selected_ids"] == ["lite"]


def test_choice_ask_with_stdout_redirected_asks_on_stderr_and_keeps_the_json_clean(
        portal: PortalProcess, tmp_path: Path) -> None:
    need_tmux()
    saved = tmp_path / "result.json"
    command = shlex.join([sys.executable, "-m", "choice.cli", "ask", "Pick a store, redirected",
                          "--prompt", "Stdout goes to a file.", "--option", "pg=PostgreSQL",
                          "--option", "lite=SQLite", "--interface", "terminal", "--no-start"])
    pane = Pane(["sh", "-c", f"{command} > {shlex.quote(str(saved))}"], terminal_env(portal))
    try:
        pane.start()
        pane.wait_for("  2) SQLite", "Choose a number")  # plain lines: stdout is no terminal
        pane.type("2")
        pane.press("Enter")
        assert pane.exit_code() == 0
        assert pane.output()[-1] == 'Selected "SQLite" (lite).'
    finally:
        pane.kill()
    result = json.loads(saved.read_text())
    assert (result["selected_ids"], result["interface"]) == (["lite"], "terminal")
