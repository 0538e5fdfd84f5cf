"""Drafts in a real terminal: what is picked and typed in `choice answer` (full screen or
`--plain` lines) reaches the portal's draft (so the browser shows it), and a question opens
from the portal's draft (typed in the browser). Waits are on the screen or on a bounded poll
of the stored draft."""

from __future__ import annotations

from typing import Any

import pytest

from choice.client.portal_client import PortalClient
from tests.reliability.faults import wait_until
from tests.terminal.conftest import Answer, Ask, Run, finished
from tests.terminal.test_questions import ask_several

pytestmark = pytest.mark.slow


def draft_of(client: PortalClient, iid: str, wanted: dict[str, Any]) -> dict[str, Any]:
    seen: list[dict[str, Any]] = [{}]

    def holds() -> bool:
        seen[0] = client.call("GET", f"/api/interactions/{iid}/draft")
        return bool(seen[0]["draft"] == wanted)

    wait_until(holds, timeout=8, what=f"the draft {wanted} of {iid}")
    return dict(seen[0])


def test_what_is_picked_and_typed_in_the_terminal_becomes_the_draft(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Draft a store in the terminal", selection_mode="hybrid")
    pane = answer(iid)
    pane.press("j", "Space")
    pane.wait_for("› (•) SQLite")
    pane.press("g")
    pane.type("only one host")  # the note for the agent, still being typed
    stored = draft_of(client, iid, {"selected_ids": ["lite"],
                                    "global_annotation": "only one host"})
    assert stored["interface"] == "terminal"
    pane.press("Enter", "Down", "Down")
    pane.wait_for("› Or write your own answer: ▏")
    pane.type("or Redis")
    draft_of(client, iid, {"selected_ids": ["lite"], "custom_input": "or Redis",
                           "global_annotation": "only one host"})


def test_a_question_opens_from_the_draft_typed_in_the_browser(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Draft a store in the browser", selection_mode="hybrid")
    client.call("PUT", f"/api/interactions/{iid}/draft", {
        "selected_ids": ["duck", "gone"], "custom_input": "started in the browser",
        "global_annotation": "from the page"})
    pane = answer(iid)
    pane.wait_for("(•) DuckDB", "Or write your own answer: started in the browser")
    pane.press("Enter")
    assert pane.exit_code() == 0
    result = finished(client, iid)
    assert (result["selected_ids"], result["custom_input"], result["global_annotation"]) == (
        ["duck"], "started in the browser", "from the page")
    assert client.call("GET", f"/api/interactions/{iid}/draft") == {"draft": None}


def test_an_answer_typed_in_plain_lines_is_the_draft_while_it_waits_for_the_confirm(
        ask: Ask, run: Run, client: PortalClient) -> None:
    iid = ask("Draft a store in plain lines", selection_mode="hybrid",
              require_confirmation=True)
    pane = run("answer", iid, "--plain")
    pane.wait_for("[!cancel])")
    pane.type("Valkey 8")
    pane.press("Enter")
    pane.wait_for("Confirm? [y/N]")
    stored = draft_of(client, iid, {"selected_ids": [], "custom_input": "Valkey 8"})
    assert stored["interface"] == "terminal"
    pane.type("y")
    pane.press("Enter")
    assert pane.exit_code() == 0
    assert finished(client, iid)["custom_input"] == "Valkey 8"
    assert client.call("GET", f"/api/interactions/{iid}/draft") == {"draft": None}


def test_plain_lines_keep_the_questions_answered_so_far_when_the_input_ends(
        run: Run, client: PortalClient) -> None:
    iid = ask_several(client, "Draft three questions in plain lines")
    pane = run("answer", iid, "--plain")
    pane.wait_for("Question 1 of 3 · Database")
    pane.type("1")
    pane.press("Enter")
    pane.wait_for("Question 2 of 3 · Features")
    pane.type("1 3")
    pane.press("Enter")  # then at once Ctrl+D: the second save waits for its second
    pane.wait_for("Question 3 of 3 · Name")
    pane.press("C-d")
    assert pane.exit_code() == 1  # the questions stay open, with what was answered
    draft_of(client, iid, {"answers": {"db": {"selected_ids": ["pg"]},
                                       "feat": {"selected_ids": ["logs", "traces"]},
                                       "name": {}}})
