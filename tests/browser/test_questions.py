"""Several questions on one page in Chromium: three questions of different modes answered
by mouse and by keyboard, the progress and chips following along, the review listing every
answer, the agent's result holding each one, live updates, and a phone with no sideways
scroll."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from choice.client.portal_client import PortalClient
from tests.browser.conftest import OpenPage
from tests.browser.support import shoot

QUESTIONS: list[dict[str, Any]] = [
    {"id": "db", "header": "Database", "prompt": "Which **database** for the sync service?",
     "options": [{"id": "pg", "label": "PostgreSQL", "description": "The team runs one.",
                  "recommended": True},
                 {"id": "lite", "label": "SQLite", "description": "One file, no server."}]},
    {"id": "extras", "header": "Extras", "prompt": "Which extras should it start with?",
     "selection_mode": "multi",
     "options": [{"id": "cache", "label": "Cache"}, {"id": "queue", "label": "Queue"},
                 {"id": "search", "label": "Search"}]},
    {"id": "name", "header": "Name", "prompt": "What do we call the service?",
     "selection_mode": "text_input", "placeholder": "e.g. sync"},
]


def ask(**overrides: Any) -> dict[str, Any]:
    return {"title": "Set up the sync service", "questions": QUESTIONS,
            "prompt": "Three quick decisions before I scaffold it.",
            "context": {"agent": "claude-code", "project": "sync"}, **overrides}


def section(page: Page, question_id: str) -> Any:
    return page.locator(f"[data-testid=question][data-question-id='{question_id}']")


def focused_name(page: Page) -> str:
    return str(page.evaluate("document.activeElement.name || document.activeElement.dataset.testid"))


def test_by_mouse_the_progress_follows_and_the_review_lists_every_answer(
        open_page: OpenPage, client: PortalClient) -> None:
    iid = client.create(ask())["interaction_id"]
    page = open_page(f"/choice/{iid}")
    progress = page.get_by_test_id("progress-text")
    expect(progress).to_have_text("0 of 3 answered")
    expect(page.get_by_test_id("question-chip")).to_have_text(["Database", "Extras", "Name"])
    shoot(page, "questions-desktop")
    section(page, "db").get_by_text("SQLite").click()
    expect(progress).to_have_text("1 of 3 answered")
    expect(page.locator("[data-testid=question-chip].answered")).to_have_text(["Database"])
    # a pick moves on to the next unanswered question
    expect(section(page, "extras").locator("input").first).to_be_focused()
    section(page, "extras").get_by_text("Cache").click()
    section(page, "extras").get_by_text("Search").click()
    section(page, "name").get_by_test_id("custom-input").fill("sync-store")
    expect(progress).to_have_text("3 of 3 answered")
    page.get_by_test_id("question-chip").filter(has_text="Database").click()
    expect(section(page, "db").locator("input:checked")).to_be_focused()
    page.get_by_test_id("submit").click()
    review = page.get_by_test_id("review")
    expect(review.get_by_test_id("review-choice")).to_have_text(["SQLite", "Cache", "Search"])
    expect(review.get_by_test_id("review-custom")).to_have_text("sync-store")
    shoot(page, "questions-review-desktop")
    assert client.poll(iid, 0)["status"] == "pending"  # the review is not the answer
    page.get_by_test_id("confirm").click()
    expect(page.get_by_test_id("outcome-answer")).to_have_count(3)
    result = client.poll(iid, 10)
    assert result["status"] == "submitted" and result["interface"] == "web"
    assert result["answers"]["db"]["selected_labels"] == ["SQLite"]
    assert result["answers"]["extras"]["selected_ids"] == ["cache", "search"]
    assert result["answers"]["name"]["custom_input"] == "sync-store"
    assert result["summary"].splitlines()[0] == 'Database: Selected "SQLite" (lite).'
    shoot(page, "questions-outcome-desktop")


def test_by_keyboard_focus_flows_to_the_submit_and_back_from_review(
        open_page: OpenPage, client: PortalClient) -> None:
    iid = client.create(ask())["interaction_id"]
    page = open_page(f"/choice/{iid}")
    first = section(page, "db").locator("input").first
    first.focus()
    page.keyboard.press("ArrowDown")  # native: moves and picks, the focus stays
    expect(section(page, "db").locator("input[value=lite]")).to_be_checked()
    expect(section(page, "db").locator("input[value=lite]")).to_be_focused()
    page.keyboard.press("Enter")  # on to the next unanswered question
    expect(section(page, "extras").locator("input").first).to_be_focused()
    page.keyboard.press("Space")
    expect(page.get_by_test_id("progress-text")).to_have_text("2 of 3 answered")
    page.keyboard.press("Enter")
    expect(section(page, "name").get_by_test_id("custom-input")).to_be_focused()
    page.keyboard.type("sync")
    page.keyboard.press("Shift+Enter")  # a new line, not the next question
    page.keyboard.type("store")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("submit")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("review-question")).to_have_count(3)
    expect(page.get_by_test_id("review-custom")).to_have_text("sync\nstore")
    page.locator("[data-testid=review-question][data-question-id=extras]").get_by_test_id(
        "review-edit").click()
    expect(section(page, "extras").locator("input").first).to_be_focused()
    expect(section(page, "name").get_by_test_id("custom-input")).to_have_value("sync\nstore")
    page.keyboard.press("Control+Enter")
    page.get_by_test_id("confirm").click()
    expect(page.get_by_test_id("outcome")).to_be_visible()
    result = client.poll(iid, 10)
    assert result["answers"]["extras"]["selected_ids"] == ["cache"]
    assert result["answers"]["name"]["custom_input"] == "sync\nstore"


def test_a_missing_answer_is_named_in_the_review_and_an_answer_elsewhere_shows_live(
        open_page: OpenPage, client: PortalClient) -> None:
    iid = client.create(ask())["interaction_id"]
    page = open_page(f"/choice/{iid}", phone=True)
    section(page, "db").get_by_text("PostgreSQL").click()
    shoot(page, "questions-phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.get_by_test_id("submit").click()
    missing = page.get_by_test_id("review-missing")
    expect(missing).to_have_text("2 questions still need an answer.")
    expect(page.get_by_test_id("confirm")).to_be_disabled()
    shoot(page, "questions-review-phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.locator("[data-testid=review-question][data-question-id=name]").get_by_test_id(
        "review-edit").click()
    expect(section(page, "name").get_by_test_id("custom-input")).to_be_focused()
    client.respond(iid, {"answers": {"db": {"selected_ids": ["pg"]},
                                     "extras": {"selected_ids": ["queue"]},
                                     "name": {"custom_input": "from the API"}}})
    answers = page.get_by_test_id("outcome-answer")
    expect(answers).to_have_count(3)
    expect(answers.nth(1)).to_contain_text("Queue")
    expect(answers.nth(2)).to_contain_text("from the API")
    shoot(page, "questions-outcome-phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
