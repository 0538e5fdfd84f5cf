"""`choice ask` in a terminal asks right there, when stdin is an interactive terminal
(docs/guides/choice-ask.md#where-the-question-is-asked); without one, or with
`--interface web`, it keeps pointing at the browser and the API."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from choice.client.portal_client import PortalClient
from tests.portal_process import PortalProcess
from tests.terminal.conftest import Run, finished, terminal_env

pytestmark = pytest.mark.slow
STORES = ["--prompt", "A shell script asks.", "--option", "pg=PostgreSQL",
          "--option", "lite=SQLite", "--timeout", "120", "--no-start"]


def test_choice_ask_in_a_terminal_asks_in_the_terminal_ui_by_default(
        run: Run, client: PortalClient) -> None:
    assert client.settings()["interface"] == "web"  # the saved preference says web
    pane = run("ask", "Pick a store, asked in a terminal", *STORES, height=50)
    screen = pane.wait_for("Pick a store, asked in a terminal", "› ( ) PostgreSQL", "left")
    assert "Waiting for an answer to" not in screen  # the UI, not the pointers to it
    pane.press("j", "Enter")
    assert pane.exit_code() == 0
    output = pane.output()
    assert output[0] == 'Selected "SQLite" (lite).'
    result = json.loads("\n".join(output[1:]))
    assert (result["interface"], result["selected_ids"]) == ("terminal", ["lite"])
    assert finished(client, result["interaction_id"])["answered_via"] == "terminal"


def test_choice_ask_in_a_terminal_with_interface_web_still_points_at_the_browser(
        run: Run, client: PortalClient) -> None:
    pane = run("ask", "Pick a store, web on purpose", *STORES, "--interface", "web")
    screen = pane.wait_for("Waiting for an answer to: Pick a store, web on purpose",
                           "in the browser:")
    assert "› ( ) PostgreSQL" not in screen
    [row] = [r for r in client.list("active")["interactions"]
             if r["title"] == "Pick a store, web on purpose"]
    client.respond(row["interaction_id"], {"selected_ids": ["pg"]})
    assert pane.exit_code() == 0


def test_choice_ask_without_a_terminal_keeps_pointing_at_the_browser(
        portal: PortalProcess, client: PortalClient) -> None:
    env = {name: value for name, value in os.environ.items() if not name.startswith("CHOICE_")}
    process = subprocess.Popen(
        [sys.executable, "-m", "choice.cli", "ask", "Pick a store, from a pipe", *STORES],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**env, **terminal_env(portal)})
    try:
        assert process.stderr is not None
        said = [process.stderr.readline() for _ in range(4)]  # blocks until it says them
        assert said[0].strip() == "Waiting for an answer to: Pick a store, from a pipe"
        found = re.search(r"choice answer (\S+)", said[2])
        assert found, said
        iid = found.group(1)
        assert client.detail(iid)["interface"] == "web"  # auto: the saved preference
        client.respond(iid, {"selected_ids": ["pg"]})
        out, _ = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0
    assert json.loads(out)["selected_ids"] == ["pg"]
