"""A question the agent withdraws while its page is open: the page says so at once, with
the agent's reason, and offers nothing to answer; a participant's page says it too."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from choice.client.portal_client import PortalClient
from tests.browser.conftest import OpenPage
from tests.browser.support import question, shoot
from tests.browser.team import links, widen

REASON = "Found it in the ADR: we use PostgreSQL."


@pytest.mark.parametrize("phone", [False, True])
def test_the_open_page_says_the_agent_no_longer_needs_it(
        open_page: OpenPage, client: PortalClient, phone: bool) -> None:
    iid = client.create(question())["interaction_id"]
    page = open_page(f"/choice/{iid}", phone=phone)
    expect(page.get_by_test_id("choice-form")).to_be_visible()
    client.withdraw(iid, REASON)
    expect(page.get_by_test_id("outcome")).to_have_attribute("data-status", "withdrawn")
    expect(page.get_by_test_id("summary")).to_have_text(f"The agent no longer needs this: {REASON}")
    expect(page.get_by_test_id("choice-form")).to_have_count(0)
    shoot(page, f"withdrawn-{'phone' if phone else 'desktop'}")


def test_a_participant_sees_it_was_withdrawn(open_page: OpenPage, client: PortalClient,
                                             team_list: None) -> None:
    iid = client.create(question())["interaction_id"]
    alice = links(widen(client, iid))["Alice Johnson"]
    page = open_page(alice, signed_in=False)
    expect(page.get_by_test_id("vote-form")).to_be_visible()
    client.withdraw(iid, REASON)
    expect(page.get_by_test_id("team-outcome-title")).to_have_text("No longer needed")
    expect(page.get_by_test_id("team-outcome-text")).to_have_text(
        f"The agent no longer needs this: {REASON}")
