"""A question the agent withdraws while `choice answer` shows it: the UI closes at once with
the agent's reason, and the run exits 3 (as a cancel); the plain mode (a line at a time)
says the same at the next line typed."""

from __future__ import annotations

from choice.client.portal_client import PortalClient
from tests.terminal.conftest import Answer, Ask, Run, events

REASON = "Found it in the ADR: we use PostgreSQL."


def test_a_withdrawal_closes_the_ui_with_the_agent_s_reason(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = ask("Pick a store, withdrawn by the agent")
    pane = answer(iid)
    pane.wait_for("Pick a store, withdrawn by the agent")
    client.withdraw(iid, REASON)
    assert pane.exit_code() == 3
    assert pane.output() == [f"Already finished elsewhere: The agent no longer needs this: {REASON}"]
    assert events(client, iid)[-1] == ("withdrawn", "agent:api")


def test_the_plain_mode_says_it_too(ask: Ask, run: Run, client: PortalClient) -> None:
    iid = ask("Pick a store, withdrawn in plain mode")
    pane = run("answer", iid, "--plain")
    pane.wait_for("Pick a store, withdrawn in plain mode", "Choose a number")
    client.withdraw(iid, REASON)
    pane.type("1")
    pane.press("Enter")
    assert pane.exit_code() == 3
    assert pane.output()[-1] == f"Already finished elsewhere: The agent no longer needs this: {REASON}"
