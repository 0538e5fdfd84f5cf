"""Writing a widened decision back from `choice answer <id>` in a real terminal
(docs/guides/write-back.md): `f` asks the agent for its summary, the candidate posted
through the JSON API shows in the Candidate Review box, and `a` accepts, `e` edits in
`$EDITOR` (a material change asks for a rationale), `d` defers (an empty rationale refused).
Any open question can be deferred; a deferred one is listed, taken up again or resolved;
`choice ask` ends with exit code 7 on a deferral. Asserted on the screen and through the
portal's API."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from choice.client.portal_client import PortalClient
from tests.terminal.conftest import Answer, Ask, Run, events, finished

pytestmark = pytest.mark.slow
NO_EDITOR = {"EDITOR": "", "VISUAL": ""}
CANDIDATE = {"candidate_summary": "Alice and Carol agree on PostgreSQL, with the migration "
                                  "planned from day one.",
             "candidate_answer": "PostgreSQL, with the migration path planned from day 1.",
             "selected_ids": ["pg"], "source_hint": "discussion_extraction"}


def widened(ask: Ask, client: PortalClient, title: str, **fields: Any) -> str:
    """A question widened to Alice and Carol (block), with one comment from Alice."""
    iid = ask(title, **fields)
    invited = client.widen(iid, ["Alice", "Carol"], "block")
    secret = invited["participants"][0]["link"].rsplit("/", 1)[1]
    PortalClient(f"http://{client.host}:{client.port}", None).call(
        "POST", f"/api/d/{secret}/comments", {"text": "PostgreSQL, but plan the migration."})
    return iid


def fetch(answer: Answer, iid: str, env: dict[str, str] | None = None) -> Any:
    """`choice answer <id>` on the widened question, `f` pressed: the agent is asked."""
    pane = answer(iid, env={**NO_EDITOR, **(env or {})})
    pane.wait_for("Waiting for widened discussion", "f fetch & review", "d defer")
    pane.press("f")
    pane.wait_for("Waiting for the agent's summary… (", " s)",
                  "[Alice] PostgreSQL, but plan the migration.", "e write it yourself")
    return pane


def post_candidate(client: PortalClient, iid: str) -> None:
    asked = client.poll(iid, 0)
    assert asked["action_status"] == "summary_requested", asked
    client.call("POST", f"/api/interactions/{iid}/candidate", CANDIDATE)


def review_shown(pane: Any) -> str:
    return pane.wait_for("╭─ Candidate Review ", "Question: ", "Summary:",
                         "Alice and Carol agree on PostgreSQL", "Proposed answer:",
                         "PostgreSQL, with the migration path planned from day 1.",
                         "[a]ccept | [e]dit | [d]efer", "a accept · e edit · d defer")


def test_f_then_the_agent_s_candidate_and_a_accepts_it(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = widened(ask, client, "Pick the billing store, accepted")
    pane = fetch(answer, iid)
    post_candidate(client, iid)
    review_shown(pane)
    pane.press("a")
    assert pane.exit_code() == 0
    [line] = pane.output()
    assert line.startswith("Decision resolved: Decided by the owner after discussing it with "
                           "2 teammates, taking the agent's summary of the discussion")
    assert line.endswith("The discussion is closed.")
    result = finished(client, iid)
    assert result["summary_json"] == {"text": CANDIDATE["candidate_summary"],
                                      "source": "discussion_extraction"}
    assert (result["selected_ids"], result["answered_via"], result["decided_by"]) == (
        ["pg"], "terminal", "owner")  # the proposed option, kept
    assert ("resolved", "human:terminal") in events(client, iid)


def test_f_fetches_and_reviews_right_after_widening_in_the_same_window(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    """Widened with `w` here, `f` did nothing until the question was
    opened again (the UI still held it as pending)."""
    iid = ask("Pick the billing store, widened here then fetched")
    pane = answer(iid, env=NO_EDITOR)
    pane.press("w")
    pane.wait_for("Audience > ")
    pane.type("Alice")
    pane.press("Enter")
    pane.wait_for("[b/c] (default: b)")
    pane.press("b")
    pane.wait_for("Widened ✓", "f fetch & review", "d defer")
    pane.press("f")
    pane.wait_for("Waiting for the agent's summary… (", "e write it yourself")
    assert client.poll(iid, 0)["action_status"] == "summary_requested"
    post_candidate(client, iid)
    review_shown(pane)


def test_opening_a_question_whose_summary_is_in_says_so_and_names_the_quorum(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = widened(ask, client, "Pick the queue, summary already in")
    client.call("PUT", f"/api/interactions/{iid}/quorum", {"min_votes": 2})
    client.call("POST", f"/api/interactions/{iid}/review")
    post_candidate(client, iid)
    pane = answer(iid, env=NO_EDITOR)
    pane.wait_for("The agent's summary is in: press f to review it. 2 matching votes decide.")
    pane.press("f")
    review_shown(pane)  # the candidate that came, not a new request for one
    assert [kind for kind, _ in events(client, iid)].count("review_requested") == 1


def test_e_edits_in_the_editor_and_a_material_change_asks_for_a_rationale(
        ask: Ask, answer: Answer, client: PortalClient, tmp_path: Path) -> None:
    editor = tmp_path / "rewrite"
    seen = tmp_path / "seen.txt"
    editor.write_text(f'#!/bin/sh\ncp "$1" {seen}\n'
                      "printf 'SQLite for now; revisit next quarter.\\n' > \"$1\"\n")
    editor.chmod(0o755)
    # A typed answer decides a hybrid question: the words are the edit's.
    iid = widened(ask, client, "Pick the billing store, edited", selection_mode="hybrid")
    pane = fetch(answer, iid, env={"EDITOR": str(editor)})
    post_candidate(client, iid)
    review_shown(pane)
    pane.press("e")
    pane.wait_for("Your final answer: SQLite for now; revisit next quarter.",
                  "Optional rationale (press Enter to skip):")
    assert seen.read_text() == CANDIDATE["candidate_answer"] + "\n"  # pre-filled
    assert client.poll(iid, 0, candidates=False)["status"] == "widened"  # nothing sent yet
    pane.type("Cost matters more this year.")
    pane.press("Enter")
    assert pane.exit_code() == 0
    result = finished(client, iid)
    assert result["summary_json"]["source"] == "owner_override"
    assert (result["custom_input"], result["rationale"], result["answered_via"]) == (
        "SQLite for now; revisit next quarter.", "Cost matters more this year.", "terminal")


def test_d_in_the_review_refuses_an_empty_rationale_then_defers(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    iid = widened(ask, client, "Pick the billing store, deferred")
    pane = fetch(answer, iid)
    post_candidate(client, iid)
    review_shown(pane)
    pane.press("d")
    pane.wait_for("Rationale for deferral (required): ")
    pane.press("Enter")
    pane.wait_for("A deferral needs a rationale: say why (the agent reads it).",
                  "Rationale for deferral (required): ")
    assert client.poll(iid, 0, candidates=False)["status"] == "widened"  # nothing sent
    pane.type("Waiting for the load test.")
    pane.press("Enter")
    assert pane.exit_code() == 7
    assert pane.output() == ['Decision deferred: "Waiting for the load test.". Take it up '
                             f"again with `choice answer {iid}`."]
    polled = client.poll(iid, 30)  # at once: the agent hears of it
    assert (polled["action_status"], polled["rationale"]) == ("deferred",
                                                              "Waiting for the load test.")
    assert ("deferred", "human:terminal") in events(client, iid)


def test_a_plain_pending_question_is_deferred_listed_taken_up_again_and_answered(
        ask: Ask, answer: Answer, run: Run, client: PortalClient) -> None:
    iid = ask("Pick a store, set aside")
    pane = answer(iid, width=80, height=24)
    pane.wait_for("d defer")
    pane.press("d")
    pane.wait_for("Rationale for deferral (required): ")
    pane.press("Enter")
    pane.wait_for("A deferral needs a rationale")
    pane.type("Not before the budget review")
    pane.press("Enter")
    assert pane.exit_code() == 7
    assert client.poll(iid, 0)["rationale"] == "Not before the budget review"

    listed = run("list", "--status", "deferred")
    assert listed.exit_code() == 0
    out = listed.output()
    row = out.index(next(line for line in out if line.startswith(iid)))
    assert "deferred" in out[row] and "Pick a store, set aside" in out[row]
    assert out[row + 1:row + 3] == ["  Deferred: Not before the budget review",
                                    f"  Take it up again or resolve it: choice answer {iid}"]

    again = run("answer", iid, width=80, height=24)
    again.wait_for("deferred", "╭─ Deferred ", "Deferred: Not before the budget review",
                   "r take up again", "The service needs a store.")
    assert "d defer" not in again.screen() and "w widen" not in again.screen()
    again.press("r")
    again.wait_for("Taken up again: answer it as before.", " left", "d defer", "w widen")
    assert client.poll(iid, 0)["status"] == "pending"
    again.press("Enter")
    assert again.exit_code() == 0
    assert finished(client, iid)["selected_ids"] == ["pg"]
    kinds = [kind for kind, _actor in events(client, iid)]
    assert kinds[-3:] == ["deferred", "resumed", "answered"]


def test_a_deferred_question_answered_here_is_resolved_by_hand(
        ask: Ask, run: Run, client: PortalClient) -> None:
    iid = ask("Pick a store, resolved while deferred")
    client.defer(iid, "Later")
    pane = run("answer", iid)
    pane.wait_for("Deferred: Later", "r take up again")
    pane.press("Down", "Enter")  # SQLite
    assert pane.exit_code() == 0
    result = finished(client, iid)
    assert (result["selected_ids"], result["answered_via"]) == (["lite"], "terminal")
    assert result["summary_json"] == {"text": "", "source": "manual"}


def test_choice_ask_ends_with_exit_7_when_the_owner_defers(
        run: Run, client: PortalClient) -> None:
    pane = run("ask", "Pick a store, asked by a script", "-p", "Which store?", "-o", "pg=PostgreSQL",
               "-o", "lite=SQLite", "--interface", "web", "--timeout", "300")
    pane.wait_for("Waiting for an answer to: Pick a store, asked by a script")
    [row] = [r for r in client.list("active")["interactions"]
             if r["title"] == "Pick a store, asked by a script"]
    iid = row["interaction_id"]
    client.widen(iid, ["Alice"], "block")
    client.request_review(iid)  # `choice ask` cannot summarise: it keeps waiting (candidates=0)
    pane.wait_for("the question was widened to Alice")
    client.defer(iid, "Waiting on legal")
    assert pane.exit_code() == 7
    lines = pane.output()
    assert not any("summary_requested" in line for line in lines)
    assert "choice ask: deferred by the owner: Waiting on legal" in lines
    printed = json.loads("\n".join(lines[lines.index("{"):lines.index("}") + 1]))
    assert (printed["status"], printed["rationale"]) == ("deferred", "Waiting on legal")


def test_e_on_an_options_only_question_picks_the_proposed_option_to_decide(
        ask: Ask, answer: Answer, client: PortalClient) -> None:
    """A resolve follows the question's rules. Words alone do not answer an
    options-only question, so Edit goes to its options, the proposal's ticked."""
    iid = widened(ask, client, "Pick the billing store, options only")
    pane = fetch(answer, iid)
    post_candidate(client, iid)
    review_shown(pane)
    pane.press("e")
    pane.wait_for("Pick the option with space, then press Enter to decide.", "(•) PostgreSQL")
    pane.press("Down", "Space", "Enter")  # SQLite instead
    assert pane.exit_code() == 0
    result = finished(client, iid)
    assert (result["selected_ids"], result["decided_by"], result["summary_json"]["source"]) == (
        ["lite"], "owner", "manual")
