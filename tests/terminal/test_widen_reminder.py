"""The reminder line (docs/guides/team-mode.md#reminders) from the portal's real scheduler:
a widened question with no activity for `CHOICE_REMINDER_MINUTES` (here 0.1, six seconds)
shows "Still waiting on widened discussion." in the open `choice answer` UI, once, until a
key or new activity; the answer keys still decide it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from choice.client.portal_client import PortalClient
from tests.portal_process import PortalProcess
from tests.terminal.conftest import Answer, Ask, Run, events, finished

pytestmark = pytest.mark.slow
REMINDER = "Still waiting on widened discussion."
IDLE_BOUND = 60.0  # six idle seconds (a widening wakes the scheduler), on a loaded machine


@pytest.fixture(scope="module")
def portal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PortalProcess]:
    process = PortalProcess(tmp_path_factory.mktemp("portal"), CHOICE_REMINDER_MINUTES="0.1")
    yield process.start()
    process.stop()


def test_an_idle_widened_question_shows_the_reminder_line_until_a_key(
        ask: Ask, answer: Answer, client: PortalClient, portal: PortalProcess) -> None:
    client.save_settings({"team": [{"name": "Alice Johnson"}]})
    iid = ask("Pick a store, then wait for the team", timeout_seconds=900)
    pane = answer(iid, width=80, height=24)
    pane.press("w", "Enter")
    pane.wait_for("[b/c] (default: b)")
    pane.press("b")
    pane.wait_for("Alice Johnson has been invited to discuss")
    pane.press("Down")
    pane.wait_for("╭─ Waiting for widened discussion ")
    assert REMINDER not in pane.screen()

    screen = pane.wait_for(REMINDER, timeout=IDLE_BOUND)
    assert screen.count(REMINDER) == 1
    # only what is possible: the links cannot be sent again (the portal keeps hashes)
    assert "Send the links again" not in screen
    assert "Not opened their link yet: Alice Johnson." in screen
    assert f"Check the discussion (choice open {iid}), answer here, or press d" in screen
    assert f"Discussion: http://127.0.0.1:{portal.port}/choice/{iid}" in screen
    assert ("reminder_sent", "system") in events(client, iid)
    lines = screen.splitlines()
    at = next(i for i, line in enumerate(lines) if REMINDER in line)
    options = next(i for i, line in enumerate(lines) if "( ) PostgreSQL" in line)
    assert at < options <= at + 5  # right above the options
    assert "( ) DuckDB" in screen  # the options stay in view at 80x24

    pane.press("Up")  # seen: it goes until the next idle period
    pane.wait_gone(REMINDER)
    pane.press("Enter")
    assert pane.exit_code() == 0
    [line] = pane.output()  # resolved by hand, `manual`
    assert line.startswith("Resolved locally: Decided by the owner after discussing it with ")
    assert line.endswith(', in their own words: Selected "PostgreSQL" (pg). The discussion is closed.')
    assert finished(client, iid)["selected_ids"] == ["pg"]


def test_another_question_nobody_opened_shows_a_line_with_the_command_that_opens_it(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    """The question open here is opened; the other one reminds after a period
    (its title is a model's: shown as text, never as terminal control)."""
    here = ask("Pick the cache for the API", timeout_seconds=900)
    pane = answer(here, width=120, height=24)
    pane.wait_for("Pick the cache for the API")
    other = ask("Pick a <b>queue</b>\x1b[31m for jobs", timeout_seconds=900)
    screen = pane.wait_for(f"(choice answer {other})", timeout=IDLE_BOUND)
    [line] = [line for line in screen.splitlines() if f"(choice answer {other})" in line]
    assert line.strip().startswith("Another question still waits: Pick a <b>queue</b>")
    assert "\x1b" not in screen
    assert set(reasons(client, other)) == {"unopened"} and reasons(client, here) == []
    pane.press("Enter")
    assert pane.exit_code() == 0
    client.cancel(other)


def reasons(client: PortalClient, interaction_id: str) -> list[str]:
    reply = client.call("GET", f"/api/interactions/{interaction_id}/events")
    return [event["detail"]["reason"] for event in reply["events"]
            if event["kind"] == "reminder_sent"]


def test_plain_lines_print_the_reminder_while_waiting_and_still_take_an_answer(
        ask: Ask, run: Run, client: PortalClient, portal: PortalProcess) -> None:
    """`--plain` reminds too, at `Waiting >`, and prompts again."""
    client.save_settings({"team": [{"name": "Bob Stone"}]})
    iid = ask("Pick a store in plain lines, then wait", timeout_seconds=900)
    pane = run("answer", iid, "--plain", width=80, height=30)
    pane.wait_for("[w]iden")
    pane.type("w")
    pane.press("Enter")
    pane.wait_for("Audience >")
    pane.press("Enter")
    pane.wait_for("[b/c] (default: b)")
    pane.type("b")
    pane.press("Enter")
    pane.wait_for("Waiting >", f"Discussion: http://127.0.0.1:{portal.port}/choice/{iid}")
    screen = pane.wait_for(REMINDER, timeout=IDLE_BOUND)
    assert "Not opened their link yet: Bob Stone." in screen
    assert f"Check the discussion (choice open {iid}), type an answer, or type d" in screen
    assert pane.screen().rstrip().endswith("Waiting >")  # the prompt again, below it
    pane.type("2")
    pane.press("Enter")
    assert pane.exit_code() == 0
    assert finished(client, iid)["selected_ids"] == ["lite"]
