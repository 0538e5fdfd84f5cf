"""A `hitl_request` is options-only in the terminal
(docs/guides/terminal.md#options-only-questions): no note keys, no typed cancel reason, in
the full-screen UI and in the plain lines; its confirm step still works. A `provide_choice`
question keeps its notes and its cancel reason."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import pytest

from choice.client.portal_client import PortalClient
from tests.portal_process import PortalProcess
from tests.terminal.conftest import Answer, Ask, finished, terminal_env

pytestmark = pytest.mark.slow


def hitl(client: PortalClient, question: str, **fields: Any) -> str:
    """A pending `hitl_request` (the compatibility shape: `question`, string options)."""
    created = client.create({"question": question, "options": ["PostgreSQL", "SQLite"],
                             "interface": "terminal", "timeout_seconds": 300, **fields})
    assert created["status"] == "pending", created
    detail = client.detail(created["interaction_id"])
    assert detail["request"]["shape"] == "hitl_request"
    return str(created["interaction_id"])


def test_a_hitl_request_offers_no_notes_and_confirms_before_it_submits(
        answer: Answer, client: PortalClient) -> None:
    iid = hitl(client, "Deploy to staging now?", confirm=True)
    pane = answer(iid)
    screen = pane.wait_for("› ( ) PostgreSQL", "Enter submit", "q cancel")
    assert "Tab note" not in screen and "note to agent" not in screen
    pane.press("Tab", "g")  # the note keys do nothing here
    screen = pane.wait_for("› ( ) PostgreSQL")
    assert "Note on" not in screen and "Note for the agent" not in screen
    pane.press("j", "Enter")
    pane.wait_for("Please confirm:", "  SQLite", "y confirm · b back · c cancel")
    pane.press("y")
    assert pane.exit_code() == 0
    result = finished(client, iid)
    assert (result["selected_ids"], result["confirmed"]) == (["2"], True)
    assert result["global_annotation"] is None and result["option_annotations"] == {}


def test_cancelling_a_hitl_request_asks_whether_not_why(
        answer: Answer, client: PortalClient) -> None:
    iid = hitl(client, "Delete the old backups?")
    pane = answer(iid)
    pane.wait_for("› ( ) PostgreSQL")
    pane.press("q")
    screen = pane.wait_for("Cancel this question? Enter cancels it, Esc goes back",
                           "Enter yes · Esc back")
    assert "Why cancel?" not in screen
    pane.type("because")  # no box to type in: the letters go nowhere
    pane.press("Escape")
    screen = pane.wait_for("› ( ) PostgreSQL", "q cancel")
    assert "because" not in screen
    assert client.poll(iid, 0)["status"] == "pending"  # Esc went back, nothing was sent
    pane.press("q")
    pane.wait_for("Cancel this question? Enter cancels it")
    pane.press("Enter")
    assert pane.exit_code() == 3
    result = finished(client, iid)
    assert (result["action_status"], result["global_annotation"]) == ("cancelled", None)


def test_a_provide_choice_question_keeps_its_notes_and_cancel_reason(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Pick a store, notes kept")
    pane = answer(iid, width=120)  # every hint on the bar
    pane.wait_for("Tab note", "g note to agent")
    pane.press("q")
    pane.wait_for("Why cancel? (optional): ▏")
    pane.type("later")
    pane.press("Enter")
    assert pane.exit_code() == 3
    assert finished(client, iid)["global_annotation"] == "later"


def through_a_pipe(portal: PortalProcess, iid: str, stdin: str) -> subprocess.CompletedProcess[str]:
    env = {name: value for name, value in os.environ.items() if not name.startswith("CHOICE_")}
    return subprocess.run([sys.executable, "-m", "choice.cli", "answer", iid, "--plain"],
                          input=stdin, env={**env, **terminal_env(portal)}, capture_output=True,
                          text=True, timeout=30)


def test_the_plain_lines_refuse_a_cancel_reason_on_a_hitl_request(
        portal: PortalProcess, client: PortalClient) -> None:
    iid = hitl(client, "Rotate the keys tonight?")
    done = through_a_pipe(portal, iid, "!cancel because reasons\n!cancel\n")
    assert done.returncode == 3, done.stderr
    lines = done.stdout.splitlines()
    assert "This question is options-only: type !cancel without a reason." in lines
    assert lines[-1] == "Cancelled"
    result = finished(client, iid)
    assert (result["action_status"], result["global_annotation"]) == ("cancelled", None)


def test_the_plain_lines_confirm_a_hitl_request(portal: PortalProcess,
                                                client: PortalClient) -> None:
    iid = hitl(client, "Merge the release branch?", confirm=True)
    done = through_a_pipe(portal, iid, "1\ny\n")
    assert done.returncode == 0, done.stderr
    assert "Please confirm: PostgreSQL" in done.stdout.splitlines()
    result = finished(client, iid)
    assert (result["selected_ids"], result["confirmed"]) == (["1"], True)


def test_a_hitl_question_is_shown_once_in_the_full_screen_ui(
        answer: Answer, client: PortalClient) -> None:
    """A hitl_request's question is its title and its prompt; the head shows it,
    the body does not repeat it (at 50 columns the head cuts it, so the body shows it)."""
    iid = hitl(client, "Ship the hotfix to production tonight?")
    pane = answer(iid, width=80, height=24)
    screen = pane.wait_for("1 › ( ) PostgreSQL")
    assert screen.count("Ship the hotfix to production tonight?") == 1
    narrow = answer(iid, width=50, height=24)
    screen = narrow.wait_for("1 › ( ) PostgreSQL")
    assert "Ship the hotfix to production tonight?" in screen  # wrapped whole in the body
    assert screen.count("Ship the hotfix") == 2  # and cut short in the head
    pane.press("Enter")
    assert pane.exit_code() == 0


def test_a_hitl_question_is_printed_once_in_plain_lines(
        portal: PortalProcess, client: PortalClient) -> None:
    iid = hitl(client, "Tag the release as 2.0?")
    done = through_a_pipe(portal, iid, "1\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("Tag the release as 2.0?") == 1
    assert done.stdout.splitlines()[0] == "Tag the release as 2.0?"
