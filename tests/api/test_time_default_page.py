"""The settings panel's "Use as default" without a browser: the offer after Apply, the save
(HTMX and a plain form post), and what it refuses."""

from __future__ import annotations

import re

from litestar import Litestar

from tests.api.test_web import FORM, HTMX, Client, agent_headers, browser, create_as_agent

__all__ = ["browser"]  # the signed-in client fixture


def default_time(client: Client, app: Litestar) -> int:
    return int(client.get("/api/settings", headers=agent_headers(app)).json()["timeout_seconds"])


def test_apply_offers_the_minutes_typed_as_the_default_time(browser: Client, app: Litestar) -> None:
    iid = create_as_agent(browser, app, timeout_seconds=60)
    page = browser.get(f"/choice/{iid}")
    assert 'data-testid="use-as-default"' not in page.text  # nothing changed yet
    applied = browser.post(f"/choice/{iid}/deadline", content="minutes_left=30", headers=HTMX)
    assert applied.status_code == 200
    # the panel's section comes out of band, beside the re-rendered question
    assert re.search(r'id="time-section"[^>]*hx-swap-oob="true"', applied.text)
    assert "Use 30 minutes as my default time" in applied.text
    assert "Use 30 minutes as my default time" in browser.get(f"/choice/{iid}").text  # reload


def test_use_as_default_saves_and_swaps_only_the_panel_parts(browser: Client,
                                                             app: Litestar) -> None:
    iid = create_as_agent(browser, app, timeout_seconds=60)
    browser.post(f"/choice/{iid}/deadline", content="minutes_left=30", headers=HTMX)
    saved = browser.post(f"/choice/{iid}/default-time", headers=HTMX)
    assert saved.status_code == 200
    assert default_time(browser, app) == 1800
    assert 'id="interaction"' not in saved.text  # the question's form is left alone
    assert re.search(r'id="pref-timeout"[^>]*value="30"[^>]*hx-swap-oob="true"', saved.text)
    assert 'data-testid="use-as-default"' not in saved.text
    assert "30 minutes is your default time now" in saved.text


def test_without_script_the_post_redirects_to_the_section(browser: Client, app: Litestar) -> None:
    iid = create_as_agent(browser, app, timeout_seconds=60)
    browser.post(f"/choice/{iid}/deadline", content="minutes_left=45", headers=FORM,
                 follow_redirects=False)
    saved = browser.post(f"/choice/{iid}/default-time", headers=FORM, follow_redirects=False)
    assert saved.status_code == 303
    assert saved.headers["location"] == f"/choice/{iid}#time-section"
    assert default_time(browser, app) == 2700
    page = browser.get(f"/choice/{iid}")
    assert "45 minutes is your default time now" in page.text
    assert re.search(r'id="pref-timeout"[^>]*value="45"', page.text)


def test_a_time_below_the_bounds_is_saved_as_the_shortest_and_says_so(browser: Client,
                                                                     app: Litestar) -> None:
    iid = create_as_agent(browser, app, timeout_seconds=600)
    browser.post(f"/choice/{iid}/deadline", content="minutes_left=0.1", headers=HTMX)
    page = browser.get(f"/choice/{iid}").text
    assert "Use 10 seconds as my default time" in page
    assert "the nearest to the 6 seconds you gave this question" in page
    browser.post(f"/choice/{iid}/default-time", headers=HTMX)
    assert default_time(browser, app) == 10


def test_before_any_change_there_is_nothing_to_save(browser: Client, app: Litestar) -> None:
    iid = create_as_agent(browser, app, timeout_seconds=60)
    before = default_time(browser, app)
    refused = browser.post(f"/choice/{iid}/default-time", headers=HTMX)
    assert refused.status_code == 409
    assert "then it can become your default time" in refused.text
    assert default_time(browser, app) == before


def test_a_change_through_the_api_is_not_offered(browser: Client, app: Litestar) -> None:
    """Agents hold the token too: an extension through the API is nobody's preference."""
    iid = create_as_agent(browser, app, timeout_seconds=60)
    moved = browser.patch(f"/api/interactions/{iid}", json={"timeout_seconds": 1200},
                          headers=agent_headers(app))
    assert moved.status_code == 200
    assert 'data-testid="use-as-default"' not in browser.get(f"/choice/{iid}").text
