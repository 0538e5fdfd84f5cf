"""The review step (confirm, back, cancel with a note) and notes on options and overall."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from choice.client.portal_client import PortalClient
from tests.browser.conftest import OpenPage
from tests.browser.support import question, shoot


def pick(page: Page, option_id: str) -> None:
    page.locator(f"[data-testid=option][data-option-id='{option_id}']").get_by_test_id(
        "option-label").click()


def test_review_then_confirm_completes_with_confirmed_true(open_page: OpenPage,
                                                          client: PortalClient) -> None:
    iid = client.create(question(require_confirmation=True))["interaction_id"]
    page = open_page(f"/choice/{iid}")
    pick(page, "pg")
    expect(page.get_by_test_id("submit")).to_have_text("Review")
    page.get_by_test_id("submit").click()
    expect(page.get_by_test_id("review-choice")).to_have_text("PostgreSQL")
    shoot(page, "review-desktop")
    assert client.poll(iid, 0)["status"] == "pending"  # reviewing is not answering
    page.get_by_test_id("confirm").click()
    expect(page.get_by_test_id("outcome")).to_be_visible()
    result = client.poll(iid, 10)
    assert result["status"] == "submitted" and result["confirmed"] is True
    assert result["selected_ids"] == ["pg"] and result["interface"] == "web"


def test_back_from_review_keeps_the_choice_and_cancel_sends_the_note(
        open_page: OpenPage, client: PortalClient) -> None:
    iid = client.create(question(selection_mode="multi", require_confirmation=True))[
        "interaction_id"]
    page = open_page(f"/choice/{iid}", phone=True)
    pick(page, "lite")
    pick(page, "duck")
    page.get_by_test_id("submit").click()
    expect(page.get_by_test_id("review-choice")).to_have_text(["SQLite", "DuckDB"])
    shoot(page, "review-phone")
    page.get_by_test_id("back").click()
    checked = page.locator("[data-testid=option-input]:checked")
    expect(checked).to_have_count(2)
    assert [box.get_attribute("value") for box in checked.all()] == ["lite", "duck"]
    page.get_by_test_id("cancel-open").click()
    page.get_by_test_id("cancel-note").fill("Ask again after the load test")
    page.get_by_test_id("cancel-confirm").click()
    expect(page.get_by_test_id("outcome")).to_have_attribute("data-status", "cancelled")
    shoot(page, "cancelled-phone")
    result = client.poll(iid, 10)
    assert result["status"] == "cancelled" and result["action_status"] == "cancelled"
    assert result["global_annotation"] == "Ask again after the load test"
    assert result["selected_ids"] == [] and result["confirmed"] is False


def test_option_notes_and_the_global_note_reach_the_agent(open_page: OpenPage,
                                                          client: PortalClient) -> None:
    iid = client.create(question(selection_mode="multi"))["interaction_id"]
    page = open_page(f"/choice/{iid}")
    for option_id, note in (("pg", "Use the shared cluster"), ("mem", "Only in CI")):
        card = page.locator(f"[data-testid=option][data-option-id='{option_id}']")
        card.get_by_test_id("option-label").click()
        card.get_by_test_id("option-note-toggle").click()
        card.get_by_test_id("option-note").fill(note)
    page.get_by_test_id("global-note").fill("Decided with the ops team")
    shoot(page, "notes-desktop")
    page.get_by_test_id("submit").click()
    expect(page.get_by_test_id("outcome")).to_be_visible()
    result = client.poll(iid, 10)
    assert result["selected_ids"] == ["pg", "mem"]
    assert result["option_annotations"] == {"pg": "Use the shared cluster", "mem": "Only in CI"}
    assert result["global_annotation"] == "Decided with the ops team"
