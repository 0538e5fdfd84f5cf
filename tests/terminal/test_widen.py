"""Widening from `choice answer <id>` in a real terminal
(docs/guides/terminal.md#a-widened-question): `w` opens the audience box, trimmed names are
confirmed, b/c picks the mode, the links show, the discussion arrives live from a
participant, and a local answer closes it; cancelling at any prompt changes nothing.
Asserted on the screen and through the portal's API."""

from __future__ import annotations

import re
from typing import Any

import pytest

from choice.client.portal_client import PortalClient, PortalError
from tests.portal_process import PortalProcess
from tests.terminal.conftest import Answer, Ask, events, finished
from tests.terminal.tmux import Pane

pytestmark = pytest.mark.slow
TEAM = [{"name": "Alice Johnson", "handle": "@alice"}, {"name": "Bob Smith"},
        {"name": "Carol Lee", "email": "carol@example.com"}, {"name": "Dana Park"}]
LINK = re.compile(r"^ *(\S.*?) {2,}(http://127\.0\.0\.1:\d+/d/([A-Za-z0-9_-]{20,}))\s*$", re.M)


@pytest.fixture
def team(client: PortalClient) -> list[dict[str, Any]]:
    """The owner's saved team list (the default audience)."""
    client.save_settings({"team": TEAM})
    return TEAM


@pytest.fixture
def participant(portal: PortalProcess) -> PortalClient:
    """A teammate's side: no token, only the secret in their link."""
    return PortalClient(portal.base_url, None)


def links_on(screen: str) -> dict[str, str]:
    """Each invited name and the secret of the link shown for them."""
    return {name.strip(): secret for name, _url, secret in LINK.findall(screen)}


def kinds(client: PortalClient, interaction_id: str) -> list[str]:
    return [kind for kind, _actor in events(client, interaction_id)]


def open_widen(pane: Pane, title: str) -> str:
    pane.press("w")
    return pane.wait_for(f"╭─ Widen: {title} ", "Default audience for this decision:",
                         "Alice Johnson, Bob Smith, Carol Lee, Dana Park",
                         "[Enter] to confirm, or type comma-separated names to trim.",
                         'Type "cancel" or press Ctrl+C to abort.', "Audience > ")


def test_w_widens_to_trimmed_names_shows_links_follows_the_thread_and_a_local_answer_closes_it(
        ask: Ask, answer: Answer, client: PortalClient, participant: PortalClient,
        team: list[dict[str, Any]]) -> None:
    iid = ask("Pick the billing store",
              widen_hint="[WIDEN-HINT] Worth a second opinion: press w.")
    pane = answer(iid)
    screen = pane.wait_for("Worth a second opinion: press w.", "w widen")
    assert "[WIDEN-HINT]" not in screen  # the mark is stripped, the rest dim
    dim = next(line for line in pane.screen(escapes=True).splitlines()
               if "Worth a second opinion" in line)
    assert "\x1b[2m" in dim
    lines = screen.splitlines()
    hint_row = next(i for i, line in enumerate(lines) if "Worth a second opinion" in line)
    assert "The service needs a store." in lines[hint_row + 1]  # dimmed, above the prompt

    open_widen(pane, "Pick the billing store")
    pane.type("alice johnson, CAROL LEE, Zed")
    pane.press("Enter")
    pane.wait_for("Audience > alice johnson, CAROL LEE, Zed",
                  "Audience confirmed: Alice Johnson, Carol Lee, Zed (3 members)",
                  "Note: not on the team list, invited anyway: Zed",
                  "Block here or continue with other questions? [b/c] (default: b)")
    assert client.poll(iid, 0)["status"] == "pending"  # nothing is sent before b/c
    pane.press("b")
    screen = pane.wait_for("╭─ Widened ✓ ", "Alice Johnson, Carol Lee and Zed have been invited "
                           "to discuss:",
                           "The agent keeps waiting until you decide.",
                           "Send each person their own link (only this window shows them):")
    secrets = links_on(screen)
    assert list(secrets) == ["Alice Johnson", "Carol Lee", "Zed"]
    assert len(set(secrets.values())) == 3

    seen = client.team(iid)
    assert (seen["status"], seen["mode"]) == ("widened", "block")
    assert sorted(p["name"] for p in seen["participants"]) == ["Alice Johnson", "Carol Lee", "Zed"]
    assert ("widened", "human:owner") in events(client, iid)
    assert client.poll(iid, 0)["status"] == "widened"  # block: the agent keeps waiting

    pane.press("Down")  # any key: the confirmation gives way to the waiting box
    pane.wait_for("╭─ Waiting for widened discussion ", "Question: Pick the billing store",
                  "│ Participants: Alice Johnson, Carol Lee, Zed  ", "No messages yet.",
                  "Answer here to decide now; that closes the discussion.", "^C leave")
    assert "╭─ Widened ✓ " not in pane.screen() and "w widen" not in pane.screen()
    assert list(links_on(pane.screen())) == ["Alice Johnson", "Carol Lee", "Zed"]  # kept

    carol = f"/api/d/{secrets['Carol Lee']}"
    participant.call("GET", carol)
    participant.call("POST", f"{carol}/comments", {"text": "SQLite is plenty for billing."})
    participant.call("PUT", f"{carol}/vote", {"option_ids": ["lite"]})
    pane.wait_for("Participants (✓ opened their link): Alice Johnson, Carol Lee ✓, Zed",
                  "Discussion (1 message):", "[Carol Lee] SQLite is plenty for billing.",
                  "› ( ) SQLite  [recommended]  · 1 vote: Carol Lee")

    pane.press("Space", "Enter")  # the focused option (SQLite), answered here
    assert pane.exit_code() == 0
    assert pane.output() == [  # resolved by hand, `manual`
        'Resolved locally: Decided by the owner after discussing it with 3 teammates, '
        'in their own words: Selected "SQLite" (lite). The discussion is closed.']
    assert finished(client, iid)["selected_ids"] == ["lite"]
    closed = participant.call("GET", carol)
    assert (closed["open"], closed["outcome"]["selected_ids"]) == (False, ["lite"])
    with pytest.raises(PortalError) as refused:
        participant.call("POST", f"{carol}/comments", {"text": "too late"})
    assert refused.value.status in (404, 409)


def test_cancel_esc_and_ctrl_c_at_the_prompts_leave_the_question_as_it_was(
        ask: Ask, answer: Answer, client: PortalClient, team: list[dict[str, Any]]) -> None:
    iid = ask("Pick a store, not widened")
    pane = answer(iid)
    open_widen(pane, "Pick a store, not widened")
    pane.type("Cancel")
    pane.press("Enter")
    pane.wait_for("Not widened: nothing changed.", "› ( ) PostgreSQL", "w widen")
    open_widen(pane, "Pick a store, not widened")
    pane.press("Escape")
    pane.wait_for("Not widened: nothing changed.", "› ( ) PostgreSQL")
    open_widen(pane, "Pick a store, not widened")
    pane.press("C-c")
    pane.wait_for("Not widened: nothing changed.", "› ( ) PostgreSQL")
    open_widen(pane, "Pick a store, not widened")
    pane.press("Enter")  # the whole team ...
    pane.wait_for("Audience confirmed: Alice Johnson, Bob Smith, Carol Lee, Dana Park "
                  "(4 members)", "[b/c] (default: b)")
    pane.press("Escape")  # ... but not now
    pane.wait_for("Not widened: nothing changed.", "› ( ) PostgreSQL")

    assert client.poll(iid, 0)["status"] == "pending"
    assert "widened" not in kinds(client, iid)
    assert client.team(iid)["participants"] == []
    pane.press("Enter")  # and the question still answers as before
    assert pane.exit_code() == 0
    assert pane.output() == ['Selected "PostgreSQL" (pg).']


def test_an_empty_team_list_says_how_to_fix_it_and_typed_names_widen_in_continue_mode(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    client.save_settings({"team": []})
    iid = ask("Pick a store, no team yet")
    pane = answer(iid, width=80, height=24)
    pane.press("w")
    pane.wait_for("(nobody yet: your team list is empty; type names)", "Audience > ")
    pane.press("Enter")
    pane.wait_for("nobody to invite: your team list is empty.", "Audience > ")
    assert client.poll(iid, 0)["status"] == "pending"
    pane.type("Erin Moss")
    pane.press("Enter")
    pane.wait_for("Audience confirmed: Erin Moss (1 member)",
                  "Note: not on the team list, invited anyway: Erin Moss")
    pane.press("c")
    pane.wait_for("Erin Moss has been invited to discuss",
                  "The agent was told to carry on; it collects the decision later.")
    assert list(links_on(pane.screen())) == ["Erin Moss"]
    polled = client.poll(iid, 0)  # continue: the agent hears at once, and carries on
    assert (polled["action_status"], polled["mode"], polled["participants"]) == (
        "widened", "continue", ["Erin Moss"])

    pane.press("C-c")  # leave it to the team: the question stays widened
    assert pane.exit_code() == 6
    assert pane.output() == [
        f"Left it widened: come back with `choice answer {iid}`; `choice list --status "
        "widened` lists what waits on the team."]
    assert client.poll(iid, 0)["status"] == "widened"


def test_a_question_widened_in_the_browser_shows_as_widened_and_still_answers(
        ask: Ask, answer: Answer, client: PortalClient, participant: PortalClient,
        team: list[dict[str, Any]]) -> None:
    iid = ask("Pick a store, widened elsewhere")
    pane = answer(iid)
    pane.press("w")
    pane.wait_for("Audience > ")
    invited = client.widen(iid, ["Bob Smith"], "block")  # the web dialog, meanwhile
    pane.wait_for("This question was widened in another window.",
                  "╭─ Waiting for widened discussion ", "Participants: Bob Smith",
                  "f fetch & review")  # as if it had been opened widened
    screen = pane.screen()
    assert "/d/" not in screen  # the links went to the other window, not this one
    assert f"/choice/{iid}" in screen  # the owner's page (the discussion's link) is no secret
    secret = invited["participants"][0]["link"].rsplit("/", 1)[1]
    for n in range(5):
        participant.call("POST", f"/api/d/{secret}/comments", {"text": f"thought {n}"})
    pane.wait_for("Discussion (5 messages, the latest 3):", "[Bob Smith] thought 4")
    assert "thought 1" not in pane.screen()
    pane.press("q")
    pane.wait_for("Why cancel? (optional)")
    pane.press("Enter")
    assert pane.exit_code() == 3
    assert pane.output() == ["Cancelled. The discussion is closed."]
    assert finished(client, iid)["action_status"] == "cancelled"


def test_at_50_columns_an_options_votes_wrap_onto_their_own_line_instead_of_being_cut(
        ask: Ask, answer: Answer, client: PortalClient, team: list[dict[str, Any]],
        participant: PortalClient) -> None:
    iid = ask("Pick a store, votes on a narrow screen")
    invited = client.widen(iid, None, "block")
    secrets = {p["name"]: p["link"].rsplit("/", 1)[1] for p in invited["participants"]}
    for name in ("Alice Johnson", "Carol Lee"):
        participant.call("PUT", f"/api/d/{secrets[name]}/vote", {"option_ids": ["lite"]})
    pane = answer(iid, width=50, height=20)
    pane.press("j")
    screen = pane.wait_for("2 › ( ) SQLite  [recommended]")
    lines = [line.strip() for line in screen.splitlines()]
    votes = lines.index("2 › ( ) SQLite  [recommended]") + 1
    assert lines[votes] == "· 2 votes: Alice Johnson, Carol Lee", screen
    assert "·…" not in screen
    pane.press("Enter")
    assert pane.exit_code() == 0
    assert finished(client, iid)["selected_ids"] == ["lite"]
