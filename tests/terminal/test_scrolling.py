"""A question taller than the window: the screen never hides a line without a sign. The
rules above and below the body say how many lines are out of view (`↑ 3 more`, `↓ 5 more`),
every option is in view when they all fit, moving the focus moves the view so the focused
option is on screen, and `↑` on the first option scrolls up to the text above it. Every
option stays reachable at 50x20."""

from __future__ import annotations

import re

import pytest

from choice.client.portal_client import PortalClient
from tests.terminal.conftest import Answer, Ask, Run, finished

pytestmark = pytest.mark.slow

PROMPT = ("The sync service keeps **per-device cursors** and a change log of every edit, "
          "and it must survive a restart of the box it runs on without losing either.\n\n"
          "Pick its store; I will write the migration.")
STORES = [
    {"id": "pg", "label": "PostgreSQL", "description": "A server; robust under concurrent "
     "writes.", "recommended": True, "rationale": "1. Already backed up nightly\n"
     "2. Team knows it"},
    {"id": "mysql", "label": "MySQL", "description": "A server we also run for billing."},
    {"id": "lite", "label": "SQLite", "description": "A file; nothing to run."},
    {"id": "dynamo", "label": "DynamoDB", "description": "Managed; pay per request."},
]
MORE_STORES = [*STORES,
               {"id": "redis", "label": "Redis", "description": "In memory; snapshots to disk."},
               {"id": "cassandra", "label": "Cassandra", "description": "Many nodes; tunable."},
               {"id": "mongo", "label": "MongoDB", "description": "Documents; one server or many."}]
BELOW = re.compile(r"^─+ ↓ (\d+) more ─+$", re.M)
ABOVE = re.compile(r"^─+ ↑ (\d+) more ─+$", re.M)


def test_options_that_fit_are_all_shown_under_as_much_of_the_prompt_as_fits(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Which store for the sync service, all four at 50x20?", prompt=PROMPT,
              options=STORES)
    pane = answer(iid, width=50, height=20)
    screen = pane.wait_for("1 › ( ) PostgreSQL", "4   ( ) DynamoDB", "Managed; pay per request.")
    assert ABOVE.search(screen) is not None, screen  # the prompt's start, a ↑ away
    pane.press("4", "Enter")
    assert pane.exit_code() == 0
    assert finished(client, iid)["selected_ids"] == ["dynamo"]


def test_a_question_taller_than_50x20_says_what_is_below_and_its_last_option_is_answered(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Which store for the sync service, at 50x20?", prompt=PROMPT,
              options=MORE_STORES)
    pane = answer(iid, width=50, height=20)
    screen = pane.wait_for("1 › ( ) PostgreSQL")
    assert "MongoDB" not in screen
    below = BELOW.search(screen)
    assert below is not None and int(below.group(1)) >= 2, screen  # MongoDB and its line
    pane.press(*["j"] * 6)
    screen = pane.wait_for("7 › ( ) MongoDB", "Documents; one server or many.")
    assert ABOVE.search(screen) is not None and BELOW.search(screen) is None, screen
    pane.press("Enter")
    assert pane.exit_code() == 0
    assert finished(client, iid)["selected_ids"] == ["mongo"]


def test_up_on_the_first_option_scrolls_to_the_text_above_and_down_scrolls_back(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    prompt = "\n\n".join(f"Paragraph {n} of the context." for n in range(1, 16))
    iid = ask("Which store, after a long context?", prompt=prompt, options=STORES[:2])
    pane = answer(iid, width=50, height=20)
    screen = pane.wait_for("1 › ( ) PostgreSQL")
    assert "Paragraph 1 of" not in screen and ABOVE.search(screen) is not None
    pane.press(*["k"] * 40)  # more than there is: the view stops at the top
    screen = pane.wait_for("Paragraph 1 of the context.")
    assert ABOVE.search(screen) is None and BELOW.search(screen) is not None, screen
    pane.press(*["j"] * 40)  # back down to the options, then on to the second one
    pane.wait_for("2 › ( ) MySQL")
    pane.press("Enter")
    assert pane.exit_code() == 0
    assert finished(client, iid)["selected_ids"] == ["mysql"]


def test_the_marks_are_in_the_persons_language(ask: Ask, run: Run) -> None:
    iid = ask("Which store, at 50x20, in Chinese?", prompt=PROMPT, options=MORE_STORES,
              language="zh")
    pane = run("answer", iid, width=50, height=20)
    screen = pane.wait_until(lambda s: re.search(r"^─+ ↓ 还有 \d+ 行 ─+$", s, re.M) is not None,
                             "the mark below, in Chinese")
    assert "more" not in screen
    pane.press(*["j"] * 6)
    pane.wait_until(lambda s: re.search(r"^─+ ↑ 还有 \d+ 行 ─+$", s, re.M) is not None,
                    "the mark above, in Chinese")
