"""Untrusted option text renders as text; foreign origins may not answer or listen; no
session, no question."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Origin

from choice.client.portal_client import PortalClient
from tests.browser.conftest import OpenPage
from tests.browser.support import PHONE, kinds_once, question, shoot
from tests.portal_process import PortalProcess

SCRIPT = "<script>window.__pwned=1</script>"
IMG = '"><img src=x onerror="window.__pwned=2">'
EVIL = "http://evil.example"


def hostile() -> dict[str, object]:
    return question(
        title=f"Title {SCRIPT}{IMG}", prompt=f"Prompt {SCRIPT}\n\n{IMG}",
        require_confirmation=True,
        options=[{"id": "x", "label": f"Label {SCRIPT}{IMG}",
                  "description": f"Description {SCRIPT} {IMG}", "recommended": True,
                  "rationale": f"Because {IMG}"},
                 {"id": "y", "label": "Plain"}],
        context={"agent": f"agent {IMG}", "project": SCRIPT})


def assert_nothing_ran(page: Page) -> None:
    assert page.evaluate("typeof window.__pwned") == "undefined"
    expect(page.locator("#interaction img")).to_have_count(0)
    expect(page.locator("#interaction script")).to_have_count(0)
    expect(page.locator("#interaction-list img")).to_have_count(0)


def session_cookie(page: Page, portal: PortalProcess) -> str:
    return "; ".join(f"{c['name']}={c['value']}" for c in page.context.cookies(portal.base_url))


def test_script_and_img_in_model_text_render_as_text(open_page: OpenPage,
                                                     client: PortalClient) -> None:
    here = client.create(question(title="Open first"))["interaction_id"]
    page = open_page(f"/choice/{here}")
    iid = client.create(hostile())["interaction_id"]  # announced in a toast on this page
    expect(page.get_by_test_id("toast")).to_contain_text(f"New question: Title {SCRIPT}{IMG}")
    expect(page.locator("#toasts img")).to_have_count(0)

    page.goto(page.url.replace(here, iid))
    expect(page.get_by_test_id("title")).to_have_text(f"Title {SCRIPT}{IMG}")
    expect(page.get_by_test_id("option-label").first).to_have_text(f"Label {SCRIPT}{IMG}")
    expect(page.get_by_test_id("prompt")).to_contain_text(SCRIPT)
    expect(page.get_by_test_id("prompt")).to_contain_text(IMG)
    expect(page.get_by_test_id("rationale")).to_contain_text(IMG)
    assert re.sub(r"^\(\d+\) ", "", page.title()).startswith(f"Title {SCRIPT}{IMG}")  # (n) waiting
    assert_nothing_ran(page)
    shoot(page, "hostile-text-desktop")

    page.get_by_test_id("option-label").first.click()
    page.get_by_test_id("option-note-toggle").first.click()
    page.get_by_test_id("option-note").first.fill(f"note {IMG}")
    page.get_by_test_id("submit").click()
    expect(page.get_by_test_id("review-choice")).to_contain_text(f"Label {SCRIPT}{IMG}")
    assert_nothing_ran(page)
    page.get_by_test_id("confirm").click()
    expect(page.get_by_test_id("outcome-choices")).to_contain_text(f"Label {SCRIPT}{IMG}")
    expect(page.get_by_test_id("outcome-option-note")).to_have_text(f"note {IMG}")
    assert_nothing_ran(page)
    result = client.poll(iid, 10)
    assert result["option_annotations"] == {"x": f"note {IMG}"}  # the note survived review


@pytest.mark.parametrize("headers", [{"Origin": EVIL}, {"Sec-Fetch-Site": "cross-site"}],
                         ids=["foreign-origin", "cross-site"])
def test_a_cross_site_form_post_is_refused_and_changes_nothing(
        open_page: OpenPage, client: PortalClient, portal: PortalProcess,
        headers: dict[str, str]) -> None:
    iid = client.create(question())["interaction_id"]
    page = open_page(f"/choice/{iid}")
    opened = kinds_once(client, iid, "opened")  # the page's socket is in: nothing else comes
    writes: dict[str, dict[str, str | float | bool]] = {
        f"/choice/{iid}/submit": {"selected": "pg", "action": "submit"},
        f"/choice/{iid}/cancel": {"global_annotation": "forged"},
        f"/choice/{iid}/deadline": {"minutes_left": "1"},
        "/settings": {"interface": "terminal"},
    }
    before = client.poll(iid, 0)
    for path, form in writes.items():
        refused = page.request.post(portal.base_url + path, form=form, headers=headers,
                                    max_redirects=0)
        assert refused.status == 403, path
    after = client.poll(iid, 0)
    assert after["status"] == "pending" and after["expires_at"] == before["expires_at"]
    assert client.call("GET", "/api/settings")["interface"] == "web"
    kinds = [e["kind"] for e in client.call("GET", f"/api/interactions/{iid}/events")["events"]]
    assert kinds == opened == ["created", "opened"]

    # the same post from the portal's own origin goes through: the cookie was not the problem
    allowed = page.request.post(f"{portal.base_url}/choice/{iid}/submit", max_redirects=0,
                                form={"selected": "pg", "action": "submit"},
                                headers={"Origin": portal.base_url})
    assert allowed.status == 303
    assert client.poll(iid, 5)["selected_ids"] == ["pg"]


def test_a_websocket_from_a_foreign_origin_is_refused(open_page: OpenPage, client: PortalClient,
                                                      portal: PortalProcess) -> None:
    iid = client.create(question())["interaction_id"]
    page = open_page(f"/choice/{iid}")
    url = f"ws://127.0.0.1:{portal.port}/ws/choice/{iid}"
    cookie = session_cookie(page, portal)
    with pytest.raises(InvalidStatus) as refused:
        connect(url, origin=Origin(EVIL), additional_headers={"Cookie": cookie}, open_timeout=5)
    assert refused.value.response.status_code == 403
    with connect(url, origin=Origin(portal.base_url), additional_headers={"Cookie": cookie},
                 open_timeout=5) as same_origin:
        message = json.loads(same_origin.recv(timeout=5))
    assert message["type"] == "deadline" and message["interaction_id"] == iid


def test_without_a_session_the_question_page_is_the_sign_in_page(
        open_page: OpenPage, client: PortalClient, portal: PortalProcess) -> None:
    iid = client.create(question(title="Secret roadmap", prompt="The launch date is 3 May.",
                                 options=[{"id": "a", "label": "Codename Falcon"}]))[
        "interaction_id"]
    page = open_page("/login", signed_in=False, phone=True)
    response = page.goto(f"{portal.base_url}/choice/{iid}")
    assert response is not None and response.status == 401
    expect(page.get_by_test_id("login")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    expect(page.get_by_test_id("login-command")).to_have_text(f"choice open {iid}")
    html = page.content()
    for secret in ("Secret roadmap", "3 May", "Codename Falcon"):
        assert secret not in html
    partial = page.request.get(f"{portal.base_url}/choice/{iid}/partial",
                               headers={"HX-Request": "true"})
    assert partial.status == 401 and "Falcon" not in partial.text()
    shoot(page, "sign-in-phone")


def test_the_sign_in_form_lands_on_the_question(open_page: OpenPage, client: PortalClient,
                                                portal: PortalProcess) -> None:
    iid = client.create(question(title="Secret roadmap"))["interaction_id"]
    page = open_page(f"/choice/{iid}", signed_in=False)
    expect(page.get_by_test_id("login")).to_be_visible()
    shoot(page, "sign-in-desktop")
    page.get_by_test_id("login-token").fill(portal.token)
    with page.expect_response(lambda r: r.request.method == "POST") as posted:
        page.get_by_test_id("login-submit").click()
    assert posted.value.status == 303
    expect(page.get_by_test_id("title")).to_have_text("Secret roadmap")
    assert "token" not in page.url
