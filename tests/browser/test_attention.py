"""Attention (docs/guides/browser.md#getting-your-attention): a visible window that is not
focused still gets the notification and the chime on a new question (the default trigger), a
click on it opens that question, and the tab's title counts the waiting questions as they
come and go."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from choice.client.portal_client import PortalClient
from tests.browser.conftest import OpenPage
from tests.browser.support import question

# Records notifications (and keeps them, to click one), emulates a window that lost focus
# (`window.__focused`), and spies on the chime: every oscillator started.
ATTENTION_SPIES = """
window.__notifications = [];
window.__shown = [];
window.__focused = false;
window.__tones = [];
const Real = window.Notification;
window.Notification = class extends Real {
  constructor(title, options) {
    super(title, options);
    window.__notifications.push({title, body: (options || {}).body || ""});
    window.__shown.push(this);
  }
};
document.hasFocus = () => window.__focused;
const RealAudio = window.AudioContext;
window.AudioContext = class extends RealAudio {
  createOscillator() {
    const osc = super.createOscillator();
    const start = osc.start.bind(osc);
    osc.start = (at) => { window.__tones.push(osc.frequency.value); start(at); };
    return osc;
  }
};
"""


def waiting(page: Page) -> int:
    match = re.match(r"\((\d+)\) ", page.title())
    return int(match.group(1)) if match else 0


def test_an_unfocused_window_is_notified_and_chimes_and_a_click_opens_the_question(
        open_page: OpenPage, client: PortalClient) -> None:
    first = client.create(question(title="Which cache?"))["interaction_id"]
    page = open_page(f"/choice/{first}", permissions=["notifications"],
                     prepare=lambda p: p.add_init_script(ATTENTION_SPIES))
    expect(page).to_have_title(re.compile(r"^\(\d+\) "))
    before = waiting(page)
    assert before >= 1
    second = client.create(question(title="Which queue?"))["interaction_id"]
    page.wait_for_function("() => window.__notifications.length > 0")
    [shown] = page.evaluate("window.__notifications")
    assert shown == {"title": "Choice portal", "body": "New question: Which queue?"}
    assert page.evaluate("window.__tones.length") == 2  # the two notes of the chime
    expect(page).to_have_title(re.compile(rf"^\({before + 1}\) "))  # live, no reload
    assert page.evaluate("document.querySelector('link[rel=icon]').href").startswith(
        "data:image/svg")
    page.evaluate("window.__shown[0].onclick()")
    page.wait_for_url(f"**/choice/{second}")
    client.cancel(second)
    expect(page).to_have_title(re.compile(rf"^\({before}\) "))


def test_a_focused_window_stays_quiet_unless_the_trigger_is_always(
        open_page: OpenPage, client: PortalClient) -> None:
    before = client.settings()
    first = client.create(question(title="Which broker?"))["interaction_id"]
    page = open_page(f"/choice/{first}", permissions=["notifications"],
                     prepare=lambda p: p.add_init_script(ATTENTION_SPIES
                                                         + "window.__focused = true;"))
    title = page.title()
    client.create(question(title="Which region?"))
    expect(page).not_to_have_title(title)  # the list heard of it: the count went up
    assert page.evaluate("window.__notifications") == []
    assert page.evaluate("window.__tones") == []
    try:
        client.save_settings({"notifications": "always", "sound": False})
        page.reload()
        client.create(question(title="Which zone?"))
        page.wait_for_function("() => window.__notifications.length > 0")
        assert page.evaluate("window.__notifications")[0]["body"] == "New question: Which zone?"
        assert page.evaluate("window.__tones") == []  # the chime has its own switch
    finally:
        client.save_settings(before)


def test_the_list_page_offers_notify_me_until_the_permission_is_decided_without_a_jump(
        open_page: OpenPage, client: PortalClient) -> None:
    client.create(question(title="Which log store?"))
    page = open_page("/", phone=True)
    assert page.evaluate("Notification.permission") == "default"
    button = page.get_by_test_id("enable-notifications")
    expect(button).to_be_visible()
    expect(button).to_have_text("Notify me")
    shown_at = page.get_by_test_id("interaction-list").bounding_box()
    page.context.grant_permissions(["notifications"])
    page.reload()
    expect(page).to_have_title(re.compile(r"^\(\d+\) "))  # notify.js has run
    expect(button).to_be_hidden()
    # No jump: the list starts where it did (its height follows what it lists, which other
    # tests' questions may change between the two loads).
    now_at = page.get_by_test_id("interaction-list").bounding_box()
    assert shown_at is not None and now_at is not None
    assert (now_at["x"], now_at["y"], now_at["width"]) == (
        shown_at["x"], shown_at["y"], shown_at["width"])


def test_the_list_page_never_offers_notify_me_when_notifications_are_off(
        open_page: OpenPage, client: PortalClient) -> None:
    before = client.settings()
    client.save_settings({"notifications": "never"})
    try:
        page = open_page("/")
        expect(page.get_by_test_id("welcome")).to_be_visible()
        expect(page.get_by_test_id("enable-notifications")).to_have_count(0)
    finally:
        client.save_settings(before)
