"""The owner's write-back in a real browser: Fetch & review and the candidate arriving live,
accept, edit (a material change asks for a rationale and records an override), defer (a
rationale is required) and take up again, the fallback when the agent sends nothing in
time, a late candidate that never replaces what the owner types, two teammates voting to
a quorum while the owner watches, defer of a plain question, and the forms without
JavaScript. Screenshots of each state at desktop and phone width (tests/artifacts/decision-*).

The portal's review fallback is 2 s (`CHOICE_SUMMARY_SECONDS`): the tests wait on the
page's visible change, never on a clock.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from choice.client.portal_client import PortalClient
from tests.browser.conftest import OpenPage
from tests.browser.support import question, shoot
from tests.browser.team import TEAM_DESKTOP, TEAM_PHONE, links, vote, widen
from tests.portal_process import PortalProcess

pytestmark = pytest.mark.usefixtures("team_list")

LIVE_MS = 8_000
CANDIDATE = {"candidate_summary": "Alice and Bob both back PostgreSQL: the team runs it "
                                  "already; Carol worried about backups, Bob answered.",
             "candidate_answer": "PostgreSQL, with nightly backups.", "selected_ids": ["pg"]}
OVERRIDE = "SQLite for now: one file, no server. Revisit when we need a second writer."


@pytest.fixture(scope="module")
def portal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PortalProcess]:
    process = PortalProcess(tmp_path_factory.mktemp("portal"),
                            CHOICE_SUMMARY_SECONDS="2").start()
    yield process
    process.stop()


def widened(client: PortalClient, **body: Any) -> tuple[str, dict[str, str]]:
    iid = client.create(question())["interaction_id"]
    return iid, links(widen(client, iid, **body))


def send_candidate(client: PortalClient, iid: str, **body: str) -> None:
    client.call("POST", f"/api/interactions/{iid}/candidate", {**CANDIDATE, **body})


def source_of(client: PortalClient, iid: str) -> dict[str, Any]:
    result: dict[str, Any] = client.call("GET", f"/api/interactions/{iid}")
    return result


def test_the_candidate_arrives_live_and_accept_decides_from_the_discussion(
        open_page: OpenPage, client: PortalClient) -> None:
    iid, _ = widened(client)
    owner = open_page(f"/choice/{iid}", viewport=TEAM_DESKTOP)
    owner.get_by_test_id("fetch-review").click()
    waiting = owner.get_by_test_id("review-waiting")
    expect(waiting).to_be_visible()
    expect(owner.get_by_test_id("review-due")).to_have_text(re.compile(r"^0:0[0-2]$"))
    send_candidate(client, iid)  # what the agent's submit_candidate does
    box = owner.get_by_test_id("candidate-review")
    expect(box).to_be_visible(timeout=LIVE_MS)  # over the page's socket, no reload
    expect(box.get_by_test_id("candidate-answer")).to_have_text(CANDIDATE["candidate_answer"])
    expect(box.get_by_test_id("candidate-summary")).to_contain_text("Alice and Bob")
    shoot(owner, "decision-review-desktop")
    phone = open_page(f"/choice/{iid}", viewport=TEAM_PHONE)
    expect(phone.get_by_test_id("candidate-review")).to_be_visible()
    shoot(phone, "decision-review-phone")

    box.get_by_test_id("accept").click()
    expect(owner.get_by_test_id("provenance-source")).to_have_text("from the discussion")
    expect(owner.get_by_test_id("decided-by")).to_have_text("you")  # their own page
    result = source_of(client, iid)
    assert result["summary_json"]["source"] == "discussion_extraction"
    assert result["selected_ids"] == ["pg"]  # the candidate's option, kept
    assert result["answered_via"] == "web"


def test_a_material_edit_asks_why_and_records_the_owners_own_answer(
        open_page: OpenPage, client: PortalClient) -> None:
    iid, _ = widened(client)
    client.call("POST", f"/api/interactions/{iid}/review", {})
    send_candidate(client, iid)
    owner = open_page(f"/choice/{iid}", viewport=TEAM_DESKTOP)
    owner.get_by_test_id("edit-open").click()
    edit = owner.get_by_test_id("edit-form")
    expect(edit.get_by_test_id("final-answer")).to_have_value(CANDIDATE["candidate_answer"])
    edit.get_by_test_id("final-answer").fill(OVERRIDE)
    edit.locator("[data-option-id=lite] [data-testid=option-label]").click()
    edit.get_by_test_id("save-edit").click()
    step = owner.get_by_test_id("rationale-step")
    expect(step).to_be_visible()
    expect(step.get_by_test_id("source-hint")).to_contain_text("your own answer")
    assert source_of(client, iid)["status"] == "widened"  # nothing decided yet
    step.get_by_test_id("rationale-input").fill("Ops has no time for a server this quarter.")
    step.get_by_test_id("save-answer").click()
    expect(owner.get_by_test_id("provenance-source")).to_have_text("your own answer")
    expect(owner.get_by_test_id("outcome-rationale")).to_have_text(
        "Ops has no time for a server this quarter.")
    result = source_of(client, iid)
    assert (result["summary_json"]["source"], result["selected_ids"]) == ("owner_override",
                                                                          ["lite"])
    shoot(owner, "decision-outcome-desktop")
    phone = open_page(f"/choice/{iid}", viewport=TEAM_PHONE)
    expect(phone.get_by_test_id("provenance")).to_be_visible()
    shoot(phone, "decision-outcome-phone")


def test_defer_needs_a_rationale_keeps_the_discussion_open_and_is_taken_up_again(
        open_page: OpenPage, client: PortalClient) -> None:
    iid, people = widened(client)
    client.call("POST", f"/api/interactions/{iid}/review", {})
    send_candidate(client, iid)
    alice = open_page(people["Alice Johnson"], signed_in=False, viewport=TEAM_PHONE)
    expect(alice.get_by_test_id("countdown")).to_be_visible()
    owner = open_page(f"/choice/{iid}", viewport=TEAM_DESKTOP)
    box = owner.get_by_test_id("candidate-review")
    box.get_by_test_id("defer-open").click()
    box.get_by_test_id("defer-submit").click()
    expect(owner.get_by_test_id("defer-error")).to_have_text(
        "Say why you are deferring it: the agent and the team see this reason.")
    assert source_of(client, iid)["status"] == "widened"
    owner.get_by_test_id("defer-rationale").fill("Wait for the budget review on Friday.")
    owner.get_by_test_id("defer-submit").click()
    expect(owner.get_by_test_id("deferred-rationale")).to_have_text(
        "Deferred: Wait for the budget review on Friday.")
    expect(owner.get_by_test_id("countdown")).to_have_count(0)
    assert source_of(client, iid)["action_status"] == "deferred"
    # The participant's page hears it live; the discussion stays open.
    expect(alice.get_by_test_id("discussion-deferred")).to_contain_text(
        "Wait for the budget review on Friday.", timeout=LIVE_MS)
    expect(alice.get_by_test_id("countdown")).to_have_count(0)
    alice.get_by_test_id("comment-input").fill("Fine, Friday then.")
    alice.get_by_test_id("comment-submit").click()
    expect(owner.get_by_test_id("comment-text")).to_contain_text(["Fine, Friday then."],
                                                                 timeout=LIVE_MS)
    shoot(owner, "decision-deferred-desktop")
    shoot(alice, "decision-deferred-participant-phone")
    phone = open_page(f"/choice/{iid}", viewport=TEAM_PHONE)
    shoot(phone, "decision-deferred-phone")

    owner.get_by_test_id("resume").click()
    expect(owner.get_by_test_id("countdown")).to_be_visible()
    expect(alice.get_by_test_id("discussion-deferred")).to_have_count(0, timeout=LIVE_MS)
    expect(alice.get_by_test_id("countdown")).to_be_visible()
    panel = owner.get_by_test_id("decision-panel")
    expect(panel).to_have_attribute("data-status", "widened")
    panel.get_by_test_id("fetch-review").click()
    expect(owner.get_by_test_id("review-waiting")).to_be_visible()  # asked: now it may come
    send_candidate(client, iid)
    owner.get_by_test_id("accept").click(timeout=LIVE_MS)
    expect(owner.get_by_test_id("provenance-source")).to_have_text("from the discussion")
    expect(alice.get_by_test_id("team-outcome-source")).to_have_text(
        "accepted the agent's summary of the discussion", timeout=LIVE_MS)
    expect(alice.get_by_test_id("team-outcome-choices")).to_have_text("PostgreSQL")


def test_no_summary_in_time_falls_back_to_writing_it_by_hand(
        open_page: OpenPage, client: PortalClient) -> None:
    iid, _ = widened(client)
    owner = open_page(f"/choice/{iid}", viewport=TEAM_DESKTOP)
    owner.get_by_test_id("fetch-review").click()
    expect(owner.get_by_test_id("review-waiting")).to_be_visible()
    fallback = owner.get_by_test_id("review-timed-out")
    expect(fallback).to_have_text(re.compile(
        "The agent did not send a summary in time. Write the answer yourself."),
        timeout=LIVE_MS)  # the 2 s fallback, pushed to the page
    expect(owner.get_by_test_id("team-live")).to_be_visible()  # the raw discussion stays
    answer = owner.get_by_test_id("write-form").get_by_test_id("final-answer")
    expect(answer).to_have_value("")
    shoot(owner, "decision-timed-out-desktop")
    phone = open_page(f"/choice/{iid}", viewport=TEAM_PHONE)
    expect(phone.get_by_test_id("review-timed-out")).to_be_visible()
    shoot(phone, "decision-timed-out-phone")
    answer.fill("PostgreSQL.")
    owner.get_by_test_id("write-form").locator(
        "[data-option-id=pg] [data-testid=option-label]").click()
    owner.get_by_test_id("write-form").get_by_test_id("submit").click()
    expect(owner.get_by_test_id("provenance-source")).to_have_text("written by hand")
    assert source_of(client, iid)["summary_json"]["source"] == "manual"


def test_a_late_candidate_never_replaces_what_the_owner_is_typing(
        open_page: OpenPage, client: PortalClient) -> None:
    iid, _ = widened(client)
    owner = open_page(f"/choice/{iid}", viewport=TEAM_DESKTOP)
    owner.get_by_test_id("fetch-review").click()
    expect(owner.get_by_test_id("review-timed-out")).to_be_visible(timeout=LIVE_MS)
    answer = owner.get_by_test_id("write-form").get_by_test_id("final-answer")
    answer.fill("My own words, half written")
    send_candidate(client, iid)  # late: the agent answers after the fallback
    notice = owner.get_by_test_id("late-candidate")
    expect(notice).to_contain_text(CANDIDATE["candidate_answer"], timeout=LIVE_MS)
    expect(answer).to_have_value("My own words, half written")
    notice.get_by_test_id("use-candidate").click()
    expect(owner.get_by_test_id("candidate-review")).to_be_visible()


def test_two_teammates_voting_alike_reach_the_quorum_on_the_owners_page(
        open_page: OpenPage, client: PortalClient) -> None:
    iid, people = widened(client, quorum={"min_votes": 2})
    owner = open_page(f"/choice/{iid}", viewport=TEAM_DESKTOP)
    expect(owner.get_by_test_id("quorum-text")).to_have_text("Resolves when 2 of 3 vote alike.")
    alice = open_page(people["Alice Johnson"], signed_in=False, viewport=TEAM_PHONE)
    bob = open_page(people["Bob Smith"], signed_in=False, viewport=TEAM_PHONE)
    expect(alice.get_by_test_id("discussion-quorum")).to_have_text(
        "2 of 3 matching votes decide.")
    vote(alice, "PostgreSQL")
    expect(alice.get_by_test_id("vote-saved")).to_be_visible()
    assert source_of(client, iid)["status"] == "widened"
    vote(bob, "PostgreSQL")
    expect(owner.get_by_test_id("provenance-source")).to_have_text("decided by quorum",
                                                                   timeout=LIVE_MS)
    expect(owner.get_by_test_id("decided-by")).to_have_text("the team's quorum")
    expect(owner.get_by_test_id("outcome-choices")).to_have_text("PostgreSQL")
    expect(owner.locator("[data-testid=outcome-vote][data-option-id=pg]")
           .get_by_test_id("outcome-voters")).to_have_text("Alice Johnson, Bob Smith")
    expect(alice.get_by_test_id("team-outcome-source")).to_contain_text("decided by quorum",
                                                                        timeout=LIVE_MS)
    result = source_of(client, iid)
    assert (result["decided_by"], result["selected_ids"]) == ("quorum", ["pg"])


def test_the_owner_changes_the_quorum_and_switches_it_off(
        open_page: OpenPage, client: PortalClient) -> None:
    iid, _ = widened(client)
    owner = open_page(f"/choice/{iid}")
    expect(owner.get_by_test_id("quorum-text")).to_contain_text("No quorum")
    owner.get_by_test_id("quorum-change").click()
    owner.get_by_test_id("quorum-votes").fill("4")
    owner.get_by_test_id("quorum-save").click()
    expect(owner.get_by_test_id("quorum-error")).to_contain_text("at most 3")
    owner.get_by_test_id("quorum-votes").fill("3")
    owner.get_by_test_id("quorum-save").click()
    expect(owner.get_by_test_id("quorum-text")).to_have_text("Resolves when 3 of 3 vote alike.")
    owner.get_by_test_id("quorum-change").click()
    owner.get_by_test_id("quorum-off").click()
    expect(owner.get_by_test_id("quorum-text")).to_contain_text("No quorum")


def test_a_quorum_set_elsewhere_leaves_the_owners_open_quorum_form_as_it_is(
        open_page: OpenPage, client: PortalClient) -> None:
    iid, _ = widened(client)
    owner = open_page(f"/choice/{iid}")
    owner.get_by_test_id("quorum-change").click()
    owner.get_by_test_id("quorum-votes").fill("2")
    client.call("PUT", f"/api/interactions/{iid}/quorum", {"min_votes": 3})  # another tab, the API
    expect(owner.get_by_test_id("quorum-text")).to_have_text("Resolves when 3 of 3 vote alike.",
                                                             timeout=LIVE_MS)
    expect(owner.get_by_test_id("quorum-votes")).to_be_visible()
    expect(owner.get_by_test_id("quorum-votes")).to_have_value("2")
    owner.get_by_test_id("quorum-off").click()
    expect(owner.get_by_test_id("quorum-text")).to_contain_text("No quorum")


def test_a_plain_question_is_deferred_listed_and_taken_up_again(
        open_page: OpenPage, client: PortalClient) -> None:
    iid = client.create(question(title="Rename the sync service?"))["interaction_id"]
    owner = open_page(f"/choice/{iid}")
    owner.get_by_test_id("defer-open").click()
    owner.get_by_test_id("defer-submit").click()
    expect(owner.get_by_test_id("defer-error")).to_be_visible()
    owner.get_by_test_id("defer-rationale").fill("After the release.")
    owner.get_by_test_id("defer-submit").click()
    expect(owner.get_by_test_id("deferred-rationale")).to_have_text("Deferred: After the release.")
    item = owner.locator(f"[data-testid=list-item][data-interaction-id='{iid}']")
    expect(item.get_by_test_id("status-badge")).to_have_text("Deferred", timeout=LIVE_MS)
    owner.get_by_test_id("filter-deferred").click()
    expect(owner.locator(f"[data-testid=list-item][data-interaction-id='{iid}']")).to_be_visible()
    owner.get_by_test_id("resume").click()
    expect(owner.get_by_test_id("choice-form")).to_be_visible()
    expect(owner.get_by_test_id("countdown")).to_be_visible()
    assert source_of(client, iid)["status"] == "pending"


def test_resolve_and_defer_work_without_javascript(open_page: OpenPage,
                                                  client: PortalClient) -> None:
    iid, _ = widened(client)
    page = open_page(f"/choice/{iid}", java_script_enabled=False)
    form = page.get_by_test_id("write-form")
    form.get_by_test_id("submit").click()  # no option picked: the field's error, page intact
    expect(page.get_by_test_id("selected-error")).to_be_visible()
    form = page.get_by_test_id("write-form")
    form.locator("[data-option-id=duck] [data-testid=option-label]").click()
    form.get_by_test_id("final-answer").fill("DuckDB for the analytics side.")
    form.get_by_test_id("submit").click()
    expect(page.get_by_test_id("provenance-source")).to_have_text("written by hand")
    assert page.url.endswith(f"/choice/{iid}")  # post/redirect/get

    plain = client.create(question(title="Defer me"))["interaction_id"]
    page.goto(f"{page.url.rsplit('/choice/', 1)[0]}/choice/{plain}")
    page.get_by_test_id("defer-open").click()
    page.get_by_test_id("defer-submit").click()
    expect(page.get_by_test_id("defer-error")).to_be_visible()
    expect(page.get_by_test_id("defer-rationale")).to_be_visible()  # kept open, with the error
    page.get_by_test_id("defer-rationale").fill("Not now.")
    page.get_by_test_id("defer-submit").click()
    expect(page.get_by_test_id("deferred-rationale")).to_have_text("Deferred: Not now.")
    page.get_by_test_id("resume").click()
    expect(page.get_by_test_id("choice-form")).to_be_visible()

