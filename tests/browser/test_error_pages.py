"""A wrong or old link in a signed-in browser shows a page, not the agents' JSON: what
happened, in the page's language, and the way back to the list, which the person follows."""

from __future__ import annotations

from playwright.sync_api import expect

from choice.client.portal_client import PortalClient
from tests.browser.conftest import OpenPage
from tests.browser.support import question, shoot
from tests.portal_process import PortalProcess

UNKNOWN = "0123456789abcdef"


def test_a_wrong_link_shows_a_page_that_leads_back_to_the_list(
        open_page: OpenPage, client: PortalClient, portal: PortalProcess) -> None:
    before = client.settings()
    client.save_settings({"language": "en"})
    try:
        iid = client.create(question())["interaction_id"]
        page = open_page(f"/choice/{UNKNOWN}", color_scheme="light")
        expect(page.get_by_test_id("error-page")).to_be_visible()
        expect(page.get_by_role("heading", level=1)).to_have_text("This question is not here")
        assert page.title() == "This question is not here · Choice portal"
        reloaded = page.reload()
        assert reloaded is not None and reloaded.status == 404
        expect(page.locator("body")).not_to_contain_text("errors")
        shoot(page, "error-page-not-found")
        page.get_by_role("link", name="All questions").click()
        expect(page.get_by_test_id("interaction-list")).to_be_visible()
        expect(page.locator(f"[data-testid=list-item][data-interaction-id='{iid}']")).to_be_visible()
        assert page.url == f"{portal.base_url}/"
    finally:
        client.save_settings(before)
