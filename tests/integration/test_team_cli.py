"""`choice ask` on a question the owner widens: it keeps waiting through `widened` (that is
not a result), says so on stderr once, and prints the owner's decision when it comes."""

from __future__ import annotations

import json
from typing import Any

import pytest

from choice.cli.ask import wait_for_result
from tests.integration.test_cli import ASK, Asking, choice, env_for
from tests.portal_process import PortalProcess

WIDENED_NOTE = "the question was widened to"


def wait_for_line(asking: Asking, text: str, timeout: float = 20.0) -> None:
    """Read `choice ask`'s stderr until a line holds `text` (each read bounded)."""
    while not any(text in line for line in asking.stderr):
        line = asking._lines.get(timeout=timeout)
        assert line is not None, "choice ask ended early:\n" + "".join(asking.stderr)


@pytest.mark.slow
def test_ask_waits_through_a_widen_and_prints_the_owners_decision(portal: PortalProcess) -> None:
    asking = Asking(choice(*ASK, env=env_for(portal)))
    iid = asking.interaction_id()
    client = portal.client()
    client.call("POST", f"/api/interactions/{iid}/widen",
                {"audience": ["Alice", "Bob"], "mode": "continue"})
    wait_for_line(asking, WIDENED_NOTE)  # a continue widen answers its poll at once
    assert asking.process.poll() is None  # still waiting for the decision
    client.call("POST", f"/api/interactions/{iid}/response", {"selected_ids": ["pg"]})
    code, stdout = asking.finish()
    said = "".join(asking.all_stderr())
    result = json.loads(stdout)
    assert code == 0 and result["status"] == "submitted" and result["selected_ids"] == ["pg"]
    assert said.count(WIDENED_NOTE) == 1 and "Alice, Bob" in said


class ScriptedPortal:
    """Polls answer from a script: what a portal says over several windows."""

    def __init__(self, replies: list[dict[str, Any]]) -> None:
        self.replies = replies
        self.polls = 0

    def poll(self, interaction_id: str, wait: float = 0, *,
             candidates: bool = True) -> dict[str, Any]:
        assert not candidates  # `choice ask` cannot summarise: never handed the request
        self.polls += 1
        return self.replies.pop(0)


def test_the_widened_note_is_given_once_however_many_windows_pass() -> None:
    widened = {"status": "widened", "action_status": "widened", "participants": ["Alice"]}
    portal = ScriptedPortal([{"status": "pending"}, widened, dict(widened), dict(widened),
                             {"status": "submitted", "action_status": "selected"}])
    heard: list[dict[str, Any]] = []
    result = wait_for_result(portal, "abc", heard.append)  # type: ignore[arg-type]
    assert result["status"] == "submitted" and portal.polls == 5
    assert heard == [widened]
