"""Team mode's agent tokens in Chromium: a member signed in through the real provider finds
the page from the settings page, makes a token, sees its secret once (gone after a reload),
uses it, and revokes it; at desktop and phone width (screenshots in tests/artifacts/)."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page, ViewportSize

from tests.browser.conftest import TIMEOUT_MS
from tests.browser.support import DESKTOP, PHONE, shoot
from tests.oidc.provider import OidcProvider, team_portal
from tests.portal_process import PortalProcess

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[tuple[OidcProvider, PortalProcess]]:
    with team_portal(tmp_path_factory.mktemp("team")) as both:
        yield both


def signed_in(browser: Browser, provider: OidcProvider, portal: PortalProcess, email: str,
              viewport: ViewportSize) -> Page:
    provider.set_account(email.partition("@")[0], email, email.partition("@")[0].title())
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.goto(f"{portal.base_url}/settings")
    page.wait_for_url(f"{provider.issuer}/interaction/**")
    page.fill('input[name="email"]', email)
    page.click('button[type="submit"]')
    page.wait_for_url(f"{portal.base_url}/settings")
    return page


@pytest.mark.parametrize(("width", "viewport"), [("desktop", DESKTOP), ("phone", PHONE)])
def test_a_member_makes_a_token_sees_it_once_and_revokes_it(
        browser: Browser, team: tuple[OidcProvider, PortalProcess], width: str,
        viewport: ViewportSize) -> None:
    provider, portal = team
    page = signed_in(browser, provider, portal, f"tia-{width}@example.com", viewport)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.click('[data-testid="agent-tokens-link"]')
        page.wait_for_url(f"{portal.base_url}/settings/tokens")
        assert page.locator('[data-testid="token-none"]').is_visible()

        page.fill('[data-testid="token-name"]', "laptop claude code")
        page.click('[data-testid="token-make"]')
        secret_field = page.locator('[data-testid="token-secret"]')
        secret_field.wait_for()
        secret = secret_field.input_value()
        assert secret.startswith("chp_")
        assert page.locator('[data-testid="token-row-name"]').all_inner_texts() == [
            "laptop claude code"]
        assert page.locator('[data-testid="token-copy"]').is_visible()
        shoot(page, f"member-tokens-new-{width}")

        agent = {"Authorization": f"Bearer {secret}"}
        assert httpx.get(f"{portal.base_url}/api/me", headers=agent).status_code == 200

        page.reload()
        assert page.locator('[data-testid="token-secret"]').count() == 0
        assert secret not in page.content()  # shown once: never again
        assert "never" not in page.inner_text('[data-testid="token-last-used"]')
        shoot(page, f"member-tokens-list-{width}")

        page.once("dialog", lambda dialog: dialog.accept())
        page.click('[data-testid="token-revoke"]')
        page.locator('[data-testid="token-none"]').wait_for()
        assert httpx.get(f"{portal.base_url}/api/me", headers=agent).status_code == 401
        assert errors == []
    finally:
        page.context.close()


def test_a_refused_name_is_said_in_the_persons_words_and_makes_nothing(
        browser: Browser, team: tuple[OidcProvider, PortalProcess]) -> None:
    provider, portal = team
    page = signed_in(browser, provider, portal, "uma@example.com", DESKTOP)
    try:
        page.goto(f"{portal.base_url}/settings/tokens")
        page.fill('[data-testid="token-name"]', "   ")
        page.click('[data-testid="token-make"]')
        problem = page.locator('[data-testid="token-problem"]')
        problem.wait_for()
        assert "Name the token" in problem.inner_text()
        assert page.locator('[data-testid="token-row"]').count() == 0
    finally:
        page.context.close()
