"""The settings screen (`s`): preferences saved through the portal, and handing the question
over to the browser. Preferences are the portal's, so each test puts them back."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from choice.client.portal_client import PortalClient
from choice.contract.clock import parse_iso
from tests.portal_process import PortalProcess
from tests.terminal.conftest import Answer, Ask, events, finished
from tests.terminal.tmux import Pane

pytestmark = pytest.mark.slow
ROWS = ["Answer questions in", "Ask inside the agent's MCP client",
        "Default time to answer", "Language",
        "Offer notes on options", "Show the agent's placeholder text",
        "Navigation hints (the key bar)", "Note field focus",
        "Browser notifications and the chime", "Chime with each notification",
        "Chime volume (←/→ or Enter)", "Minutes left on this question",
        "Switch this question to the web", "Back to the question"]


@pytest.fixture(autouse=True)
def saved_preferences(client: PortalClient) -> Iterator[None]:
    before = client.settings()
    yield
    client.save_settings(before)


def open_settings(pane: Pane, row: str, key: str = "s") -> None:
    """`s` (or Ctrl-O, which works on the text line too), then down to `row`."""
    pane.press(key)
    pane.wait_for("Settings", "› Answer questions in")
    pane.press(*["j"] * ROWS.index(row))
    pane.wait_for(f"› {row}")


def test_toggling_a_setting_saves_the_preference_and_takes_effect(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Pick a store, hints off")
    pane = answer(iid)
    pane.wait_for("Enter submit")
    open_settings(pane, "Navigation hints (the key bar)")
    pane.wait_for("› Navigation hints (the key bar): on")
    pane.press("Enter")
    pane.wait_for("› Navigation hints (the key bar): off", "Saved.")
    assert client.settings()["terminal_hints"] is False
    pane.press("Escape")
    pane.wait_for("› ( ) PostgreSQL")
    screen = pane.wait_gone("Saved.")
    assert "Enter submit" not in screen  # the hint line is gone
    open_settings(pane, "Answer questions in")
    pane.wait_for("› Answer questions in: the browser")
    pane.press("Space")  # space changes a setting like Enter
    pane.wait_for("› Answer questions in: the terminal")
    assert client.settings()["interface"] == "terminal"
    pane.press("j")
    pane.wait_for("› Ask inside the agent's MCP client: never")
    pane.press("Enter")
    pane.wait_for("› Ask inside the agent's MCP client: with the client's own form")
    assert client.settings()["elicitation"] == "form"
    pane.press("Escape", "Enter")
    assert pane.exit_code() == 0
    assert finished(client, iid)["selected_ids"] == ["pg"]


def test_the_notification_trigger_cycles_and_the_chime_toggles(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Pick a store, quieter")
    pane = answer(iid)
    open_settings(pane, "Browser notifications and the chime")
    pane.wait_for("› Browser notifications and the chime: when the window is not focused")
    pane.press("Enter")
    pane.wait_for("› Browser notifications and the chime: when the tab is hidden", "Saved.")
    assert client.settings()["notifications"] == "hidden"
    pane.press("j")
    pane.wait_for("› Chime with each notification: on")
    pane.press("Enter")
    pane.wait_for("› Chime with each notification: off")
    assert client.settings()["sound"] is False
    pane.press("Escape", "Enter")
    assert pane.exit_code() == 0
    assert finished(client, iid)["selected_ids"] == ["pg"]


def test_the_default_time_to_answer_is_typed_in_minutes_and_checked(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Pick a store, new timeout")
    pane = answer(iid)
    open_settings(pane, "Default time to answer")
    pane.wait_for("› Default time to answer: 5 minutes")
    pane.press("Enter")
    pane.wait_for("Default time to answer (minutes): 5▏", "Enter save · Esc back")
    pane.press("BSpace")
    pane.type("2000")
    pane.press("Enter")
    pane.wait_for("Enter the minutes, up to 1440 (24 hours), e.g. 5.",
                  "› Default time to answer: 5 minutes")
    assert client.settings()["timeout_seconds"] == 300
    pane.press("Enter")
    pane.wait_for("Default time to answer (minutes): 5▏")
    pane.press("BSpace")
    pane.type("9")
    pane.press("Enter")
    pane.wait_for("› Default time to answer: 9 minutes", "Saved.")
    assert client.settings()["timeout_seconds"] == 540
    pane.press("q")
    pane.wait_for("› ( ) PostgreSQL")
    pane.press("q", "Enter")
    assert pane.exit_code() == 3


def test_the_placeholder_shows_only_when_the_setting_says_so(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    first = ask("Name a store, placeholder on", selection_mode="text_input",
                placeholder="e.g. Valkey")
    pane = answer(first)
    pane.wait_for("e.g. Valkey", "^O settings")  # on the text line `s` types: Ctrl-O
    open_settings(pane, "Show the agent's placeholder text", key="C-o")
    pane.press("Enter")
    pane.wait_for("› Show the agent's placeholder text: off", "Saved.")
    assert client.settings()["show_placeholder"] is False
    pane.press("Escape")
    pane.wait_for("› Your answer:")
    pane.type("Valkey")
    pane.press("Enter")
    assert pane.exit_code() == 0
    assert finished(client, first)["placeholder_shown"] is True
    later = ask("Name a store, placeholder off", selection_mode="text_input",
                placeholder="e.g. Valkey")
    pane = answer(later)
    screen = pane.wait_for("› Your answer: ▏")
    assert "e.g. Valkey" not in screen
    pane.type("KeyDB")
    pane.press("Enter")
    assert pane.exit_code() == 0
    result = finished(client, later)
    assert (result["custom_input"], result["placeholder_shown"]) == ("KeyDB", False)


def test_switching_to_the_web_closes_the_terminal_and_prints_a_sign_in_link(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Pick a store, in the browser")
    deadline = client.poll(iid, 0)["expires_at"]
    pane = answer(iid)
    open_settings(pane, "Switch this question to the web")
    pane.press("Enter")
    assert pane.exit_code() == 5
    [line] = pane.output()
    found = re.fullmatch(r"Continued in the browser: open (http://127\.0\.0\.1:\d+/login\?code=\S+)",
                         line)
    assert found, line
    assert f"next=/choice/{iid}" in found.group(1)
    pending = client.poll(iid, 0)
    assert (pending["status"], pending["interface"]) == ("pending", "web")
    assert pending["expires_at"] == deadline  # the same question, the same deadline
    assert ("interface_switched", "human:terminal") in events(client, iid)
    signed_in = httpx.get(found.group(1), follow_redirects=False)
    assert signed_in.is_redirect and signed_in.headers["location"].endswith(f"/choice/{iid}")


@pytest.mark.parametrize(("flag", "opens"), [("false", False), ("0", False), ("1", True)])
def test_switching_to_the_web_opens_a_browser_only_when_choice_open_browser_allows(
        ask: Ask, answer: Answer, client: PortalClient, tmp_path: Path, flag: str,
        opens: bool) -> None:
    """`CHOICE_OPEN_BROWSER` reads as everywhere else (`false` is off); `$BROWSER` is a
    script that records the link it was asked to open."""
    opened = tmp_path / "opened"
    browser = tmp_path / "browser"
    browser.write_text(f'#!/bin/sh\necho "$1" >> {opened}\n')
    browser.chmod(0o755)
    iid = ask(f"Pick a store, in the browser, opening with {flag}")
    pane = answer(iid, env={"CHOICE_OPEN_BROWSER": flag, "BROWSER": str(browser), "CI": ""})
    open_settings(pane, "Switch this question to the web")
    pane.press("Enter")
    assert pane.exit_code() == 5
    [line] = pane.output()
    if opens:
        assert line == "Continued in the browser."
        assert f"next=/choice/{iid}" in opened.read_text()
    else:
        assert line.startswith("Continued in the browser: open http://127.0.0.1:")
        assert not opened.exists()


def stream_updates(portal: PortalProcess, interaction_id: str,
                   seen: list[dict[str, Any]], listening: threading.Event,
                   updated: threading.Event) -> None:
    """What every open page hears: `/api/stream`'s `interaction.updated` for this question."""
    headers = {"Authorization": f"Bearer {portal.token}"}
    with httpx.stream("GET", f"{portal.base_url}/api/stream", headers=headers,
                      timeout=20) as response:
        kind = ""
        for line in response.iter_lines():
            listening.set()
            if line.startswith("event: "):
                kind = line.removeprefix("event: ")
            elif line.startswith("data: ") and kind == "interaction.updated":
                change = json.loads(line.removeprefix("data: "))
                if change.get("interaction_id") == interaction_id:
                    seen.append(change)
                    updated.set()
                    return


def test_the_settings_change_this_questions_time_left_and_every_page_hears_it(
        ask: Ask, answer: Answer, client: PortalClient, portal: PortalProcess) -> None:
    """The timeout override affects the current question, like the web's "This
    question" panel (a PATCH of its deadline), not only the default for the next ones."""
    iid = ask("Pick a store, more time")  # five minutes
    seen: list[dict[str, Any]] = []
    listening, updated = threading.Event(), threading.Event()
    listener = threading.Thread(target=stream_updates, daemon=True,
                                args=(portal, iid, seen, listening, updated))
    listener.start()
    assert listening.wait(10)
    pane = answer(iid)
    assert pane.line_with(" left").rstrip().endswith(("5:00 left", "4:59 left", "4:58 left"))
    open_settings(pane, "Minutes left on this question")
    pane.wait_for("› Minutes left on this question: 5")
    pane.press("Enter")
    pane.wait_for("Minutes left to answer: 5▏", "Enter save · Esc back")
    pane.press("BSpace")
    pane.type("soon")
    pane.press("Enter")
    pane.wait_for("Enter the minutes left, e.g. 5.", "› Minutes left on this question: 5")
    assert not updated.is_set()  # refused here: nothing reached the portal
    pane.press("Enter", "^U")
    pane.type("20")
    pane.press("Enter")
    pane.wait_for("› Minutes left on this question: 20", "Saved.")
    assert updated.wait(10)
    moved = client.poll(iid, 0)["expires_at"]
    assert seen[0]["expires_at"] == moved
    left = parse_iso(moved) - time.time()
    assert 19 * 60 < left <= 20 * 60
    assert ("deadline_changed", "human:terminal") in events(client, iid)
    assert client.settings()["timeout_seconds"] == 300  # the default for new ones is untouched
    pane.press("Escape")
    assert pane.line_with(" left").rstrip().endswith(("20:00 left", "19:59 left", "19:58 left"))
    pane.press("Enter")
    assert pane.exit_code() == 0


def test_the_minutes_given_to_this_question_can_become_the_default_time(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Pick a store, and keep the time")
    pane = answer(iid, width=80)
    open_settings(pane, "Minutes left on this question")
    assert "as my default time" not in pane.screen()  # offered only once changed here
    pane.press("Enter", "^U")
    pane.type("30")
    pane.press("Enter")
    pane.wait_for("› Minutes left on this question: 30", "Saved.")
    pane.press("j")
    screen = pane.wait_for("› Use 30 minutes as my default time")
    assert all(len(line.rstrip()) <= 80 for line in screen.splitlines())
    assert client.settings()["timeout_seconds"] == 300  # not before it is asked for
    pane.press("Enter")
    pane.wait_for("› 30 minutes is your default time now", "Saved.")
    assert client.settings()["timeout_seconds"] == 1800
    pane.press("Escape", "Enter")
    assert pane.exit_code() == 0


def test_the_offer_comes_back_when_the_question_is_opened_again(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    """The time given is read back from the audit trail (`human:terminal`), as the page
    does: leaving and reopening `choice answer` keeps the offer."""
    iid = ask("Pick a store, then come back to it")
    pane = answer(iid, width=80)
    open_settings(pane, "Minutes left on this question")
    pane.press("Enter", "^U")
    pane.type("45")
    pane.press("Enter")
    pane.wait_for("› Minutes left on this question: 45", "Saved.")
    pane.press("C-c")  # leave without answering: the question stays open
    pane.exit_code()
    again = answer(iid, width=80)
    open_settings(again, "Minutes left on this question")
    again.press("j")
    again.wait_for("› Use 45 minutes as my default time")
    assert ("deadline_changed", "human:terminal") in events(client, iid)
    again.press("Escape", "Enter")
    assert again.exit_code() == 0


def test_continuing_in_the_browser_can_make_it_the_default(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    client.save_settings({"interface": "terminal"})
    iid = ask("Pick a store, browser from now on")
    pane = answer(iid, width=80)
    open_settings(pane, "Switch this question to the web")
    pane.press("j")
    pane.wait_for("› Continue in the browser and make the browser my default")
    pane.press("Enter")
    assert pane.exit_code() == 5
    assert client.settings()["interface"] == "web"
    assert client.poll(iid, 0)["interface"] == "web"


def test_the_chime_volume_row_steps_types_and_refuses_what_is_out_of_range(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    client.save_settings({"sound_volume": 50})
    iid = ask("Pick a store, softer")
    pane = answer(iid, width=80)
    open_settings(pane, "Chime volume (←/→ or Enter)")
    pane.wait_for("› Chime volume (←/→ or Enter): 50")
    pane.press("Left")
    pane.wait_for("› Chime volume (←/→ or Enter): 40", "Saved.")
    assert client.settings()["sound_volume"] == 40
    pane.press("Enter", "^U")
    pane.type("loud")
    pane.press("Enter")
    pane.wait_for("Enter a volume from 0 (silent) to 100, e.g. 50.")
    assert client.settings()["sound_volume"] == 40
    pane.press("Enter", "^U")
    pane.type("15")
    pane.press("Enter")
    pane.wait_for("› Chime volume (←/→ or Enter): 15", "Saved.")
    assert client.settings()["sound_volume"] == 15
    pane.press("Escape", "Enter")
    assert pane.exit_code() == 0


def test_the_note_focus_row_persists_and_a_pick_then_opens_its_note_in_the_next_run(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    """The terminal's settings have the annotation focus behaviour, saved."""
    client.save_settings({"note_focus": "tab", "allow_annotations": True})
    first = ask("Pick a store, note focus")
    pane = answer(first, width=80, height=24)
    open_settings(pane, "Note field focus")
    pane.wait_for("› Note field focus: Tab opens a note")
    pane.press("Enter")
    pane.wait_for("› Note field focus: a pick opens its note", "Saved.")
    assert client.settings()["note_focus"] == "pick"
    pane.press("q")
    pane.press("q", "Enter")  # cancel this one: the setting is what counts
    assert pane.exit_code() == 3

    second = ask("Pick a store, the note opens")
    again = answer(second, width=80, height=24)
    again.press("2")
    again.wait_for("Note on SQLite: ▏")
    again.type("small")
    again.press("Enter")
    again.wait_for("2 › (•) SQLite", "Note: small")  # the focus is back on the option
    again.press("Enter")
    assert again.exit_code() == 0
    assert finished(client, second)["option_annotations"] == {"lite": "small"}
