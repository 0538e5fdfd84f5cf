"""Option visibility in the browser: "Hide" folds an option under "N hidden
options" and the next question starts with it folded; "Show them all again" brings them
back; the last option shown and a picked one cannot be hidden; a folded option picked by a
draft opens the fold."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from choice.client.portal_client import PortalClient
from tests.browser.conftest import OpenPage
from tests.browser.support import question, shoot


@pytest.fixture(autouse=True)
def nothing_hidden(client: PortalClient) -> Iterator[None]:
    client.save_settings({"hidden_options": [], "language": "en"})
    yield
    client.save_settings({"hidden_options": []})


def shown(page: Page) -> list[str]:
    return page.locator("fieldset.options > [data-testid=option]").evaluate_all(
        "rows => rows.map(row => row.dataset.optionId)")


def hide(page: Page, option_id: str) -> None:
    row = page.locator(f"fieldset.options > [data-option-id={option_id}]")
    row.hover()
    with page.expect_response(lambda r: r.url.endswith("/hidden-options") and r.status == 204):
        row.get_by_test_id("option-hide").click()


@pytest.mark.parametrize("phone", [False, True])
def test_a_hidden_option_folds_and_stays_folded_on_the_next_question(
        open_page: OpenPage, client: PortalClient, phone: bool) -> None:
    page = open_page(f"/choice/{client.create(question())['interaction_id']}", phone=phone)
    hide(page, "mem")
    hide(page, "duck")
    assert shown(page) == ["pg", "lite"]
    fold = page.get_by_test_id("hidden-options")
    expect(fold.get_by_test_id("hidden-options-toggle")).to_have_text("2 hidden options")
    assert client.settings()["hidden_options"] == ["DuckDB", "In memory"]
    shoot(page, f"option-visibility-{'phone' if phone else 'desktop'}")

    later = open_page(f"/choice/{client.create(question())['interaction_id']}", phone=phone)
    assert shown(later) == ["pg", "lite"]
    later.get_by_test_id("hidden-options-toggle").click()
    with later.expect_response(lambda r: r.url.endswith("/hidden-options")):
        later.get_by_test_id("show-hidden").click()
    assert shown(later) == ["pg", "lite", "duck", "mem"]  # back in the question's order
    expect(later.get_by_test_id("hidden-options")).to_be_hidden()
    assert client.settings()["hidden_options"] == []


def test_the_last_option_shown_and_a_picked_one_stay(open_page: OpenPage,
                                                      client: PortalClient) -> None:
    iid = client.create(question(selection_mode="multi", max_selections=4))["interaction_id"]
    page = open_page(f"/choice/{iid}")
    pick = page.locator("[data-option-id=pg] [data-testid=option-input]")
    pick.check()
    page.locator("[data-option-id=pg]").hover()
    expect(page.locator("[data-option-id=pg] [data-testid=option-hide]")).to_be_hidden()
    for option_id in ("mem", "duck", "lite"):
        hide(page, option_id)
    pick.uncheck()
    page.locator("[data-option-id=pg]").hover()
    page.locator("[data-option-id=pg] [data-testid=option-hide]").click()
    expect(page.get_by_test_id("toast").last).to_contain_text("last option shown")
    assert shown(page) == ["pg"]
    assert client.settings()["hidden_options"] == ["SQLite", "DuckDB", "In memory"]


def test_a_folded_option_picked_by_a_draft_opens_the_fold(open_page: OpenPage,
                                                          client: PortalClient) -> None:
    client.save_settings({"hidden_options": ["DuckDB"]})
    iid = client.create(question())["interaction_id"]
    client.call("PUT", f"/api/interactions/{iid}/draft", {"selected_ids": ["duck"]})
    page = open_page(f"/choice/{iid}")
    expect(page.get_by_test_id("hidden-options")).to_have_attribute("open", "")
    expect(page.locator("[data-option-id=duck] [data-testid=option-input]")).to_be_checked()
