"""The countdown: a far deadline is a quiet date and time that does not tick, the last ten
minutes tick as m:ss, the last minute draws the eye without moving anything; the server's
words are the script's; it follows the server's deadline (on connect and on every change,
from the API or the settings panel) without a reload, and a hidden tab gets a notification
near the end."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from choice.client.portal_client import PortalClient
from tests.browser.conftest import OpenPage
from tests.browser.support import (
    DESKTOP,
    countdown_error,
    due_text,
    epoch_ms,
    iso_in,
    question,
    shoot,
    wait_for_countdown,
)
from tests.portal_process import PortalProcess

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
    expect(page.get_by_test_id("countdown-text")).to_have_text(
        due_text(epoch_ms(created["expires_at"])))
    mark(page)
    moved = client.call("PATCH", f"/api/interactions/{iid}", {"expires_at": iso_in(125)})
    wait_for_countdown(page, epoch_ms(moved["expires_at"]))
    clock = page.get_by_test_id("countdown-clock")  # under ten minutes: the clock ticks
    expect(page.get_by_test_id("countdown-text")).to_have_text(re.compile(r"^[0-2]:\d\d left$"))
    first = clock.text_content() or ""
    expect(clock).not_to_have_text(first)
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


WATCH_COUNTDOWN = """
window.__countdownChanges = [];
document.addEventListener("DOMContentLoaded", () => {  // after parsing, before the bundle starts
  new MutationObserver((changes) => {
    for (const change of changes) {
      const node = change.target.nodeType === 1 ? change.target : change.target.parentElement;
      if (node && node.closest("[data-testid=countdown-text]")) {
        window.__countdownChanges.push(node.closest("[data-testid=countdown-text]").textContent);
      }
    }
  }).observe(document, {subtree: true, childList: true, characterData: true});
});
"""
STARTED = "() => window.ChoicePortal && window.ChoicePortal.countdownSeconds() !== null"


def watch_countdown(page: Page) -> None:
    page.add_init_script(WATCH_COUNTDOWN)


@pytest.fixture
def scriptless(browser: Browser, portal: PortalProcess) -> Iterator[Page]:
    """A page with script off, signed in: what the server renders, as it stands."""
    context = browser.new_context(viewport=DESKTOP, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{portal.base_url}/login?token={portal.token}&next=/")
    yield page
    context.close()


def test_a_deadline_a_day_away_is_a_quiet_date_and_time_that_does_not_tick(
        open_page: OpenPage, client: PortalClient) -> None:
    created = client.create(question(timeout_seconds=86_400))
    page = open_page(f"/choice/{created['interaction_id']}", prepare=watch_countdown)
    text = page.get_by_test_id("countdown-text")
    expect(text).to_have_text(due_text(epoch_ms(created["expires_at"])))
    expect(page.get_by_test_id("countdown-clock")).to_have_count(0)
    page.wait_for_function(STARTED)
    # three seconds of the page's own time later (a waited condition, not a sleep): still
    # the same words, and nothing in them was ever rewritten
    started = page.evaluate("Date.now()")
    page.wait_for_function("start => Date.now() >= start + 3000", arg=started)
    expect(text).to_have_text(due_text(epoch_ms(created["expires_at"])))
    assert page.evaluate("window.__countdownChanges") == []
    weight, size, body_size, title_size = text.evaluate("""t => [
        getComputedStyle(t).fontWeight, parseFloat(getComputedStyle(t).fontSize),
        parseFloat(getComputedStyle(document.body).fontSize),
        parseFloat(getComputedStyle(document.querySelector("[data-testid=title]")).fontSize)]""")
    assert int(weight) <= 400 and size <= body_size < title_size, (weight, size, title_size)


def test_the_last_ten_minutes_tick_as_minutes_and_seconds(open_page: OpenPage,
                                                          client: PortalClient) -> None:
    created = client.create(question(timeout_seconds=300))
    page = open_page(f"/choice/{created['interaction_id']}")
    text, clock = page.get_by_test_id("countdown-text"), page.get_by_test_id("countdown-clock")
    expect(text).to_have_text(re.compile(r"^[45]:\d\d left$"))
    first = clock.text_content() or ""
    expect(clock).not_to_have_text(first)  # it ticks
    assert countdown_error(page, epoch_ms(created["expires_at"])) <= 1
    assert clock.evaluate("c => getComputedStyle(c).fontVariantNumeric") == "tabular-nums"
    expect(page.get_by_test_id("countdown")).not_to_have_class(re.compile(r"\burgent\b"))


def luminance(rgb: str) -> float:
    """The relative luminance (WCAG) of a computed `rgb(r, g, b)` colour."""
    channels = [int(part) / 255 for part in re.findall(r"\d+", rgb)[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: str, other: str) -> float:
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


COLOURS = """t => {
  let back = "rgba(0, 0, 0, 0)";
  for (let el = t; el && /rgba\\(.*, 0\\)|transparent/.test(back); el = el.parentElement) {
    back = getComputedStyle(el).backgroundColor;
  }
  const box = t.getBoundingClientRect();
  return [getComputedStyle(t).color, back, [box.x, box.y, box.width, box.height]];
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_last_minute_draws_attention_in_a_readable_colour_and_nothing_moves(
        open_page: OpenPage, client: PortalClient, scheme: str) -> None:
    iid = client.create(question(timeout_seconds=90))["interaction_id"]
    page = open_page(f"/choice/{iid}", color_scheme=scheme,
                     prepare=lambda p: p.clock.install())
    countdown, text = page.get_by_test_id("countdown"), page.get_by_test_id("countdown-text")
    urgent = re.compile(r"\burgent\b")
    expect(text).to_have_text(re.compile(r"^1:[23]\d left$"))
    expect(countdown).not_to_have_class(urgent)
    calm_colour, calm_back, calm_box = text.evaluate(COLOURS)
    page.clock.run_for(35_000)  # the page's own time: into the last minute
    expect(text).to_have_text(re.compile(r"^0:[45]\d left$"))
    expect(countdown).to_have_class(urgent)
    colour, back, box = text.evaluate(COLOURS)
    assert (colour, back) != (calm_colour, calm_back)
    assert contrast(colour, back) >= 4.5, (scheme, colour, back)
    assert box == calm_box  # same place, same size: the digits are fixed-width
    shoot(page, f"countdown-last-minute-{scheme}")


@pytest.mark.parametrize(("seconds", "language"), [
    (86_400, "en"), (86_400, "zh"), (1_800, "en"), (300, "en"), (300, "zh"), (30, "zh")])
def test_the_servers_words_are_the_scripts_words_so_nothing_jumps_on_load(
        open_page: OpenPage, client: PortalClient, scriptless: Page, portal: PortalProcess,
        seconds: int, language: str) -> None:
    iid = client.create(question(timeout_seconds=seconds, language=language))["interaction_id"]
    scriptless.goto(f"{portal.base_url}/choice/{iid}")
    served = (scriptless.get_by_test_id("countdown-text").text_content() or "").strip()
    page = open_page(f"/choice/{iid}", prepare=watch_countdown)
    page.wait_for_function(STARTED)
    live = (page.get_by_test_id("countdown-text").text_content() or "").strip()
    if seconds > 600:  # the date and time: word for word, never rewritten
        assert live == served and page.evaluate("window.__countdownChanges") == []
        assert ":" in served and ("left" not in served and "剩余" not in served)
    else:  # the clock: the same sentence around digits that tick
        assert re.sub(r"\d", "#", live) == re.sub(r"\d", "#", served), (live, served)
        assert re.search(r"\d:\d\d", served)
