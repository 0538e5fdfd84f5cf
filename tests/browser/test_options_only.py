"""A `hitl_request` is options-only on the page
(docs/reference/contract.md#compatibility-shapes): no per-option notes, no note for the
agent, no typed answer, no cancel reason; its confirm step still works. A `provide_choice`
question keeps all of them."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from choice.client.portal_client import PortalClient
from tests.browser.conftest import OpenPage
from tests.browser.support import question, shoot


def hitl(client: PortalClient, **fields: Any) -> str:
    created = client.create({"question": "Deploy the release to staging now?",
                             "options": ["Deploy now", {"id": "wait", "label": "Wait an hour"}],
                             "interface": "web", "timeout_seconds": 300, **fields})
    return str(created["interaction_id"])


def free_text_boxes(page: Page) -> int:
    """Where a person could type in the answer form or the cancel, shown or folded away.
    (The owner's defer and widen have their own boxes: the portal's, not the answer's.)"""
    return page.locator("#choice-form textarea, #choice-form input[type=text], "
                        "[data-testid=cancel] textarea, [data-testid=cancel] input").count()


def test_a_hitl_request_page_has_no_free_text_path_and_confirms(
        open_page: OpenPage, client: PortalClient) -> None:
    iid = hitl(client, confirm=True)
    page = open_page(f"/choice/{iid}")
    expect(page.get_by_test_id("option")).to_have_count(2)
    for hidden in ("option-note-toggle", "option-note", "global-note", "custom-input",
                   "cancel-note"):
        expect(page.get_by_test_id(hidden)).to_have_count(0)
    page.get_by_test_id("cancel-open").click()
    expect(page.get_by_test_id("cancel-options-only")).to_be_visible()
    assert free_text_boxes(page) == 0
    shoot(page, "hitl-options-only-desktop")
    page.locator("[data-testid=option][data-option-id='wait']").get_by_test_id(
        "option-label").click()
    expect(page.get_by_test_id("submit")).to_have_text("Review")
    page.get_by_test_id("submit").click()
    expect(page.get_by_test_id("review-choice")).to_have_text("Wait an hour")
    page.get_by_test_id("confirm").click()
    expect(page.get_by_test_id("outcome")).to_be_visible()
    result = client.poll(iid, 10)
    assert (result["selected_ids"], result["confirmed"]) == (["wait"], True)
    assert result["global_annotation"] is None and result["option_annotations"] == {}


def test_escape_on_a_hitl_request_opens_a_cancel_without_a_reason(
        open_page: OpenPage, client: PortalClient) -> None:
    iid = hitl(client)
    page = open_page(f"/choice/{iid}", phone=True)
    expect(page.get_by_test_id("option")).to_have_count(2)
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("cancel-confirm")).to_be_focused()  # no box to type a reason
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("outcome")).to_have_attribute("data-status", "cancelled")
    result = client.poll(iid, 10)
    assert (result["action_status"], result["global_annotation"]) == ("cancelled", None)


def test_a_provide_choice_page_keeps_notes_and_the_cancel_reason(
        open_page: OpenPage, client: PortalClient) -> None:
    iid = client.create(question())["interaction_id"]
    page = open_page(f"/choice/{iid}")
    expect(page.get_by_test_id("option-note-toggle")).to_have_count(4)
    expect(page.get_by_test_id("global-note")).to_be_visible()
    page.get_by_test_id("cancel-open").click()
    expect(page.get_by_test_id("cancel-note")).to_be_visible()
    expect(page.get_by_test_id("cancel-options-only")).to_have_count(0)
    client.cancel(iid)
