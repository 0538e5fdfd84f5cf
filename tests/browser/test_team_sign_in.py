"""Team mode in Chromium: two members sign in through the real pages (the portal's `/login`,
the OpenID provider's own login form, the way back to `/auth/callback`), each in their own
browser, and each sees themselves in `/api/me`."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from tests.browser.conftest import TIMEOUT_MS
from tests.oidc.provider import OidcProvider, team_portal
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
