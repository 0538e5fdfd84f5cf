"""Widening with `choice answer <id> --plain` (the widen flow as line prompts): through a
pipe, as a script would, and in a real terminal (tmux), where the discussion is fetched
again with `f` after a teammate writes."""

from __future__ import annotations

from typing import Any

import pytest

from choice.client.portal_client import PortalClient
from tests.portal_process import PortalProcess
from tests.terminal.conftest import Ask, Run, events, finished
from tests.terminal.test_plain import answer_through_a_pipe
from tests.terminal.test_widen import TEAM, links_on

pytestmark = pytest.mark.slow


def inside(line: str) -> str:
    """A box line's text: `│ text   │` -> `text` (indent kept)."""
    assert line.startswith("│ ") and line.endswith(" │"), line
    return line[2:-2].rstrip()


@pytest.fixture
def team(client: PortalClient) -> list[dict[str, Any]]:
    client.save_settings({"team": TEAM})
    return TEAM


def test_a_script_widens_in_continue_mode_then_answers(
        ask: Ask, portal: PortalProcess, client: PortalClient,
        team: list[dict[str, Any]]) -> None:
    iid = ask("Pick a store, widened by a script", widen_hint="\x1b[31mAsk\u202e the team")
    done = answer_through_a_pipe(portal, iid, stdin="w\nAlice Johnson, carol lee\nc\nf\n2\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    lines = out.splitlines()
    assert lines[:3] == ["Pick a store, widened by a script", "Agent's hint: ␛Ask the team",
                         "The service needs a store. Which one?"]
    assert "Choose a number  ([w]iden | [d]efer | [!cancel])" in lines
    at = lines.index("> w")
    assert lines[at + 1].startswith("╭─ Widen: Pick a store, widened by a script ─")
    assert [inside(line) for line in lines[at + 2:at + 7]] == [
        "Default audience for this decision:", "  Alice Johnson, Bob Smith, Carol Lee, Dana Park",
        "", "[Enter] to confirm, or type comma-separated names to trim.",
        'Type "cancel" or press Ctrl+C to abort.']
    assert lines[at + 7] == "╰" + "─" * 74 + "╯"  # 76 wide: the box, in 80 columns
    assert lines[at + 8:at + 13] == [
        "Audience > Alice Johnson, carol lee",
        "Audience confirmed: Alice Johnson, Carol Lee (2 members)",
        "Block here or continue with other questions? [b/c] (default: b)",
        "  b  block: the agent keeps waiting until you decide",
        "  c  continue: the agent is told now and collects the decision later"]
    assert "> c" in lines and "╭─ Widened ✓ " + "─" * 62 + "╮" in lines
    assert "│ Alice Johnson and Carol Lee have been invited to discuss: \"Pick a store," in out
    assert list(links_on(out)) == ["Alice Johnson", "Carol Lee"]
    assert ("Choose a number  ([f]etch the discussion | [s]ummary & review | [d]efer | "
            "[!cancel])") in lines
    assert "Waiting > f" in lines and "Waiting > 2" in lines
    assert out.count("╭─ Waiting for widened discussion ") == 1  # the fetch; not after widening
    assert lines[-1] == ('Resolved locally: Decided by the owner after discussing it with 2 '
                         'teammates, in their own words: Selected "SQLite" (lite). The '
                         'discussion is closed.')
    assert {len(line) for line in lines if line.startswith(("╭", "│", "╰"))} == {76}
    result = finished(client, iid)
    assert (result["selected_ids"], result["interface"]) == (["lite"], "terminal")
    assert [kind for kind, _ in events(client, iid)][:4] == [
        "created", "opened", "widened", "participant_invited"]


def test_cancel_at_the_audience_prompt_changes_nothing_and_the_answer_still_counts(
        ask: Ask, portal: PortalProcess, client: PortalClient,
        team: list[dict[str, Any]]) -> None:
    iid = ask("Pick a store, a script changes its mind")
    done = answer_through_a_pipe(portal, iid, stdin="w\ncancel\nw\nBob Smith\nx\n\n3\n")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "Audience > cancel" in lines and "Not widened: nothing changed." in lines
    assert "Type b or c (Enter means b)." in lines  # `x` is neither
    assert "Audience confirmed: Bob Smith (1 member)" in lines
    # Enter meant b: widened in block mode, then answered here with 3
    assert lines[-1] == ('Resolved locally: Decided by the owner after discussing it with 1 '
                         'teammate, in their own words: Selected "DuckDB" (duck). The '
                         'discussion is closed.')
    assert [kind for kind, _ in events(client, iid)].count("widened") == 1
    widened = next(e for e in client.call("GET", f"/api/interactions/{iid}/events")["events"]
                   if e["kind"] == "widened")
    assert (widened["detail"]["mode"], widened["detail"]["audience"]) == ("block", ["Bob Smith"])


def test_plain_lines_in_a_terminal_fetch_the_discussion_after_a_teammate_writes(
        ask: Ask, run: Run, client: PortalClient, portal: PortalProcess,
        team: list[dict[str, Any]]) -> None:
    iid = ask("Pick a store, plain in a terminal")
    pane = run("answer", iid, "--plain")
    pane.wait_for("([w]iden | [d]efer | [!cancel])")
    pane.type("w")
    pane.press("Enter")
    pane.wait_for("Audience >")
    pane.type("Dana Park")
    pane.press("Enter")
    pane.wait_for("[b/c] (default: b)")
    pane.press("Enter")
    screen = pane.wait_for("Dana Park has been invited to discuss", "Waiting >")
    secret = links_on(screen)["Dana Park"]
    teammate = PortalClient(portal.base_url, None)
    teammate.call("GET", f"/api/d/{secret}")  # the page, opened
    teammate.call("POST", f"/api/d/{secret}/comments", {"text": "DuckDB, for the reports."})
    teammate.call("PUT", f"/api/d/{secret}/vote", {"option_ids": ["duck"]})
    pane.type("f")
    pane.press("Enter")
    pane.wait_for("Participants (✓ opened their link): Dana Park ✓",
                  "Discussion (1 message):", "  [Dana Park] DuckDB, for the reports.",
                  "  3) DuckDB — 1 vote: Dana Park")
    pane.press("C-c")  # leave it to the team, as in the full-screen UI
    assert pane.exit_code() == 6
    assert pane.output()[-1] == (f"Left it widened: come back with `choice answer {iid}`; "
                                 "`choice list --status widened` lists what waits on the team.")
    assert client.poll(iid, 0)["status"] == "widened"


def test_plain_lines_review_the_summary_right_after_widening_in_the_same_run(
        ask: Ask, run: Run, client: PortalClient, team: list[dict[str, Any]]) -> None:
    """Widened with `w` here, `s` (summary & review) was offered but
    read as a wrong option number until the question was opened again."""
    iid = ask("Pick a store, plain, widened then reviewed")
    pane = run("answer", iid, "--plain")
    pane.wait_for("([w]iden | [d]efer | [!cancel])")
    pane.type("w")
    pane.press("Enter")
    pane.wait_for("Audience >")
    pane.type("Dana Park")
    pane.press("Enter")
    pane.wait_for("[b/c] (default: b)")
    pane.press("Enter")
    pane.wait_for("Dana Park has been invited to discuss",
                  "([f]etch the discussion | [s]ummary & review | [d]efer | [!cancel])",
                  "Waiting >")
    pane.type("s")
    pane.press("Enter")
    pane.wait_for("Waiting for the agent's summary… (")
    assert client.poll(iid, 0)["action_status"] == "summary_requested"
