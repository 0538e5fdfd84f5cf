"""The hashed bundles are the manifest's modules in order, cached forever, and the page
still works when they cannot load (inline countdown fallback, plain form posts)."""

from __future__ import annotations

import hashlib
import re
import tomllib

import pytest
from playwright.sync_api import Page, Route, expect

from choice.client.portal_client import PortalClient
from choice.web.views.assets import minified
from tests.browser.conftest import OpenPage
from tests.browser.support import question, shoot
from tests.portal_process import ROOT, PortalProcess


def manifest_modules(kind: str) -> list[str]:
    manifest = tomllib.loads((ROOT / "manifest.toml").read_text())
    return [module for group in manifest[kind].values() for module in group]


def block_bundles(page: Page) -> None:
    def abort(route: Route) -> None:
        route.abort()

    page.route("**/static/bundle.*", abort)


@pytest.mark.parametrize("kind", ["js", "css"])
def test_the_bundle_is_the_manifest_in_order_under_its_hash(
        open_page: OpenPage, client: PortalClient, portal: PortalProcess, kind: str) -> None:
    iid = client.create(question())["interaction_id"]
    page = open_page(f"/choice/{iid}")
    selector = "script[src^='/static/bundle.']" if kind == "js" else "link[rel=stylesheet]"
    url = page.locator(selector).get_attribute("src" if kind == "js" else "href") or ""
    digest = re.fullmatch(rf"/static/bundle\.([0-9a-f]{{16}})\.{kind}", url)
    assert digest is not None, url

    response = page.request.get(portal.base_url + url)
    assert response.status == 200
    assert response.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert response.headers["content-type"].startswith(
        "text/javascript" if kind == "js" else "text/css")
    body = response.body()
    assert hashlib.sha256(body).hexdigest()[:16] == digest.group(1)
    text, position = body.decode(), 0
    for module in manifest_modules(kind):
        source = minified(kind, (ROOT / "static" / module).read_text(encoding="utf-8").strip())
        found = text.find(source, position)
        assert found >= position, f"{module} missing or out of order"
        position = found + len(source)
    stale = page.request.get(f"{portal.base_url}/static/bundle.{'0' * 16}.{kind}")
    assert stale.status == 404


def test_without_the_bundle_the_inline_fallback_keeps_the_countdown_ticking(
        open_page: OpenPage, client: PortalClient) -> None:
    iid = client.create(question(timeout_seconds=600))["interaction_id"]
    page = open_page(f"/choice/{iid}", prepare=block_bundles)
    expect(page.locator("html")).to_have_attribute("data-js", "fallback")
    assert page.evaluate("typeof window.ChoicePortal") == "undefined"
    countdown = page.get_by_test_id("countdown-clock")  # the last ten minutes: a clock
    first = countdown.text_content() or ""
    assert re.fullmatch(r"(\d+:)?\d+:\d\d", first.strip())
    expect(countdown).not_to_have_text(first)
    shoot(page, "fallback-desktop")


def test_without_the_bundle_the_form_posts_plainly_and_the_agent_gets_the_answer(
        open_page: OpenPage, client: PortalClient) -> None:
    iid = client.create(question())["interaction_id"]
    page = open_page(f"/choice/{iid}", prepare=block_bundles)
    page.locator("[data-option-id=duck] [data-testid=option-label]").click()
    with page.expect_response(lambda r: r.request.method == "POST") as posted:
        page.get_by_test_id("submit").click()
    assert "hx-request" not in posted.value.request.headers
    assert posted.value.status == 303  # post/redirect/get
    expect(page.get_by_test_id("outcome")).to_be_visible()
    result = client.poll(iid, 10)
    assert result["selected_ids"] == ["duck"] and result["status"] == "submitted"
