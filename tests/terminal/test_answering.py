"""`choice answer <id>` in a real terminal: every selection mode, notes, confirmation and
cancel, asserted on the screen and on the result the agent's poll returns."""

from __future__ import annotations

import re

import pytest

from choice.client.portal_client import PortalClient
from tests.terminal.conftest import Answer, Ask, events, finished

pytestmark = pytest.mark.slow


def test_a_single_choice_moves_picks_and_submits_then_leaves_one_summary_line(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Pick the database")
    pane = answer(iid)
    pane.wait_for("› ( ) PostgreSQL", "( ) SQLite  [recommended]", "A file; nothing to run.",
                  "asked at", "test-agent")
    pane.wait_until(lambda screen: re.search(r"(5:00|4:[3-5]\d) left", screen) is not None,
                    "the countdown near 5:00")
    pane.press("Down")
    pane.wait_for("› ( ) SQLite")
    pane.press("j")
    pane.wait_for("› ( ) DuckDB")
    pane.press("k")
    pane.wait_for("› ( ) SQLite")
    pane.press("Space")
    pane.wait_for("› (•) SQLite")
    pane.press("Enter")
    assert pane.exit_code() == 0
    assert pane.output() == ['Selected "SQLite" (lite).']  # the UI cleared itself
    result = finished(client, iid)
    assert (result["status"], result["action_status"]) == ("submitted", "selected")
    assert result["selected_ids"] == ["lite"]
    assert (result["interface"], result["submission"]) == ("terminal", "manual")
    assert (result["custom_input"], result["global_annotation"], result["confirmed"]) == (
        None, None, None)
    assert events(client, iid) == [("created", "agent"), ("opened", "human:terminal"),
                                   ("answered", "human:terminal")]


def test_enter_on_a_single_choice_with_nothing_picked_takes_the_focused_option(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Pick the database, quickly")
    pane = answer(iid)
    pane.press("j", "j")
    pane.wait_for("› ( ) DuckDB")
    pane.press("Enter")
    assert pane.exit_code() == 0
    assert finished(client, iid)["selected_ids"] == ["duck"]


def test_single_submit_mode_submits_on_the_first_pick(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Pick the database at once", single_submit_mode=True)
    pane = answer(iid)
    pane.press("j")
    pane.wait_for("› ( ) SQLite")
    pane.press("Space")
    assert pane.exit_code() == 0
    assert pane.output() == ['Selected "SQLite" (lite).']
    result = finished(client, iid)
    assert (result["status"], result["submission"]) == ("auto_submitted", "auto")
    assert result["selected_ids"] == ["lite"]


def test_a_multi_choice_outside_its_bounds_explains_itself_and_waits_for_a_fix(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Pick one or two stores", selection_mode="multi", min_selections=1,
              max_selections=2)
    pane = answer(iid)
    pane.wait_for("Choose 1 to 2 options:", "› [ ] PostgreSQL")
    pane.press("Enter")
    pane.wait_for("0 selected: choose at least 1 option.")
    pane.press("Space", "j", "Space", "j", "Space")
    pane.wait_for("[x] PostgreSQL", "[x] SQLite", "› [x] DuckDB")
    pane.press("Enter")
    pane.wait_for("3 options selected but at most 2 are allowed: deselect some.")
    assert "[exit" not in pane.screen()
    assert client.poll(iid, 0)["status"] == "pending"  # checked by the portal's dry run only:
    assert events(client, iid) == [("created", "agent"), ("opened", "human:terminal")]
    pane.press("Space")
    pane.wait_for("› [ ] DuckDB")
    pane.wait_gone("at most 2")  # the explanation goes with the next key
    pane.press("Enter")
    assert pane.exit_code() == 0
    assert pane.output() == ['Selected "PostgreSQL" (pg), "SQLite" (lite).']
    assert finished(client, iid)["selected_ids"] == ["pg", "lite"]


def test_tab_notes_the_focused_option_and_g_writes_a_note_for_the_agent(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Pick a store, with notes", selection_mode="multi", max_selections=3)
    pane = answer(iid, width=120)  # every hint on the bar
    pane.wait_for("Tab note", "g note to agent")
    pane.press("Tab")
    pane.wait_for("Note on PostgreSQL: ▏", "Enter save · Esc back")
    pane.type("too heavy for this")
    pane.press("Enter")
    pane.wait_for("Note: too heavy for this")
    pane.press("j", "Space")
    pane.wait_for("› [x] SQLite")
    pane.press("g")
    pane.wait_for("Note for the agent: ▏")
    pane.type("ship it quickly")
    pane.press("Enter")
    pane.wait_for("Note for the agent: ship it quickly")
    pane.press("j", "Tab")
    pane.wait_for("Note on DuckDB:")
    pane.type("maybe later")
    pane.press("Escape")  # Esc leaves the editor without keeping what was typed
    pane.wait_gone("Note on DuckDB:")
    assert "maybe later" not in pane.screen()
    pane.press("Enter")
    assert pane.exit_code() == 0
    result = finished(client, iid)
    assert result["selected_ids"] == ["lite"]
    assert result["option_annotations"] == {"pg": "too heavy for this"}
    assert result["global_annotation"] == "ship it quickly"


def test_an_emptied_note_is_no_note(ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Pick a store, notes emptied")
    pane = answer(iid)
    pane.press("Tab")
    pane.wait_for("Note on PostgreSQL:")
    pane.type("x")
    pane.press("Enter")
    pane.wait_for("Note: x")
    pane.press("Tab")
    pane.wait_for("Note on PostgreSQL: x▏")  # the editor opens on the note as it is
    pane.press("BSpace")
    pane.wait_for("Note on PostgreSQL: ▏")
    pane.press("Enter")
    pane.wait_gone("Note: x")
    pane.press("g")
    pane.wait_for("Note for the agent: ▏")
    pane.type("   ")
    pane.press("Enter")
    pane.wait_gone("Note for the agent:")
    pane.press("Space", "Enter")
    assert pane.exit_code() == 0
    result = finished(client, iid)
    assert (result["option_annotations"], result["global_annotation"]) == ({}, None)


def test_a_hybrid_answer_typed_on_the_text_line_becomes_custom_input(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Pick a store or name one", selection_mode="hybrid", placeholder="e.g. MySQL 8")
    pane = answer(iid)
    pane.wait_for("  Or write your own answer:", "e.g. MySQL 8")  # the placeholder shows
    pane.press("Down", "Down", "Down")
    pane.wait_for("› Or write your own answer: ▏", "Esc cancel")
    pane.type("Redis, just keep quiet logs!")  # j, k, q, s, g type here: they are letters
    pane.wait_for("› Or write your own answer: Redis, just keep quiet logs!▏")
    pane.wait_gone("e.g. MySQL 8")
    pane.press("BSpace")
    pane.wait_for("quiet logs▏")
    pane.press("Enter")
    assert pane.exit_code() == 0
    assert pane.output() == ['Typed answer: "Redis, just keep quiet logs".']
    result = finished(client, iid)
    assert result["action_status"] == "custom_input"
    assert result["custom_input"] == "Redis, just keep quiet logs"
    assert (result["selected_ids"], result["placeholder_shown"]) == ([], True)


def test_a_hybrid_with_nothing_picked_or_typed_asks_for_one_or_the_other(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Pick a store or name one, empty", selection_mode="hybrid")
    pane = answer(iid)
    pane.press("Down", "Down", "Down")
    pane.wait_for("› Or write your own answer:")
    pane.press("Enter")
    pane.wait_for("Pick an option or write your own answer.")
    assert client.poll(iid, 0)["status"] == "pending"
    pane.press("Up", "Space", "Enter")
    assert pane.exit_code() == 0
    assert finished(client, iid)["selected_ids"] == ["duck"]


def test_single_submit_mode_does_not_submit_over_typed_text(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Pick at once unless typing", selection_mode="hybrid", single_submit_mode=True)
    pane = answer(iid)
    pane.press("Down", "Down", "Down")
    pane.wait_for("› Or write your own answer:")
    pane.type("also Redis")
    pane.wait_for("also Redis▏")
    pane.press("Up", "Space")
    pane.wait_for("You have typed something: press Enter when ready", "› (•) DuckDB")
    assert client.poll(iid, 0)["status"] == "pending"
    pane.press("Enter")
    assert pane.exit_code() == 0
    result = finished(client, iid)
    assert (result["selected_ids"], result["custom_input"]) == (["duck"], "also Redis")
    assert result["submission"] == "manual"


def test_a_text_input_question_takes_the_typed_answer(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Name the database", selection_mode="text_input", placeholder="one word")
    pane = answer(iid)
    pane.wait_for("› Your answer: ▏", "one word", "^G note to agent")
    pane.press("Enter")
    pane.wait_for("Type your answer first.")
    pane.type("CockroachDB")
    pane.press("C-g")  # letters type on the text line: Ctrl-G writes the note instead
    pane.wait_for("Note for the agent: ▏")
    pane.type("sorry, strong opinion")
    pane.press("Enter")
    pane.wait_for("› Your answer: CockroachDB▏", "Note for the agent: sorry, strong opinion")
    pane.press("Enter")
    assert pane.exit_code() == 0
    assert pane.output() == ['Typed answer: "CockroachDB". Note: "sorry, strong opinion".']
    result = finished(client, iid)
    assert (result["action_status"], result["custom_input"]) == ("custom_input", "CockroachDB")
    assert result["global_annotation"] == "sorry, strong opinion"


def test_a_confirmation_step_shows_the_answer_and_y_confirms_it(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Drop the old table?", require_confirmation=True)
    pane = answer(iid)
    pane.press("Space", "Enter")
    screen = pane.wait_for("Please confirm:", "y confirm · b back · c cancel")
    assert "  PostgreSQL" in screen and "SQLite" not in screen
    assert client.poll(iid, 0)["status"] == "pending"
    pane.press("y")
    assert pane.exit_code() == 0
    result = finished(client, iid)
    assert (result["selected_ids"], result["confirmed"]) == (["pg"], True)
    assert [kind for kind, _ in events(client, iid)][-2:] == ["answered", "confirmed"]


def test_b_on_the_confirmation_step_goes_back_to_the_choice(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Drop the older table?", require_confirmation=True)
    pane = answer(iid)
    pane.press("Space", "Enter")
    pane.wait_for("Please confirm:")
    pane.press("b")
    pane.wait_for("› (•) PostgreSQL")
    pane.wait_gone("Please confirm:")
    pane.press("j", "Space", "Enter")
    screen = pane.wait_for("Please confirm:")
    assert "SQLite" in screen and "PostgreSQL" not in screen
    pane.press("Enter")  # Enter confirms too
    assert pane.exit_code() == 0
    result = finished(client, iid)
    assert (result["selected_ids"], result["confirmed"]) == (["lite"], True)


def test_q_asks_why_and_enter_cancels_with_that_note(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Pick the database, or not")
    pane = answer(iid)
    pane.press("q")
    pane.wait_for("Why cancel? (optional): ▏")
    pane.press("Escape")  # changed my mind: back to the question
    pane.wait_gone("Why cancel?")
    assert client.poll(iid, 0)["status"] == "pending"
    pane.press("Escape")  # Esc cancels like q
    pane.wait_for("Why cancel? (optional): ▏")
    pane.type("wrong repository")
    pane.press("Enter")
    assert pane.exit_code() == 3
    assert pane.output() == ['Cancelled. Note for the agent: "wrong repository"']
    result = finished(client, iid)
    assert (result["status"], result["action_status"]) == ("cancelled", "cancelled")
    assert (result["global_annotation"], result["interface"]) == ("wrong repository", "terminal")
    assert result["selected_ids"] == []
    assert events(client, iid)[-1] == ("cancelled", "human:terminal")


def test_a_cancel_without_a_note_carries_none(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Pick the database, or drop it")
    pane = answer(iid)
    pane.press("q")
    pane.wait_for("Why cancel?")
    pane.press("Enter")
    assert pane.exit_code() == 3
    assert pane.output() == ["Cancelled"]
    result = finished(client, iid)
    assert (result["action_status"], result["global_annotation"]) == ("cancelled", None)
