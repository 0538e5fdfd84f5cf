"""`choice list --status widened`: an agent's end-of-run pass over what is still pending,
against this module's own portal (so no other test's widened question shows up in it)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from choice.client.portal_client import PortalClient
from choice.terminal.text import width
from tests.portal_process import PortalProcess
from tests.terminal.conftest import Ask, terminal_env

pytestmark = pytest.mark.slow


def choice_list(portal: PortalProcess, *args: str) -> subprocess.CompletedProcess[str]:
    env = {name: value for name, value in os.environ.items()
           if not name.startswith("CHOICE_") and name not in ("COLUMNS", "LINES")}
    return subprocess.run([sys.executable, "-m", "choice.cli", "list", *args],
                          env={**env, **terminal_env(portal)}, capture_output=True, text=True,
                          timeout=30)


def test_nothing_widened_says_so_on_stderr_and_succeeds(portal: PortalProcess) -> None:
    done = choice_list(portal, "--status", "widened")
    assert (done.returncode, done.stdout) == (0, "")
    assert done.stderr.strip() == "No widened questions are pending."


def test_each_widened_question_is_listed_with_its_people_and_how_to_answer_it(
        ask: Ask, client: PortalClient, portal: PortalProcess) -> None:
    client.save_settings({"team": [{"name": "Alice Johnson"}, {"name": "Carol Lee"},
                                   {"name": "王小明"}]})
    waits = ask("Which message queue should the billing service use for outbound invoices "
                "and their reminders?")
    carries_on = ask("Pick the cache")
    untouched = ask("Pick the logger")
    client.widen(waits, None, "block")
    invited = client.widen(carries_on, ["王小明"], "continue")
    secret = invited["participants"][0]["link"].rsplit("/", 1)[1]
    PortalClient(portal.base_url, None).call("GET", f"/api/d/{secret}")
    PortalClient(portal.base_url, None).call("POST", f"/api/d/{secret}/comments",
                                             {"text": "Redis."})

    done = choice_list(portal, "--status", "widened")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:4] == [
        "╭─ Pending widened questions " + "─" * 46 + "╮",
        "│ 2 widened questions are still pending. Answer them with `choice answer   │",
        "│ <id>` (or in the browser) before you finish.                             │",
        "╰" + "─" * 74 + "╯"]
    newest = lines[lines.index("(1/2) Question: Pick the cache"):]
    assert re.fullmatch(r" {6}Widened at: \d{4}-\d\d-\d\d \d\d:\d\d UTC", newest[1])
    assert newest[2:5] == ["      Participants (✓ opened their link): 王小明 ✓",
                           "      Discussion: 1 message",
                           "      The agent was told to carry on; it collects the decision later."]
    assert re.fullmatch(r" {6}Deadline: \d{4}-\d\d-\d\d \d\d:\d\d UTC", newest[5])
    assert newest[6] == f"      Answer: choice answer {carries_on}"
    text = "\n".join(lines)
    assert ("(2/2) Question: Which message queue should the billing service use for outbound\n"
            "      invoices and their reminders?") in text
    assert "      Participants: Alice Johnson, Carol Lee, 王小明\n" in text
    assert "      The agent keeps waiting until you decide." in text
    assert f"choice answer {waits}" in text and untouched not in text
    assert max(width(line) for line in lines) <= 79  # readable in 80 columns

    client.respond(carries_on, {"selected_ids": ["lite"]})  # decided: it leaves the pass
    lines = choice_list(portal, "--status", "widened").stdout.splitlines()
    assert "│ 1 widened question is still pending. Answer it with `choice answer <id>` │" in lines
    assert "(1/1) Question: Which message queue should the billing service use for outbound" \
        in lines

    everything = choice_list(portal, "--status", "active").stdout  # the other formats stay
    assert re.search(rf"^{waits}  widened +terminal ", everything, re.M) is not None
    assert re.search(rf"^{untouched}  pending +terminal ", everything, re.M) is not None
