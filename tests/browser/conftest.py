"""Browser fixtures: one Chromium for the session, one real portal per module, and signed-in
pages at desktop or phone width.

`playwright install` cannot download browsers here, so Debian's Chromium is launched. The
portal gets its own data dir from `tmp_path_factory`: the autouse `isolated_env` is
per test, and a module's portal outlives it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Protocol

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from choice.client.portal_client import PortalClient
from tests.browser.support import DESKTOP, PHONE
from tests.browser.team import TEAM
from tests.portal_process import PortalProcess

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]
TIMEOUT_MS = 8_000


class OpenPage(Protocol):
    def __call__(self, path: str = "/", *, phone: bool = False, signed_in: bool = True,
                 prepare: Callable[[Page], object] | None = None,
                 context: BrowserContext | None = None, **options: Any) -> Page: ...


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Per module, not per session: Playwright's sync API keeps an event loop running in
    this thread while it is open, which would break the asyncio tests that follow."""
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def team_list(client: PortalClient) -> Iterator[None]:
    """The team list the team-mode tests widen to (and English), put back afterwards: the
    preferences are the module portal's."""
    before = client.settings()
    client.save_settings({"team": TEAM, "language": "en", "notifications": True})
    yield
    client.save_settings(before)


def wait_until_live(page: Page) -> None:
    """A page with a socket has it open (or has given it up) before the test goes on: what
    the test does next is news the page hears, not something it happens to catch up on."""
    if page.evaluate("() => Boolean(window.ChoicePortal?.config?.ws_path)"):
        page.locator("html[data-live]").wait_for(state="attached")


@pytest.fixture
def open_page(browser: Browser, portal: PortalProcess) -> Iterator[OpenPage]:
    """`open_page("/choice/<id>")`: a fresh context signed in through `/login?token=…`.
    `prepare(page)` runs before the first navigation (routes, init scripts); `context=`
    opens another tab in an existing context. Any uncaught script error fails the test."""
    contexts: list[BrowserContext] = []
    errors: list[str] = []

    def open_(path: str = "/", *, phone: bool = False, signed_in: bool = True,
              prepare: Callable[[Page], object] | None = None,
              context: BrowserContext | None = None, **options: Any) -> Page:
        if context is None:
            options.setdefault("viewport", PHONE if phone else DESKTOP)
            context = browser.new_context(**options)
            context.set_default_timeout(TIMEOUT_MS)
            contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
        if prepare is not None:
            prepare(page)
        if signed_in and not context.cookies(portal.base_url):
            page.goto(f"{portal.base_url}/login?token={portal.token}&next={path}")
        else:
            page.goto(portal.base_url + path)
        wait_until_live(page)
        return page

    yield open_
    for context in contexts:
        context.close()
    assert errors == [], "script errors in the page"
