"""The question page with script off: a refused answer lands back on the question's own
address (post/redirect/get) with the errors next to the form as typed, so a reload shows the
same page and posts nothing; and hints for keys that only script handles are not shown."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from choice.client.portal_client import PortalClient
from tests.browser.conftest import OpenPage
from tests.browser.support import question


def test_a_refused_answer_lands_on_the_questions_address_and_reloads_safely(
        open_page: OpenPage, client: PortalClient) -> None:
    iid = client.create(question(selection_mode="multi", min_selections=2,
                                 max_selections=3))["interaction_id"]
    page = open_page(f"/choice/{iid}", java_script_enabled=False)
    page.locator("[data-option-id=lite] input").check()
    page.get_by_test_id("global-note").fill("only one, on purpose")
    page.get_by_test_id("submit").click()
    page.wait_for_url(re.compile(rf"/choice/{iid}\?shown=[\w-]+$"))
    errors = page.get_by_test_id("form-errors")
    expect(errors).to_be_visible()
    expect(page.locator("[data-option-id=lite] input")).to_be_checked()  # kept as picked
    expect(page.get_by_test_id("global-note")).to_have_value("only one, on purpose")
    said = errors.inner_text()
    landed = page.url
    reloaded = page.reload()
    assert reloaded is not None and reloaded.request.method == "GET"
    assert page.url == landed
    expect(page.get_by_test_id("form-errors")).to_have_text(said)
    assert client.poll(iid, wait=0)["status"] == "pending"  # nothing was answered


def test_key_hints_show_only_where_script_handles_the_keys(open_page: OpenPage,
                                                           client: PortalClient) -> None:
    iid = client.create(question())["interaction_id"]
    plain = open_page(f"/choice/{iid}", java_script_enabled=False)
    expect(plain.locator(".keys")).to_be_hidden()
    scripted = open_page(f"/choice/{iid}")
    expect(scripted.locator(".keys")).to_be_visible()
    expect(scripted.locator(".keys")).to_have_text("Enter submits · Esc: cancel…")
    scripted.keyboard.press("Escape")  # what the hint promises: the cancel form opens
    expect(scripted.get_by_test_id("cancel-confirm")).to_be_visible()
