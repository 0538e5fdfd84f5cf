"""The settings panel applies what it saves at once: the open question re-renders (the
`choice:settings-saved` event the save answers with), and a new language reloads the page."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from choice.portal_client import PortalClient
from tests.browser.conftest import OpenPage
from tests.browser.support import question
from tests.browser.test_countdown import mark, same_document

TYPED = "textarea[name=custom_input]"


@pytest.fixture(autouse=True)
def saved_preferences(client: PortalClient) -> Iterator[None]:
    """Preferences are the module portal's: each test puts them back."""
    before = client.settings()
    yield
    client.save_settings(before)


def test_a_saved_setting_re_renders_the_question_in_place(open_page: OpenPage,
                                                          client: PortalClient) -> None:
    client.save_settings({"show_placeholder": True, "language": "en"})
    iid = client.create(question(selection_mode="hybrid", placeholder="e.g. Valkey"))[
        "interaction_id"]
    page = open_page(f"/choice/{iid}")
    expect(page.locator(f"{TYPED}[placeholder='e.g. Valkey']")).to_have_count(1)
    mark(page)
    page.get_by_test_id("settings-open").click()
    page.get_by_test_id("pref-show_placeholder").uncheck()
    page.get_by_test_id("save-settings").click()
    expect(page.get_by_test_id("settings-saved")).to_be_visible()
    expect(page.locator(f"{TYPED}[placeholder]")).to_have_count(0)  # the event re-rendered it
    expect(page.locator(TYPED)).to_have_count(1)
    assert same_document(page)
    assert client.settings()["show_placeholder"] is False


def test_a_new_language_reloads_the_page_in_that_language(open_page: OpenPage,
                                                          client: PortalClient) -> None:
    client.save_settings({"language": "en"})
    iid = client.create(question())["interaction_id"]
    page = open_page(f"/choice/{iid}")
    mark(page)
    page.get_by_test_id("settings-open").click()
    page.get_by_test_id("pref-language").select_option("zh")
    with page.expect_navigation():
        page.get_by_test_id("save-settings").click()
    expect(page.locator("html")).to_have_attribute("lang", "zh")
    assert not same_document(page)
