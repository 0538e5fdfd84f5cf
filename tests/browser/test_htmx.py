"""The pages run on the vendored htmx: the release `manifest.toml` names, with the page's
settings, inside the page's Content Security Policy, keeping nothing of a question in the
browser's storage, and sending one answer for a double click."""

from __future__ import annotations

import tomllib
from typing import Any

from playwright.sync_api import Page, Request, expect

from choice.client.portal_client import PortalClient
from tests.browser.conftest import OpenPage
from tests.browser.support import question
from tests.portal_process import ROOT

VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(event.violatedDirective + " " + (event.blockedURI || "inline"));
});
"""


def record_violations(page: Page) -> None:
    page.add_init_script(VIOLATIONS)


def vendored_htmx() -> dict[str, Any]:
    entry: dict[str, Any] = tomllib.loads((ROOT / "manifest.toml").read_text())["vendor"]["htmx"]
    return entry


def test_the_page_runs_the_vendored_htmx_with_its_settings_inside_the_csp(
        open_page: OpenPage, client: PortalClient) -> None:
    here = client.create(question(title="Kept off the disk"))["interaction_id"]
    done = client.create(question(title="Already done"))["interaction_id"]
    client.cancel(done, "not needed")
    page = open_page(f"/choice/{here}", prepare=record_violations)

    assert page.evaluate("htmx.version") == vendored_htmx()["version"]
    settings = page.evaluate("({eval: htmx.config.allowEval, scripts: htmx.config.allowScriptTags,"
                             " history: htmx.config.historyCacheSize,"
                             " inherit: htmx.config.disableInheritance})")
    assert settings == {"eval": False, "scripts": False, "history": 0, "inherit": True}

    page.get_by_test_id("filter-completed").click()  # a boosted swap that pushes the URL
    expect(page.locator(f"[data-testid=list-item][data-interaction-id='{done}']")).to_be_visible()
    page.get_by_test_id("filter-all").click()
    expect(page.locator(f"[data-testid=list-item][data-interaction-id='{here}']")).to_be_visible()

    assert page.evaluate("window.__violations") == []
    stored = page.evaluate("JSON.stringify([localStorage, sessionStorage])")
    assert "htmx-history-cache" not in stored and "Kept off the disk" not in stored, stored


def test_a_double_click_on_submit_sends_one_answer(open_page: OpenPage,
                                                   client: PortalClient) -> None:
    iid = client.create(question(selection_mode="multi"))["interaction_id"]
    page = open_page(f"/choice/{iid}")
    posts: list[str] = []

    def count(request: Request) -> None:
        if request.method == "POST" and request.url.endswith(f"/choice/{iid}/submit"):
            posts.append(request.url)

    page.on("request", count)
    page.locator("[data-option-id=pg] [data-testid=option-label]").click()
    page.get_by_test_id("submit").dblclick()
    expect(page.get_by_test_id("outcome")).to_be_visible()
    # A post queued behind the first would leave before anything the page asks after it.
    with page.expect_response(lambda r: r.url.endswith("/healthz")):
        page.evaluate("fetch('/healthz')")
    assert len(posts) == 1, posts
    kinds = [e["kind"] for e in client.call("GET", f"/api/interactions/{iid}/events")["events"]]
    assert kinds.count("answered") == 1, kinds
