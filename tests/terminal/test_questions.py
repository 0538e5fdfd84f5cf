"""Several questions in the terminal (docs/guides/terminal.md#several-questions): a screen
per question under a tab bar, moved between with ←/→ and Tab, a final review and one
submission; a narrow pane; the plain lines through a pipe; `choice ask --json FILE` and
`choice list`."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from choice.client.portal_client import PortalClient
from tests.portal_process import PortalProcess
from tests.terminal.conftest import Answer, Run, finished, terminal_env
from tests.terminal.test_plain import answer_through_a_pipe

pytestmark = pytest.mark.slow

QUESTIONS: list[dict[str, Any]] = [
    {"id": "db", "header": "Database", "prompt": "Which database?",
     "options": [{"id": "pg", "label": "PostgreSQL"}, {"id": "lite", "label": "SQLite"}],
     "default_selection_ids": ["lite"]},
    {"id": "feat", "header": "Features", "prompt": "Which features?", "selection_mode": "multi",
     "options": [{"id": "logs", "label": "Logs"}, {"id": "metrics", "label": "Metrics"},
                 {"id": "traces", "label": "Traces"}]},
    {"id": "name", "header": "Name", "prompt": "What do we call it?",
     "selection_mode": "text_input"},
]


def ask_several(client: PortalClient, title: str, questions: list[dict[str, Any]] | None = None,
                **fields: Any) -> str:
    created = client.create({"title": title, "prompt": "A new service.",
                             "questions": questions or QUESTIONS, "interface": "terminal",
                             "timeout_seconds": 300, **fields})
    return str(created["interaction_id"])


def tab_row(screen: str) -> str:
    return screen.splitlines()[2]


def test_three_questions_are_answered_one_screen_each_then_reviewed_and_sent_once(
        answer: Answer, client: PortalClient) -> None:
    iid = ask_several(client, "Three questions in a pane", allow_annotations=True)
    pane = answer(iid)
    screen = pane.wait_for("Which database?", "Review")
    assert tab_row(screen).split() == ["Database", "Features", "Name", "Review"]
    pane.press("Right")  # a look at the next question, then back: nothing answered yet
    pane.wait_for("Which features?")
    pane.press("Left")
    pane.wait_for("Which database?")
    pane.press("Up", "Space", "n")  # PostgreSQL, with a note (Tab moves between questions)
    pane.wait_for("Note on PostgreSQL:")
    pane.type("fast")
    pane.press("Enter")
    pane.wait_for("Note: fast")
    pane.press("Tab")
    screen = pane.wait_for("Which features?")
    assert "✓ Database" in tab_row(screen)
    pane.press("Space", "Down", "Down", "Space", "Enter")
    pane.wait_for("What do we call it?")
    pane.type("billing")  # letters type on the text line; ←/→ still change the question
    pane.press("Left")
    pane.wait_for("Which features?")
    pane.press("Right")
    pane.wait_for("Your answer: billing")
    pane.press("Enter")
    screen = pane.wait_for("Review your answers", "Submit answers")
    assert "1. Database   PostgreSQL" in screen
    assert "Note on PostgreSQL: fast" in screen
    assert "2. Features   Logs, Traces" in screen
    assert '3. Name       "billing"' in screen
    pane.press("Enter")
    assert pane.exit_code() == 0
    assert pane.output() == ['Database: Selected "PostgreSQL" (pg). Note on pg: "fast".',
                             'Features: Selected "Logs" (logs), "Traces" (traces).',
                             'Name: Typed answer: "billing".']
    answers = finished(client, iid)["answers"]
    assert answers["db"]["selected_ids"] == ["pg"]
    assert answers["db"]["option_annotations"] == {"pg": "fast"}
    assert answers["feat"]["selected_ids"] == ["logs", "traces"]
    assert answers["name"]["custom_input"] == "billing"


def test_submitting_with_a_question_unanswered_opens_it_with_the_portal_s_words(
        answer: Answer, client: PortalClient) -> None:
    iid = ask_several(client, "Submit too early")
    pane = answer(iid)
    pane.wait_for("Which database?")
    pane.press("BTab")  # straight to the review: the defaults stand, the rest is empty
    screen = pane.wait_for("Review your answers")
    assert "1. Database   Default: SQLite" in screen
    assert "2. Features   Not answered yet" in screen
    pane.press("Enter")
    screen = pane.wait_for("Which features?", "choose at least 1")
    pane.press("Space", "Enter")
    pane.wait_for("What do we call it?")
    pane.type("ok")
    pane.press("Enter", "Enter")
    assert pane.exit_code() == 0
    result = finished(client, iid)
    assert result["answers"]["db"]["selected_ids"] == ["lite"]
    assert result["answers"]["feat"]["selected_ids"] == ["logs"]


def test_a_narrow_pane_scrolls_the_tab_bar_and_hostile_headers_stay_text(
        answer: Answer, client: PortalClient) -> None:
    headers = ["Database", "\x1b]0;pw\x07Ev", "数据库名称", None, "Region", "Budget",
               "Owner", "Deploy"]
    questions = [{"id": f"q{i}", "prompt": f"Question number {i}?", "options": [
        {"id": "y", "label": "Yes"}, {"id": "n", "label": "No"}],
        **({"header": header} if header else {})} for i, header in enumerate(headers)]
    iid = ask_several(client, "Eight questions, narrow", questions)
    pane = answer(iid, width=60, height=20)
    screen = pane.wait_for("Question number 0?")
    assert tab_row(screen).rstrip().endswith("›")  # more to the right
    assert "␛Ev" in tab_row(screen) and "Q4" in tab_row(screen)
    assert pane.title() != "pw"
    for _ in range(7):
        pane.press("Right")
    screen = pane.wait_for("Question number 7?")
    assert tab_row(screen).lstrip().startswith("‹")
    assert "Deploy" in tab_row(screen) and "Review" in tab_row(screen)
    assert all(len(line) <= 60 for line in screen.splitlines())
    pane.press("Escape")
    pane.wait_for("Why cancel?")
    pane.press("Enter")
    assert pane.exit_code() == 3


def test_plain_lines_ask_each_question_in_order_then_review_and_confirm(
        portal: PortalProcess, client: PortalClient) -> None:
    iid = ask_several(client, "Three questions through a pipe")
    done = answer_through_a_pipe(portal, iid, "--plain", stdin="\n1 3\n\nbilling\n2\n2\n\n")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Three questions through a pipe"
    headings = [line for line in lines if line.startswith("Question ")]
    assert headings == ["Question 1 of 3 · Database", "Question 2 of 3 · Features",
                        "Question 3 of 3 · Name", "Question 2 of 3 · Features"]
    assert "Type your answer first." in lines  # the text question's own check
    assert lines.count("Review your answers") == 2  # again after question 2 was changed
    assert "  2. Features: Metrics" in lines
    assert lines[-3:] == ['Database: Selected "SQLite" (lite).',
                          'Features: Selected "Metrics" (metrics).',
                          'Name: Typed answer: "billing".']
    assert finished(client, iid)["answers"]["feat"]["selected_ids"] == ["metrics"]


def test_choice_ask_json_asks_several_questions_in_the_terminal(
        run: Run, client: PortalClient, tmp_path: Path) -> None:
    path = tmp_path / "request.json"
    path.write_text(json.dumps({"title": "Asked from a JSON file", "questions": QUESTIONS[:2]}))
    pane = run("ask", "--json", str(path), "--no-start", height=100)
    pane.wait_for("Which database?", "Review")
    pane.press("Enter", "Space", "Enter")
    pane.wait_for("Review your answers")
    pane.press("Enter")
    assert pane.exit_code() == 0
    output = pane.output()
    assert output[:2] == ['Database: Selected "SQLite" (lite).',
                          'Features: Selected "Logs" (logs).']
    result = json.loads("\n".join(output[2:]))
    assert result["answers"]["feat"]["selected_labels"] == ["Logs"]


def test_choice_ask_json_without_a_terminal_says_how_many_questions_wait_and_lists_them(
        portal: PortalProcess, client: PortalClient, tmp_path: Path) -> None:
    path = tmp_path / "request.json"
    path.write_text(json.dumps({"title": "Three from a pipe", "questions": QUESTIONS}))
    env = {name: value for name, value in os.environ.items() if not name.startswith("CHOICE_")}
    process = subprocess.Popen(
        [sys.executable, "-m", "choice.cli", "ask", "--json", str(path), "--no-start"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**env, **terminal_env(portal)})
    try:
        assert process.stderr is not None
        said = [process.stderr.readline() for _ in range(5)]  # blocks until it says them
        assert said[3].strip() == "3 questions wait."
        assert '{"answers": {"<question id>": {"selected_ids": [...]}}}' in said[4]
        found = re.search(r"choice answer (\S+)", said[2])
        assert found, said
        listed = subprocess.run([sys.executable, "-m", "choice.cli", "list"], text=True,
                                capture_output=True, env={**env, **terminal_env(portal)},
                                timeout=30)
        assert "Three from a pipe  (3 questions)" in listed.stdout
        client.respond(found.group(1), {"answers": {"feat": {"selected_ids": ["metrics"]},
                                                    "name": {"custom_input": "x"}}})
        out, _ = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0
    assert json.loads(out)["answers"]["feat"]["selected_ids"] == ["metrics"]
