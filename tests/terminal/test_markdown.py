"""Markdown basics in a real terminal: the prompt, an option's description and its
rationale are drawn with curses attributes (bold, italic, underlined code), never with raw
`**` or backticks; the plain lines print the same text clean."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from choice.client.portal_client import PortalClient
from tests.portal_process import PortalProcess
from tests.terminal.conftest import Answer, Ask, finished, terminal_env

pytestmark = pytest.mark.slow
PROMPT = "Pick **one** store; run `make db` after.\n\n- *fast* to set up\n- easy to back up"
OPTIONS = [{"id": "pg", "label": "PostgreSQL", "description": "A **server**: `pg_ctl` starts it",
            "rationale": "Fits the **3-replica** deployment"},
           {"id": "lite", "label": "SQLite", "description": "A file"}]
BOLD, ITALIC, UNDERLINE = "\x1b[1m", "\x1b[3m", "\x1b[4m"


def test_markdown_is_drawn_with_attributes_and_no_marks(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Pick a store for `make db`, in Markdown", prompt=PROMPT, options=OPTIONS)
    pane = answer(iid, width=80, height=24)
    head = pane.wait_for("Pick a store for make db, in Markdown").splitlines()[0]
    assert "`" not in head  # inline code in a title shows as code
    assert f"{UNDERLINE}make" in pane.screen(escapes=True).splitlines()[0]
    screen = pane.wait_for("Pick one store; run make db after.", "• fast to set up",
                           "• easy to back up", "A server: pg_ctl starts it",
                           "Why: Fits the 3-replica deployment")
    assert "**" not in screen and "`" not in screen
    lines = pane.screen(escapes=True).splitlines()
    prompt = next(line for line in lines if "store; run" in line)
    assert f"{BOLD}one" in prompt and f"{UNDERLINE}make" in prompt
    assert f"{ITALIC}fast" in next(line for line in lines if "to set up" in line)
    why = next(line for line in lines if "Why:" in line)
    assert "3-replica" in why and BOLD in why.split("3-replica")[0].rsplit("Why:", 1)[1]
    pane.press("Enter")
    assert pane.exit_code() == 0
    assert finished(client, iid)["selected_ids"] == ["pg"]


def test_plain_lines_print_the_markdown_clean(portal: PortalProcess, ask: Ask,
                                              client: PortalClient) -> None:
    iid = ask("Pick a store, `Markdown` in plain lines", prompt=PROMPT, options=OPTIONS)
    env = {name: value for name, value in os.environ.items() if not name.startswith("CHOICE_")}
    done = subprocess.run([sys.executable, "-m", "choice.cli", "answer", iid, "--plain"],
                          input="2\n", env={**env, **terminal_env(portal)}, capture_output=True,
                          text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Pick a store, Markdown in plain lines"
    assert lines[1:5] == ["Pick one store; run make db after.", "", "• fast to set up",
                          "• easy to back up"]
    assert "  1) PostgreSQL — A server: pg_ctl starts it  Why: Fits the 3-replica deployment" \
        in lines
    assert "**" not in done.stdout and "`" not in done.stdout
    assert finished(client, iid)["selected_ids"] == ["lite"]


def test_a_numbered_list_in_a_rationale_keeps_its_lines(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    options = [{"id": "pg", "label": "PostgreSQL", "recommended": True,
                "rationale": "1. Already backed up nightly\n2. Team knows it"},
               {"id": "lite", "label": "SQLite", "rationale": "Fewer parts:\n\n- one file\n"
                "- nothing to run"}]
    iid = ask("Pick a store, a list of reasons", options=options)
    pane = answer(iid, width=80, height=24)
    screen = pane.wait_for("1. Already backed up nightly", "• nothing to run")
    lines = [line.strip() for line in screen.splitlines()]
    start = lines.index("Why:")
    assert lines[start:start + 3] == ["Why:", "1. Already backed up nightly",
                                      "2. Team knows it"]
    start = lines.index("Why: Fewer parts:")
    assert lines[start:start + 4] == ["Why: Fewer parts:", "", "• one file",
                                      "• nothing to run"]
    pane.press("Enter")
    assert pane.exit_code() == 0
    assert finished(client, iid)["selected_ids"] == ["pg"]
