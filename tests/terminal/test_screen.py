"""The screen while it is open: it follows the portal (an answer or a deadline from
elsewhere) without a key press, survives any window size, scrolls long lists, and draws
hostile model text without letting it drive the terminal."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest

from choice.client.portal_client import PortalClient
from tests.terminal.conftest import Answer, Ask, Run, events, finished
from tests.terminal.tmux import Pane

pytestmark = pytest.mark.slow
HOSTILE = "\x1b[2J\x1b]0;pwned\x07\x1b[31mred\x00nul \u202eevil"


def rule_of(width: int) -> Callable[[str], bool]:
    """A check that the screen was drawn for `width` columns: its rules (which may carry a
    `↓ 3 more` mark) are one shorter."""
    return lambda screen: any(
        line.startswith("─") and line.endswith("─") and len(line) == width - 1
        for line in screen.splitlines())


def test_an_answer_given_elsewhere_closes_the_ui_with_a_one_line_notice(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Pick a store, answered elsewhere")
    pane = answer(iid)
    client.respond(iid, {"selected_ids": ["duck"]})  # at once: nothing was pressed yet
    assert pane.exit_code() == 0
    assert pane.output() == ['Already finished elsewhere: Selected "DuckDB" (duck).']
    assert finished(client, iid)["selected_ids"] == ["duck"]
    assert events(client, iid)[-1] == ("answered", "human:api")


def test_a_cancel_made_elsewhere_while_the_ui_is_in_use_closes_it(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Pick a store, cancelled elsewhere")
    pane = answer(iid)
    pane.press("Tab")
    pane.wait_for("Note on PostgreSQL:")
    pane.type("half a thought")
    client.cancel(iid, "not needed any more")
    assert pane.exit_code() == 3
    assert pane.output() == [
        'Already finished elsewhere: Cancelled. Note for the agent: "not needed any more"']
    assert finished(client, iid)["action_status"] == "cancelled"


def test_a_deadline_moved_through_the_api_shows_in_the_countdown_without_a_key(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Pick a store, more time")
    pane = answer(iid)
    pane.wait_until(lambda s: re.search(r"\b4:[45]\d left|\b5:00 left", s) is not None,
                    "about five minutes left")
    later = datetime.now(UTC) + timedelta(hours=2)
    client.call("PATCH", f"/api/interactions/{iid}", {"expires_at": later.isoformat()})
    pane.wait_until(lambda s: re.search(r"\b(2:00:00|1:59:[45]\d) left", s) is not None,
                    "two hours left")
    soon = datetime.now(UTC) + timedelta(seconds=95)
    client.call("PATCH", f"/api/interactions/{iid}", {"expires_at": soon.isoformat()})
    pane.wait_until(lambda s: re.search(r"\b1:(3[0-5]|2\d) left", s) is not None,
                    "a minute and a half left")
    assert [kind for kind, _ in events(client, iid)].count("deadline_changed") == 2
    pane.press("Enter")
    assert pane.exit_code() == 0


def test_the_deadline_passing_while_the_ui_is_open_closes_it_as_timed_out(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Pick a store, too late")
    pane = answer(iid)
    soon = datetime.now(UTC) + timedelta(seconds=2)
    client.call("PATCH", f"/api/interactions/{iid}", {"expires_at": soon.isoformat()})
    assert pane.exit_code() == 4
    assert pane.output() == ["Timed out"]
    assert finished(client, iid)["action_status"] == "timeout"


def test_resizing_the_window_never_crashes_it_and_it_still_submits(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Pick a store, resized", prompt="Long context. " * 40)
    pane = answer(iid, env={"LINES": "24", "COLUMNS": "80"})  # a shell that exports them
    pane.resize(50, 12)
    pane.wait_until(rule_of(50), "a 50-column screen")
    pane.press("j", "j")
    pane.wait_for("› ( ) DuckDB")  # the list scrolled to keep the focus in view
    pane.resize(20, 6)
    screen = pane.wait_until(rule_of(20), "a 20-column screen")
    assert "Enter submit" not in screen  # six rows: the hints give their line away
    pane.resize(12, 4)
    pane.wait_for("Window too")
    pane.press("k")  # keys still work while it is too small to draw
    pane.resize(120, 40)
    pane.wait_until(rule_of(120), "a 120-column screen")
    pane.wait_for("› ( ) SQLite", "Long context.", "q cancel")
    pane.resize(80, 24)
    pane.wait_until(rule_of(80), "an 80-column screen")
    pane.press("Enter")
    assert pane.exit_code() == 0
    assert finished(client, iid)["selected_ids"] == ["lite"]


def test_a_long_option_list_scrolls_to_follow_the_focus(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    options = [{"id": f"o{n}", "label": f"Option number {n}"} for n in range(1, 31)]
    iid = ask("Pick one of thirty", options=options)
    pane = answer(iid, width=80, height=14)
    screen = pane.wait_for("› ( ) Option number 1", "The service needs a store.")
    assert "Option number 30" not in screen
    pane.press(*["j"] * 29)
    screen = pane.wait_for("› ( ) Option number 30")
    assert "The service needs a store." not in screen and "Option number 1\n" not in screen
    pane.press("Enter")
    assert pane.exit_code() == 0
    assert finished(client, iid)["selected_ids"] == ["o30"]


def test_the_key_hints_fit_an_80_column_terminal(ask: Ask, answer: Answer) -> None:
    iid = ask("Pick a store, narrow hints", selection_mode="multi", max_selections=3)
    pane = answer(iid, width=80, height=24)
    hints = pane.line_with("Enter submit").strip()
    assert "…" not in hints
    for hint in ("Space pick", "Enter submit", "w widen", "d defer", "q cancel"):
        assert hint in hints
    # the notes and the settings give way first to widening and deferring; the bar says how
    # many keys it left out, and `?` lists them all
    assert "g note to agent" not in hints and "Tab note" not in hints
    assert "a attach" not in hints
    assert hints.endswith("· ? help (+5)")
    pane.press("?")
    screen = pane.wait_for("Keys on this screen (↑↓ scroll, any other key closes this help):")
    pane.press(*["Down"] * 20)  # the help is taller than the window: scrolled to its end
    screen += pane.wait_for("  ? help  ")
    for hint in ("↑↓/jk move", "1-9 pick by number", "Tab note", "g note to agent", "h hide",
                 "a attach", "s settings", "? help"):
        assert f"  {hint}  " in screen


def test_hostile_text_is_drawn_without_reaching_the_terminal(
        ask: Ask, run: Run, client: PortalClient) -> None:
    iid = ask(f"Title {HOSTILE}", prompt=f"Prompt {HOSTILE}",
              options=[{"id": "bad", "label": f"Label {HOSTILE}", "description": HOSTILE},
                       {"id": "fine", "label": "Fine"}],
              context={"agent": f"agent {HOSTILE}"})
    pane = run("answer", iid)
    title = pane.title()
    screen = pane.wait_for("Title ␛␛␛red?nul evil", "Prompt ␛␛␛red?nul evil",
                           "› ( ) Label ␛␛␛red?nul evil", "agent ␛␛␛red?nul evil")
    assert "\u202e" not in screen and "pwned" not in screen
    only_tmux_attributes(pane)
    pane.press("Enter")
    assert pane.exit_code() == 0
    assert pane.output() == ['Selected "Label ␛␛␛red?nul evil" (bad).']
    only_tmux_attributes(pane)
    assert pane.title() == title and "pwned" not in title
    assert finished(client, iid)["selected_ids"] == ["bad"]


def only_tmux_attributes(pane: Pane) -> None:
    """With `-e`, capture-pane shows attributes as SGR sequences: only the UI's own (bold,
    dim, reverse, Markdown's italic and underline, the default colours) may be there,
    never a colour the text asked for."""
    screen = pane.screen(escapes=True)
    sequences = re.findall(r"\x1b[^a-zA-Z]*[a-zA-Z]", screen)
    assert all(s.endswith("m") for s in sequences), sequences
    codes = {code for s in sequences for code in s[2:-1].split(";") if code}
    assert codes <= {"0", "1", "2", "3", "4", "7", "22", "23", "24", "27", "37", "39", "40",
                     "49"}, codes
    assert "\x00" not in screen and "\x07" not in screen
