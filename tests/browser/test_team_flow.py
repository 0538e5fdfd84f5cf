"""Team mode end to end, in two browser contexts against a real portal: the owner widens
from the dialog, a participant opens their link, comments and votes, the owner's page
follows live, the participant changes their vote, the owner answers, and the participant's
page shows the outcome with its forms gone. Screenshots of every screen, desktop and phone.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from choice.client.portal_client import PortalClient
from tests.browser.conftest import OpenPage
from tests.browser.support import question, shoot
from tests.browser.team import (
    TEAM_DESKTOP,
    TEAM_PHONE,
    comment,
    links,
    shoot_dialog,
    vote,
    widen,
)
from tests.portal_process import PortalProcess

pytestmark = pytest.mark.usefixtures("team_list")

LIVE_MS = 5_000
"""How long the owner's page may take to show what a participant did (it takes ms)."""




def owner_tally(page: Page, option_id: str) -> str:
    return f"[data-testid=owner-tally][data-option-id={option_id}]"


def test_widen_discuss_vote_and_decide_across_two_browsers(
        open_page: OpenPage, client: PortalClient, portal: PortalProcess) -> None:
    iid = client.create(question(timeout_seconds=900, widen_hint="Two teams run databases "
                                 "here: worth asking them."))["interaction_id"]
    owner = open_page(f"/choice/{iid}", viewport=TEAM_DESKTOP)
    expect(owner.get_by_test_id("widen-hint")).to_have_text(
        "Two teams run databases here: worth asking them.")

    owner.get_by_test_id("widen-open").click()
    dialog = owner.get_by_test_id("widen-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_test_id("widen-audience")).to_have_text(
        "Alice Johnson, Bob Smith, Carol Lee")
    expect(dialog.get_by_test_id("widen-block")).to_be_checked()  # the default: block
    shoot_dialog(owner, "team-widen-dialog-desktop")
    dialog.get_by_test_id("widen-names").fill("alice johnson, Bob Smith, Dana")
    dialog.get_by_test_id("widen-note").fill("Which would you run? I lean PostgreSQL.")
    dialog.get_by_test_id("widen-submit").click()

    expect(dialog.get_by_test_id("widen-invited")).to_be_visible()
    expect(dialog.get_by_test_id("invited-name")).to_have_text(
        ["Alice Johnson @alice", "Bob Smith", "Dana"])
    expect(dialog.get_by_test_id("widen-warnings")).to_contain_text("Dana")
    expect(dialog.get_by_test_id("copy-link").first).to_be_visible()  # the script shows it
    shared = dialog.get_by_test_id("invited-link").evaluate_all("els => els.map(e => e.value)")
    assert len(shared) == 3 and all(f"{portal.base_url}/d/" in link for link in shared)
    shoot_dialog(owner, "team-widen-links-desktop")
    dialog.get_by_test_id("widen-done").click()
    expect(dialog).to_be_hidden()
    panel = owner.get_by_test_id("team-panel")
    expect(panel).to_be_visible()
    expect(owner.get_by_test_id("widen-open")).to_have_count(0)  # widened once
    expect(owner.get_by_test_id("write-form")).to_be_visible()  # and still answerable
    expect(panel.get_by_test_id("invited-person")).to_have_count(3)
    expect(panel.locator("[data-testid=invited-person][data-opened=true]")).to_have_count(0)

    alice = open_page(shared[0].removeprefix(portal.base_url), signed_in=False,
                      viewport=TEAM_DESKTOP)
    expect(alice.get_by_test_id("you")).to_contain_text("Alice Johnson")
    expect(alice.get_by_test_id("widen-note")).to_contain_text("I lean PostgreSQL.")
    expect(alice.get_by_test_id("person")).to_have_text(["Alice Johnson", "Bob Smith", "Dana"])
    expect(panel.locator("[data-testid=invited-person][data-opened=true]")).to_have_count(
        1, timeout=LIVE_MS)

    comment(alice, "PostgreSQL: we run it already.\nSQLite would be one more thing to back up.")
    expect(alice.get_by_test_id("comment")).to_have_count(1)
    expect(alice.get_by_test_id("comment-input")).to_have_value("")
    expect(panel.get_by_test_id("comment-text")).to_have_text(
        "PostgreSQL: we run it already.\nSQLite would be one more thing to back up.",
        timeout=LIVE_MS)
    vote(alice, "PostgreSQL")
    expect(alice.get_by_test_id("vote-saved")).to_be_visible()
    expect(owner.locator(owner_tally(owner, "pg"))).to_have_attribute("data-votes", "1",
                                                                      timeout=LIVE_MS)
    expect(owner.locator(owner_tally(owner, "pg")).get_by_test_id("voters")).to_have_text(
        "Alice Johnson")

    bob = open_page(shared[1].removeprefix(portal.base_url), signed_in=False,
                    viewport=TEAM_PHONE)
    expect(bob.get_by_test_id("comment")).to_have_count(1)
    comment(bob, "Agreed, PostgreSQL.")
    expect(alice.get_by_test_id("comment-text")).to_have_text(
        ["PostgreSQL: we run it already.\nSQLite would be one more thing to back up.",
         "Agreed, PostgreSQL."], timeout=LIVE_MS)  # Alice's page got Bob's, over the socket
    shoot(bob, "team-participant-open-phone")

    vote(alice, "SQLite")  # changed her mind: one vote each, replaced
    expect(owner.locator(owner_tally(owner, "lite"))).to_have_attribute("data-votes", "1",
                                                                        timeout=LIVE_MS)
    expect(owner.locator(owner_tally(owner, "pg"))).to_have_attribute("data-votes", "0")
    expect(bob.locator("[data-option-id=lite] [data-testid=tally]")).to_have_attribute(
        "data-votes", "1", timeout=LIVE_MS)
    shoot(alice, "team-participant-open-desktop")
    shoot(owner, "team-owner-panel-desktop")

    owner.locator("[data-option-id=pg] [data-testid=option-label]").click()
    owner.get_by_test_id("submit").click()
    expect(owner.get_by_test_id("outcome")).to_be_visible()
    assert client.poll(iid, 10)["selected_ids"] == ["pg"]

    for page in (alice, bob):
        expect(page.get_by_test_id("team-outcome")).to_be_visible(timeout=LIVE_MS)
        expect(page.get_by_test_id("team-outcome-choices")).to_have_text("PostgreSQL")
        expect(page.locator("form")).to_have_count(0)  # read-only: no comment, no vote
        expect(page.get_by_test_id("comment")).to_have_count(2)
    expect(alice.get_by_test_id("my-vote-badge")).to_have_count(1)
    shoot(alice, "team-participant-closed-desktop")
    shoot(bob, "team-participant-closed-phone")
    shoot(owner, "team-owner-closed-desktop")


def test_the_owner_panel_and_the_dialog_at_phone_width(open_page: OpenPage,
                                                      client: PortalClient) -> None:
    iid = client.create(question(timeout_seconds=900))["interaction_id"]
    owner = open_page(f"/choice/{iid}", viewport=TEAM_PHONE)
    owner.get_by_test_id("widen-open").click()
    expect(owner.get_by_test_id("widen-form")).to_be_visible()
    shoot_dialog(owner, "team-widen-dialog-phone")
    owner.get_by_test_id("widen-names").fill("cancel")  # the prompt's way out: nothing changes
    owner.get_by_test_id("widen-submit").click()
    expect(owner.get_by_test_id("widen-dialog")).to_be_hidden()
    expect(owner.get_by_test_id("toast")).to_have_text("Nothing was widened.")
    assert client.poll(iid, 0)["status"] == "pending"

    paths = links(widen(client, iid, note="Thoughts?"))
    expect(owner.get_by_test_id("team-panel")).to_be_visible(timeout=LIVE_MS)  # its socket
    carol = open_page(paths["Carol Lee"], signed_in=False, viewport=TEAM_PHONE)
    comment(carol, "DuckDB is for analytics, not this.")
    expect(owner.get_by_test_id("comment-text")).to_have_text(
        "DuckDB is for analytics, not this.", timeout=LIVE_MS)
    owner.get_by_test_id("owner-comment-input").fill("Thanks, noted.")
    owner.get_by_test_id("owner-comment-submit").click()
    expect(carol.get_by_test_id("comment-author")).to_have_text(
        ["Carol Lee", "The person asking"], timeout=LIVE_MS)  # the name others know them by
    expect(owner.get_by_test_id("comment-author")).to_have_text(["Carol Lee", "You"])
    shoot(owner, "team-owner-panel-phone")
