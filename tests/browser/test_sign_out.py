"""Signing out from the page header ends that browser's session: the page it leads to is the
sign-in page, the question is gone from this browser (reload, back, the live socket), and
another browser signed in meanwhile keeps its own session."""

from __future__ import annotations

from playwright.sync_api import expect

from choice.client.portal_client import PortalClient
from tests.browser.conftest import OpenPage
from tests.browser.support import question, shoot
from tests.portal_process import PortalProcess


def test_sign_out_in_the_header_ends_this_browsers_session_only(
        open_page: OpenPage, client: PortalClient, portal: PortalProcess) -> None:
    iid = client.create(question(title="Sign-out check"))["interaction_id"]
    page = open_page(f"/choice/{iid}")
    other = open_page(f"/choice/{iid}")  # another browser (its own context and session)
    expect(page.get_by_test_id("title")).to_have_text("Sign-out check")
    shoot(page, "sign-out-desktop")
    phone = open_page(f"/choice/{iid}", phone=True)
    expect(phone.get_by_test_id("logout")).to_be_visible()
    shoot(phone, "sign-out-phone")

    page.get_by_test_id("logout").click()
    expect(page.get_by_test_id("login")).to_be_visible()
    assert page.url == f"{portal.base_url}/login"
    assert page.context.cookies(portal.base_url) == []  # the cookie is dropped too
    page.go_back()
    expect(page.get_by_test_id("login")).to_be_visible()  # no-store: no copy to go back to
    page.goto(f"{portal.base_url}/choice/{iid}")
    expect(page.get_by_test_id("login")).to_be_visible()
    expect(page.get_by_test_id("title")).to_have_count(0)

    other.reload()
    expect(other.get_by_test_id("title")).to_have_text("Sign-out check")
