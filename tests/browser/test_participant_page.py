"""A participant's page in a real browser: it works without JavaScript, hostile text in
comments and names stays text, it speaks Chinese, a link that opens nothing is a calm 404,
the participant never gets the owner's cookie or pages, a withdrawn link closes the open
page, a timed-out question says so and what its `on_timeout` did, and a page pushed out by
newer pages of its link says so."""

from __future__ import annotations

import json
from contextlib import ExitStack

import pytest
from playwright.sync_api import Page, ViewportSize, WebSocket, expect
from websockets.sync.client import connect
from websockets.typing import Origin

from choice.client.portal_client import PortalClient
from choice.web.live.socket_limits import LINK_SOCKETS
from tests.browser.conftest import OpenPage
from tests.browser.support import PHONE, iso_in, question, shoot
from tests.browser.team import TEAM_PHONE, comment, links, vote, widen
from tests.portal_process import PortalProcess

pytestmark = pytest.mark.usefixtures("team_list")

SCRIPT = "<script>window.__pwned=1</script>"
IMG = '"><img src=x onerror="window.__pwned=2">'
RLO = "\u202e"
LIVE_MS = 5_000




def assert_nothing_ran(page: Page) -> None:
    assert page.evaluate("typeof window.__pwned") == "undefined"
    expect(page.locator("main img, #interaction img")).to_have_count(0)
    expect(page.locator("main script, #interaction script")).to_have_count(0)


def test_without_javascript_a_participant_comments_and_votes(
        open_page: OpenPage, client: PortalClient) -> None:
    iid = client.create(question(selection_mode="multi", max_selections=2))["interaction_id"]
    path = links(widen(client, iid))["Bob Smith"]
    page = open_page(path, signed_in=False, java_script_enabled=False)
    expect(page.get_by_test_id("vote-input").first).to_have_attribute("type", "checkbox")
    comment(page, "Two lines,\nno script.")
    page.wait_for_url(f"**{path}#thread")
    expect(page.get_by_test_id("comment-text")).to_have_text("Two lines,\nno script.")
    page.locator("[data-option-id=pg] [data-testid=vote-input]").check()
    page.locator("[data-option-id=duck] [data-testid=vote-input]").check()
    page.get_by_test_id("vote-submit").click()
    page.wait_for_url(f"**{path}#vote")
    expect(page.locator("[data-option-id=duck] [data-testid=tally]")).to_have_attribute(
        "data-votes", "1")
    expect(page.locator("[data-testid=vote-input]:checked")).to_have_count(2)
    page.get_by_test_id("vote-clear").click()  # a radio cannot be unticked: a button can
    page.wait_for_url(f"**{path}#vote")
    expect(page.locator("[data-testid=vote-input]:checked")).to_have_count(0)
    team = client.call("GET", f"/api/interactions/{iid}/team")
    assert [m["text"] for m in team["comments"]] == ["Two lines,\nno script."]
    assert all(p["vote"] == [] for p in team["participants"])
    assert page.context.cookies() == []


def test_hostile_comments_and_names_render_as_text(open_page: OpenPage,
                                                   client: PortalClient) -> None:
    iid = client.create(question(title=f"Title {SCRIPT}"))["interaction_id"]
    hostile_name = f"Eve {SCRIPT}"
    paths = links(widen(client, iid, audience=["Alice Johnson", hostile_name],
                        note=f"Note {IMG}"))
    eve = open_page(paths[hostile_name], signed_in=False)
    alice = open_page(paths["Alice Johnson"], signed_in=False)
    owner = open_page(f"/choice/{iid}")
    text = f"Hi {SCRIPT}\n{IMG} {RLO}reversed"
    comment(eve, text)
    vote(eve, "PostgreSQL")
    for page in (eve, alice):
        expect(page.get_by_test_id("comment-author")).to_have_text(hostile_name,
                                                                   timeout=LIVE_MS)
        expect(page.get_by_test_id("comment-text")).to_have_text(text + "\u202c")  # closed
        expect(page.locator("[data-option-id=pg] [data-testid=voters]")).to_have_text(
            hostile_name, timeout=LIVE_MS)
        expect(page.get_by_test_id("widen-note")).to_contain_text(f"Note {IMG}")
        expect(page.get_by_test_id("title")).to_have_text(f"Title {SCRIPT}")
        assert_nothing_ran(page)
    expect(owner.get_by_test_id("comment-text")).to_have_text(text + "\u202c",
                                                              timeout=LIVE_MS)
    expect(owner.get_by_test_id("invited-name").last).to_have_text(hostile_name)
    assert_nothing_ran(owner)
    shoot(alice, "team-hostile-text-desktop")


def test_the_page_speaks_the_questions_language(open_page: OpenPage,
                                               client: PortalClient) -> None:
    iid = client.create(question(language="zh"))["interaction_id"]
    path = links(widen(client, iid))["Carol Lee"]
    page = open_page(path, signed_in=False)
    expect(page.locator("html")).to_have_attribute("lang", "zh")
    expect(page.get_by_test_id("participant-brand")).to_have_text("团队讨论")
    expect(page.get_by_test_id("you")).to_have_text("你以 Carol Lee 的身份受邀讨论这个问题。")
    expect(page.get_by_test_id("comment-submit")).to_have_text("发表评论")
    comment(page, "我赞成 PostgreSQL。")
    expect(page.get_by_test_id("comment-text")).to_have_text("我赞成 PostgreSQL。")
    vote(page, "PostgreSQL")
    expect(page.get_by_test_id("vote-saved")).to_have_text("你的投票已保存。")
    expect(page.locator("[data-option-id=pg] [data-testid=tally]")).to_contain_text("1 票")
    english = open_page(f"{path}?lang=en", signed_in=False)
    expect(english.locator("html")).to_have_attribute("lang", "en")
    expect(english.get_by_test_id("comment-submit")).to_have_text("Post comment")


def test_a_link_that_opens_nothing_is_a_calm_404(open_page: OpenPage, client: PortalClient,
                                                 portal: PortalProcess) -> None:
    page = open_page("/d/" + "A" * 32, signed_in=False, viewport=TEAM_PHONE)
    expect(page.get_by_test_id("link-gone")).to_be_visible()
    assert page.evaluate("document.title") == "This link opens nothing"
    response = page.request.get(f"{portal.base_url}/d/nonsense")
    assert response.status == 404
    expect(page.locator("a")).to_have_count(0)
    shoot(page, "team-link-gone-phone")


def test_a_participant_never_reaches_the_owner(open_page: OpenPage, client: PortalClient,
                                              portal: PortalProcess) -> None:
    iid = client.create(question())["interaction_id"]
    path = links(widen(client, iid))["Alice Johnson"]
    page = open_page(path, signed_in=False)
    comment(page, "Hello")
    expect(page.get_by_test_id("comment")).to_have_count(1)
    hrefs = page.locator("a[href]").evaluate_all("els => els.map(e => e.getAttribute('href'))")
    assert hrefs == []  # no way to the list, the settings or another question
    assert page.context.cookies() == []
    for route in ("/", f"/choice/{iid}", "/settings", "/api/interactions",
                  f"/api/interactions/{iid}/team", f"/choice/{iid}/widen"):
        status = page.request.get(portal.base_url + route).status
        assert status in (401, 403, 404), (route, status)
    answer = page.request.post(f"{portal.base_url}/choice/{iid}/submit",
                               form={"selected": "pg", "action": "submit"})
    assert answer.status in (401, 403)
    assert client.poll(iid, 0)["status"] == "widened"


def test_a_withdrawn_link_closes_the_open_page(open_page: OpenPage,
                                              client: PortalClient) -> None:
    iid = client.create(question())["interaction_id"]
    path = links(widen(client, iid))["Bob Smith"]
    bob = open_page(path, signed_in=False)
    owner = open_page(f"/choice/{iid}")
    person = owner.locator("[data-testid=invited-person]", has_text="Bob Smith")
    owner.once("dialog", lambda dialog: dialog.accept())  # "Withdraw Bob Smith's link?"
    person.get_by_test_id("withdraw").click()
    expect(person.get_by_test_id("invited-state")).to_contain_text("Link withdrawn")
    expect(bob.get_by_test_id("link-gone")).to_be_visible(timeout=LIVE_MS)


def test_a_timed_out_question_says_so_and_what_on_timeout_did(
        open_page: OpenPage, client: PortalClient) -> None:
    iid = client.create(question(on_timeout="submit_defaults", default_selection_ids=["lite"],
                                 timeout_seconds=600))["interaction_id"]
    path = links(widen(client, iid))["Carol Lee"]
    carol = open_page(path, signed_in=False)
    owner = open_page(f"/choice/{iid}")
    client.call("PATCH", f"/api/interactions/{iid}", {"expires_at": iso_in(2.5)})
    expect(carol.get_by_test_id("team-outcome-title")).to_have_text("The question timed out",
                                                                     timeout=8_000)
    expect(carol.get_by_test_id("team-outcome-text")).to_contain_text(
        "the default choice was taken")
    expect(carol.get_by_test_id("team-outcome-choices")).to_have_text("SQLite")
    expect(carol.locator("form")).to_have_count(0)
    expect(owner.get_by_test_id("outcome")).to_be_visible(timeout=LIVE_MS)
    expect(owner.get_by_test_id("team-mode")).to_have_text(
        "The question timed out; the discussion is closed.")


def test_a_page_pushed_out_by_newer_pages_of_its_link_says_so(
        open_page: OpenPage, client: PortalClient, portal: PortalProcess) -> None:
    """A link keeps 8 pages live: the oldest is closed (4409) and says why instead of
    reconnecting (which would push out the next oldest, and so on)."""
    iid = client.create(question())["interaction_id"]
    path = links(widen(client, iid))["Bob Smith"]
    pages: list[Page] = []
    for size in (ViewportSize(width=1280, height=800), PHONE):
        sockets: list[WebSocket] = []
        frames: list[object] = []

        def watch(page: Page, sockets: list[WebSocket] = sockets,
                  frames: list[object] = frames) -> None:
            def opened(socket: WebSocket) -> None:
                sockets.append(socket)
                socket.on("framereceived", lambda frame: frames.append(frame))
            page.on("websocket", opened)

        page = open_page(path, signed_in=False, viewport=size, prepare=watch)
        expect(page.get_by_test_id("comment-input")).to_be_visible()
        if not frames:  # its socket is live once the deadline came (events arrive in calls)
            (sockets[0] if sockets else page.wait_for_event("websocket")).wait_for_event(
                "framereceived")
        pages.append(page)
    with ExitStack() as newer:
        for _ in range(LINK_SOCKETS):
            socket = newer.enter_context(connect(
                f"ws://127.0.0.1:{portal.port}/ws{path}",
                origin=Origin(portal.base_url), open_timeout=5))
            assert json.loads(socket.recv(timeout=5))["type"] == "deadline"
        for page, name in zip(pages, ("desktop", "phone"), strict=True):
            expect(page.get_by_test_id("connection")).to_have_text(
                "Live updates stopped: this page is open in too many tabs. Reload to resume.")
            shoot(page, f"participant-pushed-out-{name}")


def test_a_comment_the_busy_portal_turns_away_says_so(open_page: OpenPage,
                                                      client: PortalClient) -> None:
    """Past the participants' queue the portal answers 503 (`guest_budget.py`), which htmx
    swaps nowhere: the page says so instead of looking as if the click did nothing."""
    iid = client.create(question())["interaction_id"]
    path = links(widen(client, iid))["Bob Smith"]
    page = open_page(path, signed_in=False)
    page.route("**/comment", lambda route: route.fulfill(
        status=503, headers={"Retry-After": "1"}, content_type="application/json",
        body=json.dumps({"errors": [{"field": "headers", "code": "busy",
                                     "message": "the portal is serving many participants"}]})))
    comment(page, "Kept in the box")
    expect(page.get_by_test_id("toast")).to_have_text(
        "The portal is busy right now. Try again in a moment.")
    expect(page.get_by_test_id("comment-input")).to_have_value("Kept in the box")
    assert client.call("GET", f"/api/interactions/{iid}/comments")["comments"] == []
