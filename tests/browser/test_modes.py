"""Each selection mode answered by clicks, at desktop and phone width, and what the agent's
blocking poll then returns; single-submit picks; min/max limits explained before submit."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from choice.client.portal_client import PortalClient
from tests.browser.conftest import OpenPage
from tests.browser.support import PHONE, question, shoot


@pytest.fixture(params=["desktop", "phone"])
def width(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def option(page: Page, option_id: str) -> Locator:
    return page.locator(f"[data-testid=option][data-option-id='{option_id}']")


def answer(page: Page, client: PortalClient, iid: str, name: str) -> dict[str, Any]:
    """Submit, check the page shows the outcome, and return what the agent gets."""
    shoot(page, f"{name}-form")
    page.get_by_test_id("submit").click()
    expect(page.get_by_test_id("outcome")).to_be_visible()
    shoot(page, f"{name}-outcome")
    if name.endswith("phone"):
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    result = client.poll(iid, 10)
    # the person reads their choice by its label, once; the agent's summary (ids) never shows
    if result["selected_labels"]:
        expect(page.get_by_test_id("outcome-choices").locator("li")).to_have_text(
            result["selected_labels"])
    expect(page.get_by_test_id("outcome")).not_to_contain_text("Selected")
    return result


def test_a_single_choice_is_answered_by_clicks(open_page: OpenPage, client: PortalClient,
                                               width: str) -> None:
    iid = client.create(question(selection_mode="single"))["interaction_id"]
    page = open_page(f"/choice/{iid}", phone=width == "phone")
    if width == "phone":  # nothing sticks out sideways on a 375 px screen
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    option(page, "lite").get_by_test_id("option-label").click()
    result = answer(page, client, iid, f"single-{width}")
    assert result["status"] == "submitted" and result["interface"] == "web"
    assert result["selected_ids"] == ["lite"] and result["action_status"] == "selected"
    assert result["submission"] == "manual"


def test_a_multi_choice_is_answered_by_clicks(open_page: OpenPage, client: PortalClient,
                                              width: str) -> None:
    iid = client.create(question(selection_mode="multi"))["interaction_id"]
    page = open_page(f"/choice/{iid}", phone=width == "phone")
    for option_id in ("mem", "pg"):
        option(page, option_id).get_by_test_id("option-label").click()
    result = answer(page, client, iid, f"multi-{width}")
    assert result["status"] == "submitted" and result["interface"] == "web"
    assert result["selected_ids"] == ["pg", "mem"]  # option order, not click order
    assert result["selected_labels"] == ["PostgreSQL", "In memory"]


def test_a_typed_answer_is_sent_as_custom_input(open_page: OpenPage, client: PortalClient,
                                                width: str) -> None:
    iid = client.create(question(selection_mode="text_input", options=[],
                                 placeholder="e.g. SQLite in WAL mode"))["interaction_id"]
    page = open_page(f"/choice/{iid}", phone=width == "phone")
    typed = page.get_by_test_id("custom-input")
    expect(typed).to_have_attribute("placeholder", "e.g. SQLite in WAL mode")
    typed.fill("Postgres, but only\nafter the load test.")
    result = answer(page, client, iid, f"text-{width}")
    assert result["status"] == "submitted" and result["interface"] == "web"
    assert result["action_status"] == "custom_input" and result["selected_ids"] == []
    assert result["custom_input"] == "Postgres, but only\nafter the load test."
    assert result["placeholder_shown"] is True


def test_a_hybrid_question_takes_typed_text_instead_of_an_option(
        open_page: OpenPage, client: PortalClient, width: str) -> None:
    iid = client.create(question(selection_mode="hybrid", max_selections=1,
                                 placeholder="Something else?"))["interaction_id"]
    page = open_page(f"/choice/{iid}", phone=width == "phone")
    page.get_by_test_id("custom-input").fill("Redis, as a cache in front")
    result = answer(page, client, iid, f"hybrid-{width}")
    assert result["status"] == "submitted" and result["interface"] == "web"
    assert result["action_status"] == "custom_input" and result["selected_ids"] == []
    assert result["custom_input"] == "Redis, as a cache in front"


def test_single_submit_mode_submits_on_the_first_pick(open_page: OpenPage,
                                                       client: PortalClient) -> None:
    iid = client.create(question(single_submit_mode=True))["interaction_id"]
    page = open_page(f"/choice/{iid}")
    option(page, "duck").get_by_test_id("option-label").click()
    expect(page.get_by_test_id("outcome")).to_be_visible()
    result = client.poll(iid, 10)
    assert result["status"] == "auto_submitted" and result["submission"] == "auto"
    assert result["selected_ids"] == ["duck"] and result["interface"] == "web"


def test_single_submit_mode_never_submits_over_a_typed_note(open_page: OpenPage,
                                                             client: PortalClient) -> None:
    iid = client.create(question(single_submit_mode=True))["interaction_id"]
    page = open_page(f"/choice/{iid}")
    page.get_by_test_id("global-note").fill("Keep the old one running for a week")
    option(page, "lite").get_by_test_id("option-label").click()
    expect(page.get_by_test_id("selection-hint")).to_contain_text("typed something")
    assert client.poll(iid, 0)["status"] == "pending"
    expect(page.get_by_test_id("choice-form")).to_be_visible()
    page.get_by_test_id("submit").click()
    expect(page.get_by_test_id("outcome")).to_be_visible()
    result = client.poll(iid, 10)
    assert result["status"] == "submitted" and result["submission"] == "manual"
    assert result["selected_ids"] == ["lite"]
    assert result["global_annotation"] == "Keep the old one running for a week"


def test_submit_is_disabled_outside_min_and_max_and_the_hint_says_why(
        open_page: OpenPage, client: PortalClient) -> None:
    iid = client.create(question(selection_mode="multi", min_selections=2,
                                 max_selections=3))["interaction_id"]
    page = open_page(f"/choice/{iid}")
    submit, hint = page.get_by_test_id("submit"), page.get_by_test_id("selection-hint")
    expect(submit).to_be_disabled()
    option(page, "pg").get_by_test_id("option-label").click()
    expect(hint).to_have_text("Choose at least 2 options")
    expect(submit).to_be_disabled()
    for option_id in ("lite", "duck"):
        option(page, option_id).get_by_test_id("option-label").click()
    expect(hint).to_have_text("")
    expect(submit).to_be_enabled()
    option(page, "mem").get_by_test_id("option-label").click()
    expect(hint).to_have_text("Choose at most 3 options")
    expect(submit).to_be_disabled()
    shoot(page, "multi-too-many-desktop")
    option(page, "pg").get_by_test_id("option-label").click()
    expect(submit).to_be_enabled()
    submit.click()
    expect(page.get_by_test_id("outcome")).to_be_visible()
    assert client.poll(iid, 10)["selected_ids"] == ["lite", "duck", "mem"]


def test_defaults_are_preselected_and_an_untouched_submit_returns_them(
        open_page: OpenPage, client: PortalClient) -> None:
    iid = client.create(question(selection_mode="multi",
                                 default_selection_ids=["duck", "pg"]))["interaction_id"]
    page = open_page(f"/choice/{iid}")
    checked = page.locator("[data-testid=option-input]:checked")
    expect(checked).to_have_count(2)
    assert [box.get_attribute("value") for box in checked.all()] == ["pg", "duck"]
    page.get_by_test_id("submit").click()
    expect(page.get_by_test_id("outcome")).to_be_visible()
    result = client.poll(iid, 10)
    assert result["selected_ids"] == ["pg", "duck"] and result["defaults_used"] is True


def test_the_keyboard_alone_answers_a_question(open_page: OpenPage, client: PortalClient) -> None:
    iid = client.create(question())["interaction_id"]
    page = open_page(f"/choice/{iid}")
    first = page.get_by_test_id("option-input").first
    first.focus()
    page.keyboard.press("ArrowDown")
    expect(page.get_by_test_id("option-input").nth(1)).to_be_checked()
    page.keyboard.press("Escape")  # Esc opens the cancel note; nothing is sent
    expect(page.get_by_test_id("cancel-note")).to_be_focused()
    page.get_by_test_id("option-input").nth(1).focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("outcome")).to_be_visible()
    result = client.poll(iid, 10)
    assert result["selected_ids"] == ["lite"] and result["status"] == "submitted"
