"""Hostile text in the widen flow, in a real terminal: escape sequences, C1 controls, bidi
overrides, NUL and the like in the agent's `widen_hint` and in participants' comments, wide
and long names, and hostile names typed at `Audience >`. As for the question itself
(tests/security/test_hostile_text_terminal.py): none of it may drive the terminal, and each
payload shows in a visible, printable form."""

from __future__ import annotations

import os
import subprocess
import sys
import unicodedata
from collections.abc import Iterator

import pytest

from choice import contract
from choice.client.portal_client import PortalClient
from choice.terminal.text import width
from tests.portal_process import PortalProcess
from tests.security.payloads import TERMINAL, Marked, joined, marked, packed
from tests.security.test_hostile_text_terminal import assert_terminal_untouched
from tests.terminal.conftest import Ask, terminal_env
from tests.terminal.test_widen import links_on
from tests.terminal.tmux import Pane, need_tmux

pytestmark = pytest.mark.slow
ITEMS = marked(TERMINAL)
ONE_LINE = [item for item in ITEMS if "\r" not in item.payload and "\n" not in item.payload]
HINTS = packed(ONE_LINE, contract.WIDEN_HINT_MAX)
COMMENTS = packed(ITEMS, 150)  # each comment fits one line of a 200-column screen
WIDE = "王" * 30 + "明"  # 62 cells: a long name in a wide script
LONG = "Bartholomew " + "x" * 80  # near NAME_MAX
assert len(LONG) <= contract.NAME_MAX and len(COMMENTS) <= 3


@pytest.fixture
def pane_for(portal: PortalProcess) -> Iterator[list[Pane]]:
    need_tmux()
    panes: list[Pane] = []
    yield panes
    for pane in panes:
        pane.kill()


def shown_once_safely(screen: str, items: list[Marked]) -> None:
    for item in items:
        places = item.every_between(screen)
        assert len(places) >= 1, (item.number, screen)
        for between in places:
            controls = [c for c in between if c != "\n" and unicodedata.category(c)[0] == "C"]
            assert controls == [] and between.strip(), (item.number, between)


def teammate_writes(portal: PortalProcess, link_secret: str) -> None:
    teammate = PortalClient(portal.base_url, None)
    teammate.call("GET", f"/api/d/{link_secret}")
    for group in COMMENTS:
        teammate.call("POST", f"/api/d/{link_secret}/comments", {"text": joined(group)})


def test_the_full_screen_ui_draws_hostile_hints_comments_and_names_as_text(
        ask: Ask, client: PortalClient, portal: PortalProcess, pane_for: list[Pane]) -> None:
    client.save_settings({"team": [{"name": WIDE}, {"name": LONG}]})
    iid = ask("Pick a store, hostile thread", widen_hint=joined(HINTS[0]))
    pane = Pane([sys.executable, "-m", "choice.cli", "answer", iid], terminal_env(portal),
                width=200, height=60).start()
    pane_for.append(pane)
    title = pane.title()
    screen = pane.wait_for("left", "asked at", "w widen")
    shown_once_safely(screen, HINTS[0])
    pane.press("w")
    pane.wait_for("Default audience for this decision:", "Audience >")
    pane.press("Enter", "b")
    screen = pane.wait_for("Send each person their own link")
    secrets = links_on(screen)
    assert list(secrets) == [WIDE, LONG]
    column = {width(line[:line.index("http://")]) for line in screen.splitlines() if "/d/" in line}
    assert len(column) == 1  # the links line up whatever the names' widths (62 vs 92 cells)
    teammate_writes(portal, secrets[WIDE])
    pane.press("j")  # the waiting box, with who opened their link
    screen = pane.wait_for(f"{WIDE} ✓", f"Discussion ({len(COMMENTS)} messages):")
    shown_once_safely(screen, ITEMS)
    assert_terminal_untouched(pane, title)
    client.cancel(iid)
    assert pane.exit_code() == 3
    assert_terminal_untouched(pane, title)


def test_plain_lines_refuse_hostile_typed_names_and_print_hostile_comments_as_text(
        ask: Ask, client: PortalClient, portal: PortalProcess) -> None:
    client.save_settings({"team": [{"name": "Bob Smith"}]})
    iid = ask("Pick a store, hostile plain thread", widen_hint=joined(HINTS[0]))
    invited = client.widen(iid, ["Bob Smith"], "block")
    teammate_writes(portal, invited["participants"][0]["link"].rsplit("/", 1)[1])
    other = ask("Pick a store, hostile names typed")
    env = {name: value for name, value in os.environ.items() if not name.startswith("CHOICE_")}

    def plain(interaction_id: str, stdin: str) -> str:
        done = subprocess.run([sys.executable, "-m", "choice.cli", "answer", interaction_id],
                              input=stdin, env={**env, **terminal_env(portal)},
                              capture_output=True, text=True, timeout=30)
        assert not {"\x1b", "\x9b", "\x9d", "\x00", "\x07", "\u202e"} & set(done.stdout)
        return done.stdout

    shown = plain(iid, "f\n2\n")  # already widened: the discussion first, `f` prints it again
    shown_once_safely(shown, HINTS[0])
    shown_once_safely(shown, ITEMS)
    assert shown.count(f"Discussion ({len(COMMENTS)} messages):") == 2

    typed = plain(other, "w\n\x1b]0;PWNED\x07Eve, \u202eMallory\ncancel\n!cancel\n")
    assert "a name may not hold control or invisible format characters" in typed
    assert "Not widened: nothing changed." in typed
    assert client.poll(other, 0)["action_status"] == "cancelled"
    assert client.team(other)["participants"] == []
