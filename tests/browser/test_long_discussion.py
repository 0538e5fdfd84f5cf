"""A long discussion in a real browser: both pages show the newest 20 comments, "Show earlier"
brings 20 more in place (and without script is a link to that window of the thread), new
comments still arrive live after it, and the owner's panel keeps what was brought in when
it refreshes. Screenshots at desktop and phone width."""

from __future__ import annotations

import sqlite3
import time

import pytest
from playwright.sync_api import Page, expect

from choice.client.portal_client import PortalClient
from tests.browser.conftest import OpenPage
from tests.browser.support import question, shoot
from tests.browser.team import TEAM_DESKTOP, TEAM_PHONE, links, widen
from tests.portal_process import PortalProcess

pytestmark = pytest.mark.usefixtures("team_list")

LIVE_MS = 5_000
WRITTEN = 45
"""Comments already in the thread: two "Show earlier" clicks reach the first."""


def long_thread(portal: PortalProcess, client: PortalClient) -> tuple[str, dict[str, str]]:
    """A question widened to the team whose thread already holds `WRITTEN` comments (as if
    posted over the minutes the rate limit takes), "Point 0" the oldest."""
    iid = client.create(question())["interaction_id"]
    paths = links(widen(client, iid))
    at = time.time()
    with sqlite3.connect(portal.data_dir / "choice.db", timeout=30) as db:
        db.executemany(
            "INSERT INTO comment (interaction_id, participant_id, author, text, at) "
            "VALUES (?, NULL, 'Owner', ?, ?)",
            [(iid, f"Point {n}: " + "a longer thought, " * (n % 4), at) for n in range(WRITTEN)])
    return iid, paths


def shown(page: Page, list_id: str) -> list[str]:
    return [text.split(":")[0] for text in page.locator(
        f"#{list_id} [data-testid=comment-text]").all_text_contents()]


def points(numbers: range) -> list[str]:
    return [f"Point {n}" for n in numbers]


def post_as(client: PortalClient, path: str, text: str) -> None:
    secret = path.rsplit("/", 1)[1]
    client.call("POST", f"/api/d/{secret}/comments", {"text": text})


def test_a_participant_shows_earlier_comments_and_new_ones_still_arrive(
        open_page: OpenPage, portal: PortalProcess, client: PortalClient) -> None:
    _iid, paths = long_thread(portal, client)
    page = open_page(paths["Bob Smith"], signed_in=False, viewport=TEAM_DESKTOP)
    expect(page.get_by_test_id("comment")).to_have_count(20)
    assert shown(page, "thread-list") == points(range(25, 45))
    page.get_by_test_id("show-earlier").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("comment")).to_have_count(40)
    expect(page.get_by_test_id("show-earlier")).to_be_focused()  # the next one, for the keyboard
    page.get_by_test_id("show-earlier").click()
    expect(page.get_by_test_id("comment")).to_have_count(WRITTEN)
    expect(page.get_by_test_id("show-earlier")).to_have_count(0)  # the start of the thread
    assert shown(page, "thread-list") == points(range(WRITTEN))
    post_as(client, paths["Alice Johnson"], "Point 45: after the scroll back")
    expect(page.get_by_test_id("comment")).to_have_count(WRITTEN + 1, timeout=LIVE_MS)
    assert shown(page, "thread-list") == points(range(WRITTEN + 1))
    shoot(page, "long-discussion-participant-desktop")
    phone = open_page(paths["Carol Lee"], signed_in=False, viewport=TEAM_PHONE)
    expect(phone.get_by_test_id("comment")).to_have_count(20)
    phone.get_by_test_id("show-earlier").click()
    expect(phone.get_by_test_id("comment")).to_have_count(40)
    shoot(phone, "long-discussion-participant-phone")


def test_without_javascript_show_earlier_is_a_link_to_that_window(
        open_page: OpenPage, portal: PortalProcess, client: PortalClient) -> None:
    _iid, paths = long_thread(portal, client)
    page = open_page(paths["Bob Smith"], signed_in=False, java_script_enabled=False)
    page.get_by_test_id("show-earlier").click()
    page.wait_for_url("**before=*")
    assert shown(page, "thread-list") == points(range(5, 25))
    page.get_by_test_id("show-earlier").click()
    assert shown(page, "thread-list") == points(range(5))
    expect(page.get_by_test_id("show-earlier")).to_have_count(0)
    page.get_by_test_id("show-newest").click()
    assert shown(page, "thread-list") == points(range(25, 45))


def test_the_owner_panel_keeps_earlier_comments_when_the_team_writes(
        open_page: OpenPage, portal: PortalProcess, client: PortalClient) -> None:
    iid, paths = long_thread(portal, client)
    page = open_page(f"/choice/{iid}")
    expect(page.locator("#owner-thread [data-testid=comment]")).to_have_count(20)
    expect(page.get_by_test_id("comment-count")).to_have_text(f"{WRITTEN} comments")
    page.get_by_test_id("show-earlier").click()
    expect(page.locator("#owner-thread [data-testid=comment]")).to_have_count(40)
    post_as(client, paths["Bob Smith"], "Point 45: the panel refreshes")
    expect(page.get_by_test_id("comment-count")).to_have_text(f"{WRITTEN + 1} comments",
                                                               timeout=LIVE_MS)
    # the count and the thread may arrive in two swaps: wait for the thread's own
    expect(page.locator("#owner-thread [data-testid=comment]")).to_have_count(
        len(range(5, WRITTEN + 1)), timeout=LIVE_MS)
    assert shown(page, "owner-thread") == points(range(5, WRITTEN + 1))
    shoot(page, "long-discussion-owner-desktop")
    phone = open_page(f"/choice/{iid}", phone=True)
    expect(phone.locator("#owner-thread [data-testid=comment]")).to_have_count(20)
    shoot(phone, "long-discussion-owner-phone")
