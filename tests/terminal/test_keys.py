"""Keys people bring from other tools, in a real terminal: an option's number picks it
(AskUserQuestion, questionary), `?` lists every key of the screen, the bar says when it left
keys out, and `h` hides an option (docs/guides/terminal.md#keys), remembered next time."""

from __future__ import annotations

import pytest

from choice.client.portal_client import PortalClient
from tests.terminal.conftest import Answer, Ask, finished

pytestmark = pytest.mark.slow


def test_a_number_picks_that_option_and_enter_sends_it(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Pick a store by its number")
    pane = answer(iid, width=80, height=24)
    pane.wait_for("1 › ( ) PostgreSQL", "2   ( ) SQLite", "3   ( ) DuckDB")
    pane.press("3")
    pane.wait_for("3 › (•) DuckDB")
    pane.press("2")
    pane.wait_for("2 › (•) SQLite", "3   ( ) DuckDB")
    pane.press("Enter")
    assert pane.exit_code() == 0
    assert finished(client, iid)["selected_ids"] == ["lite"]


def test_numbers_toggle_options_in_multi_mode(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Tick stores by their numbers", selection_mode="multi", max_selections=3)
    pane = answer(iid, width=80, height=24)
    pane.press("1", "3")
    pane.wait_for("1   [x] PostgreSQL", "3 › [x] DuckDB")
    pane.press("1")
    pane.wait_for("1 › [ ] PostgreSQL", "3   [x] DuckDB")
    pane.press("Enter")
    assert pane.exit_code() == 0
    assert finished(client, iid)["selected_ids"] == ["duck"]


def test_question_mark_lists_every_key_and_the_next_key_closes_it(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Pick a store, with help", selection_mode="hybrid")
    pane = answer(iid, width=50, height=24)
    hints = pane.line_with("? help").strip()
    assert hints.endswith(")") and "(+" in hints  # 50 columns: it says keys were left out
    pane.press("?")
    screen = pane.wait_for("Keys on this screen", "1-9 pick by number")
    assert "( ) PostgreSQL" not in screen  # the help fills the body
    assert "q cancel" not in screen  # 50 x 24: the rest is a scroll away
    for _line in range(20):
        pane.press("Down")
    pane.wait_for("q cancel", "? help")
    pane.press("Escape")  # closes the help only: the question is still open
    pane.wait_for("1 › ( ) PostgreSQL")
    pane.press("Down", "Down", "Down")
    pane.wait_for("› Or write your own answer:")
    pane.line_with("F1 help")  # on the text row `?` types
    pane.type("why?")
    pane.wait_for("Or write your own answer: why?")
    pane.press("F1")
    pane.wait_for("Keys on this screen", "^G note to agent")
    pane.press("Escape")
    pane.press("Enter")
    assert pane.exit_code() == 0
    assert finished(client, iid)["custom_input"] == "why?"


def test_a_hidden_option_stays_hidden_next_time_until_shown_again(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    client.save_settings({"hidden_options": []})
    first = ask("Pick a store, hide one")
    pane = answer(first, width=80, height=24)
    pane.press("Down", "h")
    pane.wait_for("Hidden: SQLite. H shows the hidden options again.",
                  "1   ( ) PostgreSQL", "2 › ( ) DuckDB", "1 option hidden (H shows it)")
    assert "SQLite" not in pane.screen().replace("Hidden: SQLite", "")
    pane.press("2", "Enter")
    assert pane.exit_code() == 0
    assert finished(client, first)["selected_ids"] == ["duck"]
    assert client.settings()["hidden_options"] == ["SQLite"]

    second = ask("Pick a store, the same one hidden")
    again = answer(second, width=80, height=24)
    again.wait_for("2   ( ) DuckDB", "1 option hidden (H shows it)")
    again.press("H")
    again.wait_for("Every option is shown again.", "2   ( ) SQLite", "3   ( ) DuckDB")
    again.press("2", "Enter")
    assert again.exit_code() == 0
    assert finished(client, second)["selected_ids"] == ["lite"]
    assert client.settings()["hidden_options"] == []


def test_several_questions_take_numbers_and_the_review_has_its_own_help(
        answer: Answer, client: PortalClient) -> None:
    created = client.create({"title": "Two questions by number", "interface": "terminal",
                             "timeout_seconds": 300, "questions": [
                                 {"id": "db", "header": "Database", "prompt": "Which database?",
                                  "options": [{"id": "pg", "label": "PostgreSQL"},
                                              {"id": "lite", "label": "SQLite"}]},
                                 {"id": "cache", "header": "Cache", "prompt": "Which cache?",
                                  "options": [{"id": "redis", "label": "Redis"},
                                              {"id": "none", "label": "None"}]}]})
    iid = str(created["interaction_id"])
    pane = answer(iid, width=80, height=24)
    pane.wait_for("Which database?")
    pane.press("2")  # picks SQLite on this question's screen
    pane.wait_for("2 › (•) SQLite")
    pane.press("Enter")
    pane.wait_for("Which cache?")
    pane.press("1", "Enter")
    pane.wait_for("Review your answers", "1. Database   SQLite", "2. Cache      Redis")
    pane.press("?")
    screen = pane.wait_for("Keys on this screen", "1-9 open by number", "Enter open/submit")
    assert "Submit answers" not in screen  # the help fills the body
    pane.press("Escape")
    pane.wait_for("Submit answers")
    pane.press("Enter")
    assert pane.exit_code() == 0
    answers = finished(client, iid)["answers"]
    assert (answers["db"]["selected_ids"], answers["cache"]["selected_ids"]) == (
        ["lite"], ["redis"])
