"""The countdown follows the server's deadline (on connect and on every change, from the API
or the settings panel) without a reload, and a hidden tab gets a notification near the end."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from choice.client.portal_client import PortalClient
from tests.browser.conftest import OpenPage
from tests.browser.support import countdown_error, epoch_ms, iso_in, question, wait_for_countdown

RECORD_NOTIFICATIONS = """
window.__notifications = [];
const Real = window.Notification;
window.Notification = class extends Real {
  constructor(title, options) {
    window.__notifications.push({title, body: (options || {}).body || ""});
    super(title, options);
  }
};
Object.defineProperty(document, "hidden", {configurable: true, get: () => true});
Object.defineProperty(document, "visibilityState", {configurable: true, get: () => "hidden"});
"""


def mark(page: Page) -> None:
    """A value that only survives as long as the page is not reloaded."""
    page.evaluate("window.__sameDocument = 'yes'")


def same_document(page: Page) -> bool:
    return bool(page.evaluate("window.__sameDocument === 'yes'"))


def test_the_countdown_matches_the_server_and_follows_an_api_change(
        open_page: OpenPage, client: PortalClient) -> None:
    created = client.create(question(timeout_seconds=900))
    iid = created["interaction_id"]
    page = open_page(f"/choice/{iid}")
    assert countdown_error(page, epoch_ms(created["expires_at"])) <= 1
    first = page.get_by_test_id("countdown-text").text_content()
    expect(page.get_by_test_id("countdown-text")).not_to_have_text(first or "")  # it ticks
    mark(page)
    moved = client.call("PATCH", f"/api/interactions/{iid}", {"expires_at": iso_in(125)})
    wait_for_countdown(page, epoch_ms(moved["expires_at"]))
    assert countdown_error(page, epoch_ms(moved["expires_at"])) <= 1
    assert same_document(page)


def test_the_settings_panel_moves_the_deadline_for_every_open_viewer(
        open_page: OpenPage, client: PortalClient) -> None:
    iid = client.create(question(timeout_seconds=900))["interaction_id"]
    page = open_page(f"/choice/{iid}")
    other = open_page(f"/choice/{iid}", phone=True)
    mark(page)
    mark(other)
    page.get_by_test_id("settings-open").click()
    page.get_by_test_id("minutes-left").fill("3")
    with page.expect_response(f"**/choice/{iid}/deadline") as applied:
        page.get_by_test_id("apply-time").click()
    assert applied.value.status == 200
    deadline = epoch_ms(client.poll(iid, 0)["expires_at"])
    for viewer in (page, other):
        wait_for_countdown(viewer, deadline)
        assert same_document(viewer)
    changes = [e for e in client.call("GET", f"/api/interactions/{iid}/events")["events"]
               if e["kind"] == "deadline_changed"]
    assert [e["actor"] for e in changes] == ["human:web"]


def test_a_hidden_tab_gets_a_notification_near_the_deadline(open_page: OpenPage,
                                                             client: PortalClient) -> None:
    iid = client.create(question(title="Deploy tonight?"))["interaction_id"]
    page = open_page(f"/choice/{iid}", permissions=["notifications"],
                     prepare=lambda p: p.add_init_script(RECORD_NOTIFICATIONS))
    assert page.evaluate("Notification.permission") == "granted"
    assert page.evaluate("window.__notifications") == []
    client.call("PATCH", f"/api/interactions/{iid}", {"expires_at": iso_in(12)})
    page.wait_for_function("() => window.__notifications.length > 0", timeout=8_000)
    [shown] = page.evaluate("window.__notifications")
    assert shown["title"] == "Choice portal"
    assert "seconds left to answer: Deploy tonight?" in shown["body"]
