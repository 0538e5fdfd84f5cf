"""Hostile model text in a real terminal (tmux): escape sequences (colour, window title, clear
screen, cursor moves, OSC 8 links, tmux passthrough), 8-bit C1 controls, carriage returns,
bidi overrides, line separators and NUL in every field `choice answer <id>` shows, in the
full-screen UI and in plain lines, in its closing line, and in `choice list`. None of it may
drive the terminal: the window title stays, no colour comes from the text, nothing is wiped,
and each payload shows in a visible, printable form. The largest question the contract
allows draws and answers within a bounded wait.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import unicodedata
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from choice import contract
from choice.client.portal_client import PortalClient
from tests.portal_process import PortalProcess
from tests.security.payloads import TERMINAL, Marked, joined, marked, packed
from tests.tally import Seen, attacks
from tests.terminal.conftest import terminal_env
from tests.terminal.tmux import Pane, need_tmux

pytestmark = pytest.mark.slow
ITEMS = marked(TERMINAL)
TITLES = packed(ITEMS, contract.TITLE_MAX)  # two groups: title and agent swap between questions
WIDTH, HEIGHT = 200, 80
# With -e, capture-pane writes the cells' attributes as SGR: only the UI's own may be there
# (bold, dim, reverse, and the italic and underline Markdown's emphasis and code are drawn
# with, and the default colours), never a colour the text asked for.
UI_ATTRIBUTES = {"0", "1", "2", "3", "4", "7", "22", "23", "24", "27", "37", "39", "40", "49"}
DRAW_SECONDS = 10.0

Run = Callable[..., Pane]
Counts = dict[int, int]


@pytest.fixture
def run(portal: PortalProcess) -> Iterator[Run]:
    """`run("answer", id)`: a `choice` command in its own tmux pane, 200 x 80 unless asked."""
    need_tmux()
    panes: list[Pane] = []

    def run_(*args: str, width: int = WIDTH, height: int = HEIGHT) -> Pane:
        pane = Pane([sys.executable, "-m", "choice.cli", *args], terminal_env(portal),
                    width=width, height=height)
        panes.append(pane)
        return pane.start()

    yield run_
    for pane in panes:
        pane.kill()


def hostile_question(client: PortalClient, title: list[Marked], agent: list[Marked]) -> str:
    """A hybrid question (options and free text) with payloads in every field the terminal
    shows: title, prompt, labels, descriptions, rationales, placeholder and agent."""
    created = client.create({
        "title": joined(title), "prompt": "\n".join(item.text for item in ITEMS),
        "selection_mode": "hybrid", "max_selections": len(ITEMS), "placeholder": joined(ITEMS),
        "interface": "terminal",
        "options": [{"id": f"o{item.number}", "label": item.text, "description": item.text,
                     "rationale": item.text} for item in ITEMS],
        "context": {"agent": joined(agent), "project": joined(agent)},
        "timeout_seconds": 300,
    })
    return str(created["interaction_id"])


def counts(*groups: list[Marked]) -> Counts:
    """How often each payload should show: once per group it is in."""
    found: Counts = {}
    for group in groups:
        for item in group:
            found[item.number] = found.get(item.number, 0) + 1
    return found


def shown_safely(screen: str, expected: Counts, seen: Seen) -> None:
    """Each payload shows as often as expected, and only printable characters stand where
    it was: one attempt per (payload, place) it should show in."""
    for item in ITEMS:
        places = item.every_between(screen)
        wanted = expected.get(item.number, 0)
        if len(places) > wanted:
            seen.miss(f"payload {item.number} shows {len(places)} times, not {wanted}: {places}")
        for index in range(wanted):
            between = places[index] if index < len(places) else None
            controls = [c for c in between or "" if c != "\n" and unicodedata.category(c)[0] == "C"]
            seen.refused_if(between is not None and between.strip() != "" and controls == [],
                            (item.number, between))


def all_shown(expected: Counts) -> Callable[[str], bool]:
    return lambda screen: all(len(item.every_between(screen)) >= expected.get(item.number, 0)
                              for item in ITEMS)


def terminal_problems(pane: Pane, title: str) -> list[str]:
    """What the text did to the terminal: the window title changed, a colour or a link came
    from it, OSC, NUL or BEL reached the screen. Empty when untouched."""
    now = pane.title()
    screen = pane.screen(escapes=True)
    sequences = re.findall(r"\x1b[^a-zA-Z]*[a-zA-Z]", screen)
    codes = {code for sequence in sequences for code in sequence[2:-1].split(";") if code}
    return [problem for problem, happened in [
        (f"the title is now {now!r}", now != title or "PWNED" in now),
        (f"sequences other than SGR: {sequences}", not all(s.endswith("m") for s in sequences)),
        (f"attributes the UI never sets: {codes - UI_ATTRIBUTES}", not codes <= UI_ATTRIBUTES),
        ("OSC, NUL or BEL on the screen", any(c in screen for c in ("\x1b]", "\x00", "\x07"))),
    ] if happened]


def terminal_untouched(pane: Pane, title: str, seen: Seen) -> None:
    """One attempt per look at the terminal: refused when the text did nothing to it."""
    problems = terminal_problems(pane, title)
    seen.refused_if(problems == [], problems)


def assert_terminal_untouched(pane: Pane, title: str) -> None:
    """For tests that check the terminal without counting (`tests/terminal/`)."""
    assert terminal_problems(pane, title) == []


def test_the_full_screen_ui_and_its_closing_line_show_escapes_as_text(
        run: Run, client: PortalClient) -> None:
    first, second = TITLES
    iid = hostile_question(client, first, second)
    pane = run("answer", iid)
    title = pane.title()
    # title, agent; then prompt, label, description, rationale and placeholder for every payload
    expected = counts(first, second, ITEMS, ITEMS, ITEMS, ITEMS, ITEMS)
    with attacks("Hostile text in the terminal") as seen:
        screen = pane.wait_until(all_shown(expected), "every payload on the screen", DRAW_SECONDS)
        shown_safely(screen, expected, seen)
        terminal_untouched(pane, title, seen)

        # answered elsewhere, with hostile notes: the UI closes with the summary line
        chosen = [ITEMS[0], ITEMS[3], ITEMS[7]]
        client.respond(iid, {"selected_ids": [f"o{item.number}" for item in chosen],
                             "option_annotations": {f"o{item.number}": item.text
                                                    for item in chosen},
                             "global_annotation": ITEMS[4].text})
        assert pane.exit_code() == 0
        closing = "\n".join(pane.output())
        assert closing.startswith("Already finished elsewhere: Selected ")
        shown_safely(closing, counts(chosen, chosen, [ITEMS[4]]), seen)
        terminal_untouched(pane, title, seen)


def test_plain_lines_and_the_list_show_escapes_as_text(run: Run, client: PortalClient) -> None:
    first, second = TITLES
    iid = hostile_question(client, second, first)
    pane = run("answer", iid, "--plain")
    title = pane.title()
    pane.wait_for("| [!cancel])")
    pane.type("1")
    pane.press("Enter")
    assert pane.exit_code() == 0
    output = "\n".join(pane.output())
    with attacks("Hostile text in the terminal") as seen:
        # title, prompt, label, description and rationale (one line each option),
        # placeholder, the summary
        shown_safely(output, counts(second, ITEMS, ITEMS, ITEMS, ITEMS, ITEMS, [ITEMS[0]]),
                     seen)
        terminal_untouched(pane, title, seen)
        assert client.poll(iid, 0)["selected_ids"] == ["o1"]

        listed = [hostile_question(client, first, second),
                  hostile_question(client, second, first)]
        pane = run("list", "--status", "active")
        title = pane.title()
        assert pane.exit_code() == 0
        lines = pane.output()
        assert sorted(line.split()[0] for line in lines) == sorted(listed)
        shown_safely("\n".join(lines), counts(first, second), seen)
        terminal_untouched(pane, title, seen)
    for iid in listed:
        client.cancel(iid)


def test_the_largest_allowed_question_draws_and_answers_within_a_bounded_wait(
        run: Run, client: PortalClient, portal: PortalProcess) -> None:
    """Every field at its limit (about 180,000 characters of text in all, escapes included):
    the UI draws, moves and submits without hanging, and so do plain lines through a pipe."""
    hostile = "".join(TERMINAL)

    def filled(limit: int, head: str = "") -> str:
        return (head + hostile + "x" * limit)[:limit]

    request: dict[str, Any] = {
        "title": filled(contract.TITLE_MAX, "Largest "), "prompt": filled(contract.PROMPT_MAX),
        "selection_mode": "hybrid", "placeholder": filled(contract.PLACEHOLDER_MAX),
        "interface": "terminal",
        "options": [{"id": f"o{n}", "label": filled(contract.LABEL_MAX, f"{n:02d} "),
                     "description": filled(contract.DESCRIPTION_MAX),
                     "rationale": filled(contract.RATIONALE_MAX)}
                    for n in range(contract.MAX_OPTIONS)],
        "context": {"agent": filled(contract.CONTEXT_VALUE_MAX)},
    }
    assert sum(len(v) for v in (request["title"], request["prompt"])) + sum(
        len(o["label"]) + len(o["description"]) + len(o["rationale"])
        for o in request["options"]) > 100_000
    iid = str(client.create(request)["interaction_id"])
    pane = run("answer", iid, width=100, height=30)
    title = pane.title()
    with attacks("Hostile text in the terminal") as seen:
        pane.wait_for("Largest", "left", timeout=DRAW_SECONDS)
        pane.press("j", "j", "j")
        pane.wait_for("› ( ) 03 ", timeout=DRAW_SECONDS)
        pane.press("Space", "Enter")
        assert pane.exit_code(timeout=DRAW_SECONDS) == 0
        terminal_untouched(pane, title, seen)
        assert client.poll(iid, 0)["selected_ids"] == ["o3"]

        piped = str(client.create({**request, "title": "Largest, piped"})["interaction_id"])
        env = {name: value for name, value in os.environ.items()
               if not name.startswith("CHOICE_")}
        done = subprocess.run([sys.executable, "-m", "choice.cli", "answer", piped],
                              input="2\n", env={**env, **terminal_env(portal)},
                              capture_output=True, text=True, timeout=DRAW_SECONDS)
        assert done.returncode == 0, done.stderr
        leaked = {"\x1b", "\x9b", "\x00", "\x07"} & set(done.stdout)
        seen.refused_if(not leaked, ("piped plain lines", leaked))
    assert client.poll(piped, 0)["selected_ids"] == ["o1"]
