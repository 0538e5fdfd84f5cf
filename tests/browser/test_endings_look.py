"""How a question ended looks like what it was: an answer is the green success box, while
"No longer needed" (withdrawn), "Time ran out" and "Cancelled" are neutral, in light and
dark, on the question's page and as the list's badges."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Locator, expect

from tests.browser.conftest import OpenPage
from tests.browser.support import iso_in, question, shoot
from tests.portal_process import PortalProcess

ENDINGS = ("submitted", "withdrawn", "timeout", "cancelled")
BOX_COLOURS = "b => [getComputedStyle(b).backgroundColor, getComputedStyle(b).borderTopColor]"


@pytest.fixture(scope="module")
def ended(portal: PortalProcess) -> Iterator[dict[str, str]]:
    """One question for each ending: status -> its id."""
    client = portal.client()
    ids = {status: client.create(question(title=f"Ended: {status}"))["interaction_id"]
           for status in ENDINGS}
    client.respond(ids["submitted"], {"selected_ids": ["pg"]})
    client.withdraw(ids["withdrawn"], "Found it in the ADR.")
    client.cancel(ids["cancelled"])
    client.call("PATCH", f"/api/interactions/{ids['timeout']}", {"expires_at": iso_in(2)})
    assert client.poll(ids["timeout"], wait=15)["status"] == "timeout"
    yield ids


def colours(box: Locator) -> tuple[str, str]:
    background, border = box.evaluate(BOX_COLOURS)
    return background, border


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_only_an_answer_is_a_success_box_the_other_endings_are_neutral(
        open_page: OpenPage, ended: dict[str, str], scheme: str) -> None:
    looks = {}
    for status, iid in ended.items():
        page = open_page(f"/choice/{iid}", color_scheme=scheme)
        outcome = page.get_by_test_id("outcome")
        expect(outcome).to_have_attribute("data-status", status)
        looks[status] = colours(outcome)
        shoot(page, f"ending-{status}-{scheme}")
    answered = looks.pop("submitted")
    for status, look in looks.items():
        assert look[0] != answered[0] and look[1] != answered[1], (status, look, answered)
    assert len(set(looks.values())) == 1, looks  # one neutral look for every other ending


def test_the_lists_badges_of_the_other_endings_are_neutral_too(
        open_page: OpenPage, ended: dict[str, str]) -> None:
    page = open_page("/?filter=completed")
    badges = {}
    for status, iid in ended.items():
        badge = page.locator(f"[data-testid=list-item][data-interaction-id='{iid}'] "
                             "[data-testid=status-badge]")
        badges[status] = colours(badge)
    answered = badges.pop("submitted")
    assert all(look[0] != answered[0] for look in badges.values()), (badges, answered)
    assert len(set(badges.values())) == 1, badges
