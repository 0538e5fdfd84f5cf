"""The question list: filters swapped in place, live changes, re-entry from `/`, time left
("in 25 min", once a minute) and two-line titles, and two questions answered side by side
in two tabs without leaking into each other."""

from __future__ import annotations

import re
from itertools import pairwise
from typing import Any

from playwright.sync_api import Locator, Page, expect

from choice.client.portal_client import PortalClient
from tests.browser.conftest import OpenPage
from tests.browser.support import countdown_error, epoch_ms, question, shoot


def item(page: Page, iid: str) -> Locator:
    return page.locator(f"[data-testid=list-item][data-interaction-id='{iid}']")


def statuses(page: Page) -> set[str]:
    return {row.get_attribute("data-status") or "" for row in
            page.get_by_test_id("list-item").all()}


def test_the_filter_swaps_the_list_without_reloading_the_page(open_page: OpenPage,
                                                              client: PortalClient) -> None:
    waiting = client.create(question(title="Still waiting"))["interaction_id"]
    done = client.create(question(title="Already done"))["interaction_id"]
    client.cancel(done, "not needed")
    page = open_page("/")
    page.evaluate("window.__sameDocument = 'yes'")
    expect(item(page, waiting)).to_be_visible()
    expect(item(page, done)).to_be_visible()
    shoot(page, "list-desktop")

    page.get_by_test_id("filter-active").click()
    expect(page.get_by_test_id("filter-active")).to_have_attribute("aria-current", "true")
    expect(item(page, done)).to_have_count(0)
    expect(item(page, waiting)).to_be_visible()
    assert statuses(page) == {"pending"}

    page.get_by_test_id("filter-completed").click()
    expect(page.get_by_test_id("filter-completed")).to_have_attribute("aria-current", "true")
    expect(item(page, waiting)).to_have_count(0)
    expect(item(page, done).get_by_test_id("status-badge")).to_have_text("Cancelled")
    assert "pending" not in statuses(page)
    assert page.evaluate("window.__sameDocument") == "yes"
    assert page.url.endswith("/?filter=completed")  # htmx pushed it: a reload keeps it

    page.reload()
    expect(page.get_by_test_id("filter-completed")).to_have_attribute("aria-current", "true")
    expect(item(page, waiting)).to_have_count(0)
    page.go_back()  # to the filter before: the list follows the URL
    expect(page).to_have_url(re.compile(r"/\?filter=active$"))
    expect(page.get_by_test_id("filter-active")).to_have_attribute("aria-current", "true")
    expect(item(page, done)).to_have_count(0)
    expect(item(page, waiting)).to_be_visible()


def test_a_filter_on_a_question_page_stays_on_that_question(open_page: OpenPage,
                                                           client: PortalClient) -> None:
    here = client.create(question(title="The one on screen"))["interaction_id"]
    done = client.create(question(title="Already done"))["interaction_id"]
    client.cancel(done, "not needed")
    page = open_page(f"/choice/{here}")
    page.get_by_test_id("filter-completed").click()
    expect(page).to_have_url(re.compile(rf"/choice/{here}\?filter=completed$"))
    expect(item(page, done)).to_be_visible()
    expect(item(page, here)).to_have_count(0)
    expect(page.get_by_test_id("title")).to_have_text("The one on screen")
    page.reload()
    expect(page.get_by_test_id("filter-completed")).to_have_attribute("aria-current", "true")
    expect(item(page, done)).to_be_visible()


def test_new_and_finished_questions_appear_live_in_an_open_page(open_page: OpenPage,
                                                                client: PortalClient) -> None:
    here = client.create(question(title="The one on screen"))["interaction_id"]
    page = open_page(f"/choice/{here}")
    page.evaluate("window.__sameDocument = 'yes'")
    expect(item(page, here)).to_have_attribute("data-status", "pending")

    new = client.create(question(title="A newer question"))["interaction_id"]
    expect(item(page, new)).to_have_attribute("data-status", "pending")
    expect(page.get_by_test_id("toast")).to_contain_text("New question: A newer question")
    client.call("POST", f"/api/interactions/{new}/response", {"selected_ids": ["pg"]})
    expect(item(page, new)).to_have_attribute("data-status", "submitted")
    expect(item(page, new).get_by_test_id("interface-badge")).to_have_text("Web")

    page.locator("[data-testid=option][data-option-id=lite] [data-testid=option-label]").click()
    page.get_by_test_id("submit").click()
    expect(page.get_by_test_id("outcome")).to_be_visible()
    expect(item(page, here)).to_have_attribute("data-status", "submitted")
    assert page.evaluate("window.__sameDocument") == "yes"


def test_an_idle_portal_tab_opens_a_new_question_itself(open_page: OpenPage,
                                                       client: PortalClient) -> None:
    page = open_page("/?filter=completed")
    expect(page.get_by_test_id("welcome")).to_be_visible()
    iid = client.create(question(title="Asked while the tab was idle"))["interaction_id"]
    page.wait_for_url(f"**/choice/{iid}")
    expect(page.get_by_test_id("title")).to_have_text("Asked while the tab was idle")


def test_the_home_page_leads_back_to_a_pending_question(open_page: OpenPage,
                                                        client: PortalClient) -> None:
    iid = client.create(question(title="Come back to me"))["interaction_id"]
    page = open_page("/", phone=True)
    shoot(page, "list-phone")
    item(page, iid).click()
    page.wait_for_url(f"**/choice/{iid}")
    expect(page.get_by_test_id("interaction")).to_have_attribute("data-interaction-id", iid)
    expect(page.get_by_test_id("choice-form")).to_be_visible()


def test_two_questions_in_two_tabs_keep_their_own_state(open_page: OpenPage,
                                                        client: PortalClient) -> None:
    first = client.create(question(title="First", timeout_seconds=120))
    second = client.create(question(title="Second", selection_mode="multi",
                                    timeout_seconds=1800))
    one = open_page(f"/choice/{first['interaction_id']}")
    two = open_page(f"/choice/{second['interaction_id']}", context=one.context)
    for option_id in ("pg", "mem"):
        two.locator(f"[data-option-id={option_id}] [data-testid=option-label]").click()
    two.get_by_test_id("global-note").fill("second's note")
    one.bring_to_front()
    one.locator("[data-option-id=duck] [data-testid=option-label]").click()
    one.get_by_test_id("submit").click()
    expect(one.get_by_test_id("outcome")).to_be_visible()
    assert client.poll(first["interaction_id"], 10)["selected_ids"] == ["duck"]

    expect(item(two, first["interaction_id"])).to_have_attribute("data-status", "submitted")
    expect(two.get_by_test_id("choice-form")).to_be_visible()
    checked = two.locator("[data-testid=option-input]:checked")
    assert [box.get_attribute("value") for box in checked.all()] == ["pg", "mem"]
    expect(two.get_by_test_id("global-note")).to_have_value("second's note")
    two.bring_to_front()
    assert countdown_error(two, epoch_ms(second["expires_at"])) <= 1  # its own, not 2 min
    two.get_by_test_id("submit").click()
    expect(two.get_by_test_id("outcome")).to_be_visible()
    result = client.poll(second["interaction_id"], 10)
    assert result["selected_ids"] == ["pg", "mem"]
    assert result["global_annotation"] == "second's note"
    assert client.poll(first["interaction_id"], 0)["global_annotation"] is None


def test_a_second_tab_on_the_same_question_shows_the_outcome_not_a_form(
        open_page: OpenPage, client: PortalClient) -> None:
    iid = client.create(question())["interaction_id"]
    answering = open_page(f"/choice/{iid}")
    watching = open_page(f"/choice/{iid}", context=answering.context)
    answering.bring_to_front()
    answering.locator("[data-option-id=pg] [data-testid=option-label]").click()
    answering.get_by_test_id("submit").click()
    expect(answering.get_by_test_id("outcome")).to_be_visible()
    expect(watching.get_by_test_id("outcome")).to_have_attribute("data-status", "submitted")
    expect(watching.get_by_test_id("choice-form")).to_have_count(0)
    expect(watching.get_by_test_id("countdown")).to_have_count(0)


def test_lines_show_time_left_wrap_their_titles_and_badge_only_where_answered(
        open_page: OpenPage, client: PortalClient) -> None:
    for old in client.list("active", 100)["interactions"]:  # earlier tests' questions
        client.cancel(old["interaction_id"])
    long_title = "Pick a database for the sync service in the EU region, with backups"
    soon = client.create(question(title=long_title, timeout_seconds=50))["interaction_id"]
    day = client.create(question(title="A day to answer", timeout_seconds=86400))["interaction_id"]
    done = client.create(question(title="Answered already"))["interaction_id"]
    client.respond(done, {"selected_ids": ["pg"]})
    page = open_page("/")
    urgent, soon_left = re.compile(r"\burgent\b"), item(page, soon).get_by_test_id("time-left")
    expect(soon_left).to_have_class(urgent)
    expect(soon_left).to_have_text("in 1 min")
    day_left = item(page, day).get_by_test_id("time-left")
    expect(day_left).to_have_text("in 24 h")
    expect(day_left).not_to_have_class(urgent)
    title = item(page, soon).locator(".item-title")
    expect(title).to_have_text(long_title)
    line_height = float(title.evaluate("t => parseFloat(getComputedStyle(t).lineHeight)"))
    assert title.evaluate("t => t.scrollWidth <= t.clientWidth")  # not cut sideways
    assert title.bounding_box()["height"] >= 1.9 * line_height  # type: ignore[index]
    expect(item(page, soon).get_by_test_id("interface-badge")).to_have_count(0)
    expect(item(page, done).get_by_test_id("interface-badge")).to_have_text("Web")
    expect(item(page, done).get_by_test_id("time-left")).to_have_count(0)
    filters = page.locator(".list-filter")
    for name in ("all", "active", "deferred", "completed"):  # each label on one line
        link = page.get_by_test_id(f"filter-{name}")
        assert link.evaluate("a => a.getClientRects().length") == 1
    assert filters.bounding_box() is not None
    page.get_by_test_id("welcome-next").click()  # the one whose time runs out first
    expect(page.get_by_test_id("title")).to_have_text(long_title)
    shoot(page, "list-time-left-desktop")


def test_the_waiting_card_stays_compact_on_a_phone(open_page: OpenPage,
                                                    client: PortalClient) -> None:
    client.create(question(title="Waiting on a phone"))
    page = open_page("/", phone=True)
    card = page.get_by_test_id("welcome").bounding_box()
    assert card is not None and card["height"] <= 200, card
    first_line = page.get_by_test_id("list-item").first.bounding_box()
    assert first_line is not None and first_line["y"] < 320, first_line  # was ~360
    shoot(page, "list-phone")


def test_a_lines_time_left_changes_once_a_minute_never_every_second(
        open_page: OpenPage, client: PortalClient) -> None:
    for old in client.list("active", 100)["interactions"]:  # the welcome names the soonest
        client.cancel(old["interaction_id"])
    iid = client.create(question(title="Half an hour", timeout_seconds=1800))["interaction_id"]

    def watch(page: Page) -> None:
        page.clock.install()
        page.add_init_script("""
          window.__lineChanges = [];
          document.addEventListener("DOMContentLoaded", () => {
            new MutationObserver((changes) => {  // one batch: one rewrite of the words
              const lines = new Set(changes.map((change) => {
                const node = change.target.nodeType === 1 ? change.target : change.target.parentElement;
                return node && node.closest("[data-testid=time-left]");
              }).filter(Boolean));
              for (const line of lines) window.__lineChanges.push([Date.now(), line.textContent]);
            }).observe(document, {subtree: true, childList: true, characterData: true});
          });""")

    page = open_page("/?filter=active", prepare=watch)
    left = item(page, iid).get_by_test_id("time-left")
    expect(left).to_have_text("in 30 min")
    for _ in range(30):  # five minutes of the page's own time, ten seconds at a time
        page.clock.run_for(10_000)
    expect(left).to_have_text(re.compile(r"^in 2[56] min$"))
    # what the line says, each time it says something new (a refresh of the list brings the
    # server's words, which the script words again at once: not a change a person sees)
    changes: list[list[Any]] = page.evaluate("window.__lineChanges")
    shown = [change for index, change in enumerate(changes)
             if index == 0 or change[1] != changes[index - 1][1]]
    assert [text for _at, text in shown][:4] == ["in 29 min", "in 28 min", "in 27 min",
                                                 "in 26 min"], changes
    assert all(later[0] - earlier[0] >= 59_000 for earlier, later in pairwise(shown)), changes
    expect(page.get_by_test_id("welcome-time-left")).to_have_text(re.compile(r"^in 2[56] min$"))
