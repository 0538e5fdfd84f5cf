"""Drafts in a real Chromium against a real portal: what is typed and picked survives a
reload, Apply (more time), Save settings, a socket-driven re-render and a restart of the
portal, and a second page sees it. Waits are on the stored draft (bounded polls of GET
.../draft) or on the page, never on time."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from choice.client.portal_client import PortalClient
from tests.browser.conftest import OpenPage
from tests.browser.support import question, shoot
from tests.portal_process import PortalProcess
from tests.reliability.faults import wait_until


def ask(client: PortalClient, **overrides: Any) -> str:
    return str(client.create(question(selection_mode="hybrid", allow_annotations=True,
                                      timeout_seconds=900, **overrides))["interaction_id"])


def stored(client: PortalClient, iid: str, until: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The draft once `until` holds (polled, bounded)."""
    seen: list[dict[str, Any]] = [{}]

    def holds() -> bool:
        seen[0] = client.call("GET", f"/api/interactions/{iid}/draft")["draft"] or {}
        return until(seen[0])

    wait_until(holds, timeout=8, what=f"the stored draft of {iid}")
    return dict(seen[0])


def type_a_draft(page: Page) -> None:
    page.locator("[data-option-id=lite] [data-testid=option-input]").check()
    page.get_by_test_id("global-note").fill("needs one file")
    page.get_by_test_id("custom-input").fill("SQLite, unless we")


def assert_restored(page: Page) -> None:
    expect(page.get_by_test_id("custom-input")).to_have_value("SQLite, unless we")
    expect(page.get_by_test_id("global-note")).to_have_value("needs one file")
    expect(page.locator("[data-option-id=lite] [data-testid=option-input]")).to_be_checked()
    expect(page.locator("[data-option-id=pg] [data-testid=option-input]")).not_to_be_checked()


def test_typed_text_and_picks_survive_a_reload(open_page: OpenPage, client: PortalClient) -> None:
    iid = ask(client)
    page = open_page(f"/choice/{iid}")
    type_a_draft(page)
    page.get_by_test_id("cancel-open").click()
    page.get_by_test_id("cancel-note").fill("or not at all")
    draft = stored(client, iid, lambda d: d.get("cancel_reason") == "or not at all")
    assert draft["selected_ids"] == ["lite"] and draft["custom_input"] == "SQLite, unless we"
    page.reload()
    assert_restored(page)
    expect(page.get_by_test_id("cancel-note")).to_have_value("or not at all")
    assert client.poll(iid, 0)["status"] == "pending"  # a draft is never an answer


def test_apply_keeps_the_form_being_typed_in(open_page: OpenPage, client: PortalClient) -> None:
    iid = ask(client)
    page = open_page(f"/choice/{iid}")
    type_a_draft(page)
    page.get_by_test_id("settings-open").click()
    page.get_by_test_id("minutes-left").fill("30")
    with page.expect_response(f"**/choice/{iid}/deadline") as applied:
        page.get_by_test_id("apply-time").click()
    assert applied.value.status == 200
    assert_restored(page)
    page.get_by_test_id("custom-input").press("End")
    page.keyboard.type(" grow")
    stored(client, iid, lambda d: d.get("custom_input") == "SQLite, unless we grow")


def test_a_re_render_while_typing_keeps_the_focus_and_the_text(
        open_page: OpenPage, client: PortalClient) -> None:
    iid = ask(client)
    page = open_page(f"/choice/{iid}")
    type_a_draft(page)
    field = page.get_by_test_id("custom-input")
    field.click()
    field.press("End")
    field.evaluate("el => { el.dataset.kept = 'yes'; }")
    with page.expect_response(f"**/choice/{iid}/partial"):
        page.evaluate("window.ChoicePortal.reloadInteraction()")  # what a socket update does
    expect(field).to_be_focused()
    expect(field).to_have_attribute("data-kept", "yes")  # the same node, not a copy
    page.keyboard.type("!")
    expect(field).to_have_value("SQLite, unless we!")
    shoot(page, "draft-after-re-render")


def test_save_settings_keeps_what_was_typed(open_page: OpenPage, client: PortalClient) -> None:
    iid = ask(client)
    page = open_page(f"/choice/{iid}")
    type_a_draft(page)
    page.get_by_test_id("settings-open").click()
    with page.expect_response(f"**/choice/{iid}/partial"):
        page.get_by_test_id("save-settings").click()
    expect(page.get_by_test_id("settings-saved")).to_be_visible()
    assert_restored(page)


def test_a_second_page_sees_the_draft(open_page: OpenPage, client: PortalClient) -> None:
    iid = ask(client)
    page = open_page(f"/choice/{iid}")
    other = open_page(f"/choice/{iid}", phone=True)
    expect(other.get_by_test_id("custom-input")).to_have_value("")
    type_a_draft(page)
    assert_restored(other)
    client.call("PUT", f"/api/interactions/{iid}/draft",
                {"custom_input": "from the terminal", "interface": "terminal"})
    expect(other.get_by_test_id("custom-input")).to_have_value("from the terminal")
    expect(other.get_by_test_id("global-note")).to_have_value("")
    expect(page.get_by_test_id("global-note")).to_have_value("")
    expect(page.get_by_test_id("custom-input")).to_be_focused()  # never overwritten
    expect(page.get_by_test_id("custom-input")).to_have_value("SQLite, unless we")
    shoot(other, "draft-second-page-phone")


def test_an_answer_clears_the_draft(open_page: OpenPage, client: PortalClient) -> None:
    iid = ask(client)
    page = open_page(f"/choice/{iid}")
    type_a_draft(page)
    stored(client, iid, lambda d: d.get("custom_input") == "SQLite, unless we")
    page.get_by_test_id("submit").click()
    expect(page.get_by_test_id("outcome")).to_be_visible()
    assert client.call("GET", f"/api/interactions/{iid}/draft") == {"draft": None}


def test_a_draft_survives_a_restart_of_the_portal(open_page: OpenPage, tmp_path: Path,
                                                  browser: Any) -> None:
    portal = PortalProcess(tmp_path / "restart").start()
    try:
        client = portal.client()
        iid = ask(client)
        client.call("PUT", f"/api/interactions/{iid}/draft", {"custom_input": "one"})
        client.call("PUT", f"/api/interactions/{iid}/draft",  # held: written on stop
                    {"custom_input": "SQLite, unless we", "global_annotation": "needs one file",
                     "selected_ids": ["lite"]})
        portal.stop()
        portal.start()
        context = browser.new_context()
        try:
            page = context.new_page()
            page.goto(f"{portal.base_url}/login?token={portal.token}&next=/choice/{iid}")
            assert_restored(page)
        finally:
            context.close()
    finally:
        portal.stop()


def test_several_questions_keep_each_ones_draft(open_page: OpenPage, client: PortalClient) -> None:
    questions = [
        {"id": "db", "header": "Database", "prompt": "Which database?",
         "options": [{"id": "pg", "label": "PostgreSQL"}, {"id": "lite", "label": "SQLite"}]},
        {"id": "name", "header": "Name", "prompt": "What do we call it?",
         "selection_mode": "text_input"},
    ]
    iid = client.create({"title": "Two drafts", "questions": questions,
                         "prompt": "Two quick ones."})["interaction_id"]
    page = open_page(f"/choice/{iid}")
    db = page.locator("[data-testid=question][data-question-id=db]")
    name = page.locator("[data-testid=question][data-question-id=name]")
    db.get_by_text("SQLite").click()
    name.get_by_test_id("custom-input").fill("sync-store")
    stored(client, iid, lambda d: d.get("answers", {}).get("name", {}).get("custom_input")
           == "sync-store")
    page.reload()
    expect(db.locator("input[value=lite]")).to_be_checked()
    expect(name.get_by_test_id("custom-input")).to_have_value("sync-store")
    expect(page.get_by_test_id("progress-text")).to_have_text("2 of 2 answered")
