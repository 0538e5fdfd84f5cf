"""The owner's side of team mode in a browser: a reminder arriving on the page's socket
shows a browser notification and a calm line, the list shows a widened question as
"Waiting on team", and the settings page edits the team list (add, remove, refuse a
duplicate name)."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from choice.client.portal_client import PortalClient
from tests.browser.conftest import OpenPage
from tests.browser.support import question, shoot
from tests.browser.team import TEAM, widen
from tests.browser.test_countdown import RECORD_NOTIFICATIONS

pytestmark = pytest.mark.usefixtures("team_list")

CONNECTED = """document.addEventListener("choice:team-updated",
  () => { window.__teamRefreshed = true; });"""
"""The team panel refreshes itself once its socket (re)connects: proof the socket is open."""




def test_a_reminder_notifies_and_says_the_team_is_still_discussing(
        open_page: OpenPage, client: PortalClient) -> None:
    iid = client.create(question(title="Pick a store"))["interaction_id"]
    widen(client, iid)
    sockets: list[WebSocketRoute] = []

    def relay(socket: WebSocketRoute) -> None:
        socket.connect_to_server()  # the real socket, passed through; the test adds one message
        sockets.append(socket)

    def prepare(page: Page) -> None:
        page.add_init_script(RECORD_NOTIFICATIONS)
        page.add_init_script(CONNECTED)
        page.route_web_socket("**/ws/choice/*", relay)

    page = open_page(f"/choice/{iid}", permissions=["notifications"], prepare=prepare)
    expect(page.get_by_test_id("team-panel")).to_be_visible()
    expect(page.get_by_test_id("team-reminder")).to_be_hidden()
    page.wait_for_function("() => window.__teamRefreshed === true")  # its socket is open
    assert len(sockets) == 1
    # What the portal sends when the reminder scheduler publishes `interaction.reminder`
    # (tests/api/test_team_pages.py checks that side).
    sockets[0].send(json.dumps({"type": "reminder", "interaction_id": iid,
                                "title": "Pick a store", "path": f"/choice/{iid}"}))
    expect(page.get_by_test_id("team-reminder")).to_have_text(
        "Still waiting on the team discussion.")
    page.wait_for_function("() => window.__notifications.length > 0", timeout=5_000)
    [shown] = page.evaluate("window.__notifications")
    assert shown == {"title": "Choice portal", "body": "Still waiting on the team: Pick a store"}


def test_the_list_shows_a_widened_question_as_waiting_on_the_team(
        open_page: OpenPage, client: PortalClient) -> None:
    iid = client.create(question(title="Widen me"))["interaction_id"]
    page = open_page("/?filter=active")
    item = page.locator(f"[data-testid=list-item][data-interaction-id='{iid}']")
    expect(item.get_by_test_id("status-badge")).to_have_text("Pending")
    widen(client, iid)
    expect(item.get_by_test_id("status-badge")).to_have_text("Waiting on team",
                                                             timeout=5_000)
    expect(item).to_have_attribute("data-status", "widened")


def test_the_settings_page_edits_the_team_list(open_page: OpenPage,
                                               client: PortalClient) -> None:
    page = open_page("/settings")
    form = page.get_by_test_id("team-form")
    expect(form.get_by_test_id("team-row")).to_have_count(4)  # three people and a blank row
    form.get_by_test_id("team-add").click()
    rows = form.get_by_test_id("team-row")
    expect(rows).to_have_count(5)
    rows.nth(3).get_by_test_id("team-name").fill("Dana Park")
    rows.nth(4).get_by_test_id("team-name").fill("dana park")
    form.get_by_test_id("save-team").click()
    expect(page.get_by_test_id("team-errors")).to_contain_text("in the team list twice")
    assert [m["name"] for m in client.settings()["team"]] == [m["name"] for m in TEAM]
    expect(page.get_by_test_id("team-form").get_by_test_id("team-name").nth(4)).to_have_value(
        "dana park")  # what was typed stays, to be fixed
    form = page.get_by_test_id("team-form")
    form.get_by_test_id("team-name").nth(4).fill("")
    form.get_by_test_id("team-handle").nth(3).fill("@dana")
    form.get_by_test_id("team-remove").nth(1).check()  # Bob Smith leaves
    form.get_by_test_id("save-team").click()
    expect(page.get_by_test_id("team-saved")).to_be_visible()
    assert client.settings()["team"] == [
        {"name": "Alice Johnson", "handle": "@alice", "email": None},
        {"name": "Carol Lee", "handle": None, "email": "carol@example.com"},
        {"name": "Dana Park", "handle": "@dana", "email": None}]
    shoot(page, "team-settings-desktop")
