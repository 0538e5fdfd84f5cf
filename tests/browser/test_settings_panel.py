"""The settings panel applies what it saves at once: the open question re-renders (the
`choice:settings-saved` event the save answers with), and a new language reloads the page."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from choice.client.portal_client import PortalClient
from tests.browser.conftest import OpenPage
from tests.browser.support import question, shoot
from tests.browser.test_countdown import mark, same_document
from tests.browser.test_drafts import ask, assert_restored, stored, type_a_draft

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


def test_use_as_default_saves_the_minutes_typed_and_keeps_what_is_typed(
        open_page: OpenPage, client: PortalClient) -> None:
    client.save_settings({"timeout_seconds": 300, "language": "en"})
    iid = ask(client)
    page = open_page(f"/choice/{iid}")
    type_a_draft(page)
    page.get_by_test_id("settings-open").click()
    expect(page.get_by_test_id("use-as-default")).to_have_count(0)  # nothing changed yet
    page.get_by_test_id("minutes-left").fill("30")
    with page.expect_response(f"**/choice/{iid}/deadline"):
        page.get_by_test_id("apply-time").click()
    offer = page.get_by_test_id("use-as-default")
    expect(offer).to_have_text("Use 30 minutes as my default time")
    shoot(page, "use-as-default-desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    shoot(page, "use-as-default-phone")
    page.set_viewport_size({"width": 1280, "height": 800})
    with page.expect_response(f"**/choice/{iid}/default-time") as saved:
        offer.click()
    assert saved.value.status == 200
    expect(page.get_by_test_id("time-default-saved")).to_contain_text(
        "30 minutes is your default time now")
    expect(page.get_by_test_id("pref-timeout")).to_have_value("30")  # Defaults, at once
    assert client.settings()["timeout_seconds"] == 1800
    assert_restored(page)  # the question's form, and what was typed in it, left alone
    page.get_by_test_id("custom-input").press("End")
    page.keyboard.type(" grow")
    stored(client, iid, lambda d: d.get("custom_input") == "SQLite, unless we grow")
    page.reload()
    page.get_by_test_id("settings-open").click()
    expect(page.get_by_test_id("time-default-saved")).to_be_visible()  # read back on reload
    expect(page.get_by_test_id("pref-timeout")).to_have_value("30")


def test_the_offer_survives_a_reload_and_works_without_script(
        open_page: OpenPage, client: PortalClient) -> None:
    client.save_settings({"timeout_seconds": 300, "language": "en"})
    iid = ask(client)
    page = open_page(f"/choice/{iid}")
    page.get_by_test_id("settings-open").click()
    page.get_by_test_id("minutes-left").fill("45")
    with page.expect_response(f"**/choice/{iid}/deadline"):
        page.get_by_test_id("apply-time").click()
    expect(page.get_by_test_id("use-as-default")).to_be_visible()
    page.reload()
    page.get_by_test_id("settings-open").click()
    offer = page.get_by_test_id("use-as-default")
    expect(offer).to_have_text("Use 45 minutes as my default time")
    # the plain form post, as a page without script sends it: a redirect to the section,
    # which opens the panel there
    with page.expect_navigation():
        page.evaluate("document.querySelector('form.time-default').submit()")
    assert page.url.endswith(f"/choice/{iid}#time-section")
    expect(page.get_by_test_id("time-default-saved")).to_be_visible()
    assert client.settings()["timeout_seconds"] == 2700


@pytest.mark.parametrize("phone", [False, True])
def test_the_settings_page_takes_the_default_time_in_minutes(
        open_page: OpenPage, client: PortalClient, phone: bool) -> None:
    client.save_settings({"timeout_seconds": 1800, "language": "en"})
    page = open_page("/settings", phone=phone)
    field = page.get_by_test_id("pref-timeout")
    expect(field).to_have_value("30")
    expect(page.locator("label[for=pref-timeout]")).to_have_text("Default time to answer (minutes)")
    field.fill("45")
    page.get_by_test_id("save-settings").click()
    expect(page.get_by_test_id("settings-saved")).to_have_text("Saved.")
    assert client.settings()["timeout_seconds"] == 2700
    field.fill("0.01")  # a browser would stop this at min="1": the server says it plainly too
    page.evaluate("document.getElementById('pref-timeout').removeAttribute('min')")
    page.get_by_test_id("save-settings").click()
    refused = page.get_by_test_id("settings-saved")
    expect(refused).to_have_text("Not saved: the default time must be between 1 minute and "
                                 "24 hours.")
    expect(refused).to_have_class("error")
    assert client.settings()["timeout_seconds"] == 2700
    shoot(page, f"settings-minutes-{'phone' if phone else 'desktop'}")
