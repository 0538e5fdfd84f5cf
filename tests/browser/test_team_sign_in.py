"""Team mode in Chromium: two members sign in through the real pages (the portal's `/login`,
the OpenID provider's own login form, the way back to `/auth/callback`), each in their own
browser, and each sees themselves in `/api/me`. A member a question is widened to hears it
on their open page, opens it from there and votes, signed in. An owner ticks a member in
the widen dialog, at desktop and at phone width, and that member finds it in their list."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import TIMEOUT_MS, wait_until_live
from tests.browser.team import shoot_dialog, vote
from tests.oidc.provider import Member, OidcProvider, team_portal
from tests.portal_process import PortalProcess

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[tuple[OidcProvider, PortalProcess]]:
    with team_portal(tmp_path_factory.mktemp("team")) as both:
        yield both


def test_two_members_sign_in_through_the_real_pages_and_each_sees_themselves(
        browser: Browser, team: tuple[OidcProvider, PortalProcess]) -> None:
    provider, portal = team
    people = {"ann@example.com": "Ann Lee", "bo@example.com": "Bo Wang"}
    for email, name in people.items():
        provider.set_account(email.partition("@")[0], email, name)
    contexts = {email: browser.new_context() for email in people}
    try:
        for email, context in contexts.items():
            page = context.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            page.goto(f"{portal.base_url}/settings")  # not signed in: off to the provider
            page.wait_for_url(f"{provider.issuer}/interaction/**")
            page.fill('input[name="email"]', email)
            page.click('button[type="submit"]')
            page.wait_for_url(f"{portal.base_url}/settings")
        for email, context in contexts.items():
            page = context.pages[0]
            page.goto(f"{portal.base_url}/api/me")
            assert json.loads(page.inner_text("body")) == {
                "email": email, "name": people[email], "admin": False}
    finally:
        for context in contexts.values():
            context.close()


def signed_in_page(browser: Browser, provider: OidcProvider, portal: PortalProcess,
                   email: str) -> Page:
    page = browser.new_context().new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{portal.base_url}/")
    page.wait_for_url(f"{provider.issuer}/interaction/**")
    page.fill('input[name="email"]', email)
    page.click('button[type="submit"]')
    page.wait_for_url(f"{portal.base_url}/")
    return page


def test_a_member_hears_a_question_widened_to_them_opens_it_and_votes_signed_in(
        browser: Browser, team: tuple[OidcProvider, PortalProcess]) -> None:
    provider, portal = team
    provider.set_account("cy", "cy@example.com", "Cy Owner")
    provider.set_account("di", "di@example.com", "Di Member")
    owner = Member(portal, "cy@example.com")
    page = signed_in_page(browser, provider, portal, "di@example.com")
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        wait_until_live(page)
        iid = owner.ask("Which store, Di?")
        widened = owner.call("POST", f"/api/interactions/{iid}/widen",
                             json={"members": ["di@example.com"]})
        assert widened.status_code == 201, widened.text
        toast = page.get_by_test_id("toast").last
        expect(toast).to_contain_text("Widened to you: Which store, Di?")
        expect(page.get_by_test_id("widened-to-me-item")).to_contain_text("Which store, Di?")
        page.get_by_test_id("widened-to-me-item").click()
        page.wait_for_url(f"{portal.base_url}/widened/{iid}")
        vote(page, "PostgreSQL")
        expect(page.get_by_test_id("vote-saved")).to_be_visible()
        expect(page.locator("[data-option-id=pg] [data-testid=tally]")).to_have_attribute(
            "data-votes", "1")
        tally = owner.call("GET", f"/api/interactions/{iid}/team").json()["tally"]
        assert {t["option_id"]: t["voters"] for t in tally}["pg"] == ["Di Member"]
        assert errors == []
    finally:
        page.context.close()


@pytest.mark.parametrize(("width", "height"), [(1280, 860), (390, 844)])
def test_the_owner_ticks_a_member_in_the_widen_dialog_and_they_find_it(
        browser: Browser, team: tuple[OidcProvider, PortalProcess], width: int,
        height: int) -> None:
    provider, portal = team
    provider.set_account("ed", "ed@example.com", "Ed Owner")
    provider.set_account("flo", "flo@example.com", "Flo Member")
    flo = Member(portal, "flo@example.com")
    page = signed_in_page(browser, provider, portal, "ed@example.com")
    page.set_viewport_size({"width": width, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        iid = Member(portal, "ed@example.com").ask(f"Which broker at {width}?")
        page.goto(f"{portal.base_url}/choice/{iid}")
        page.get_by_test_id("widen-open").click()
        dialog = page.get_by_test_id("widen-dialog")
        picks = dialog.get_by_test_id("widen-members")
        expect(picks).to_contain_text("Flo Member")
        expect(picks).not_to_contain_text("Ed Owner")  # never the owner
        flo_box = picks.get_by_label("Flo Member")
        flo_box.scroll_into_view_if_needed()
        shoot_dialog(page, f"team-widen-members-{width}")
        flo_box.check()
        dialog.get_by_test_id("widen-submit").click()
        expect(dialog.get_by_test_id("invited-name")).to_have_text(["Flo Member"])
        listed = flo.call("GET", "/api/interactions").json()["widened_to_me"]
        assert iid in {row["interaction_id"] for row in listed}
        assert errors == []
    finally:
        page.context.close()
