"""What the team-mode browser tests share: the team list, widening through the API (when
the dialog is not what a test is about), the screen sizes the team screenshots use, and the
participant's side of the page."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, ViewportSize

from choice.client.portal_client import PortalClient
from tests.browser.support import ARTIFACTS

TEAM = [{"name": "Alice Johnson", "handle": "@alice"}, {"name": "Bob Smith"},
        {"name": "Carol Lee", "email": "carol@example.com"}]
TEAM_DESKTOP = ViewportSize(width=1280, height=800)
TEAM_PHONE = ViewportSize(width=390, height=844)


def widen(client: PortalClient, interaction_id: str, **body: Any) -> dict[str, Any]:
    """Widen through the API; the reply holds each participant's link (shown only there)."""
    reply: dict[str, Any] = client.call("POST", f"/api/interactions/{interaction_id}/widen",
                                        body)
    return reply


def links(reply: dict[str, Any]) -> dict[str, str]:
    """Each participant's path (`/d/<secret>`) by name."""
    return {p["name"]: "/d/" + p["link"].rsplit("/d/", 1)[1] for p in reply["participants"]}


def comment(page: Page, text: str) -> None:
    page.get_by_test_id("comment-input").fill(text)
    page.get_by_test_id("comment-submit").click()


def vote(page: Page, label: str) -> None:
    page.locator("[data-testid=vote-option]", has_text=label).get_by_test_id("vote-input").check()
    page.get_by_test_id("vote-submit").click()


def shoot_dialog(page: Page, name: str) -> None:
    """What the screen shows with a modal open (a full-page shot would stretch the page
    past the backdrop), under tests/artifacts/ like the others."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
