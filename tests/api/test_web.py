"""The web side without a browser: sign-in, pages, form posts, the socket, the bundle."""

from __future__ import annotations

import hashlib
import json
import re
import time
from typing import Any

import pytest
from litestar import Litestar
from litestar.exceptions import WebSocketDisconnect
from litestar.testing import TestClient

from choice.portal import create_app
from choice.web.views.assets import read_manifest
from tests.api.conftest import BASE_URL, ask, token

Client = TestClient[Litestar]
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
HTMX = {**FORM, "HX-Request": "true"}


def create(client: Client, **overrides: Any) -> str:
    response = client.post("/api/interactions", json=ask(**overrides))
    assert response.status_code == 201, response.text
    return str(response.json()["interaction_id"])


@pytest.fixture
def browser(client: Client, app: Litestar) -> Client:
    """The same client, signed in like a browser (cookie) and without the bearer token."""
    response = client.get(f"/login?token={token()}&next=/", follow_redirects=False)
    assert response.status_code == 303
    del client.headers["Authorization"]
    return client


def events(client: Client, app: Litestar, iid: str) -> list[str]:
    response = client.get(f"/api/interactions/{iid}/events", headers=agent_headers(app))
    return [event["kind"] for event in response.json()["events"]]


def test_token_login_sets_a_private_cookie_and_drops_the_secret(client: Client, app: Litestar) -> None:
    response = client.get(f"/login?token={token()}&next=/choice/abc", follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == "/choice/abc"
    cookie = response.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie and token() not in cookie


def test_a_wrong_token_shows_the_sign_in_page_without_a_cookie(anonymous: Client) -> None:
    response = anonymous.get("/login?token=nope&next=/", follow_redirects=False)
    assert response.status_code == 401
    assert "set-cookie" not in response.headers
    assert 'data-testid="login-error"' in response.text


def test_a_one_time_code_works_once(client: Client, anonymous: Client) -> None:
    url = client.post("/api/login-links", json={"next": "/settings"}).json()["url"]
    path = url.removeprefix(BASE_URL)
    del client.headers["Authorization"]
    first = client.get(path, follow_redirects=False)
    assert first.status_code == 303 and first.headers["location"] == "/settings"
    client.cookies.clear()
    assert client.get(path, follow_redirects=False).status_code == 401


@pytest.mark.parametrize("target", ["//evil.example/x", "https://evil.example", "/\\evil.example"])
def test_login_never_redirects_off_the_portal(client: Client, app: Litestar, target: str) -> None:
    response = client.get("/login", params={"token": token(), "next": target},
                          follow_redirects=False)
    assert response.headers["location"] == "/"


def test_a_page_without_a_session_shows_sign_in_and_nothing_else(client: Client) -> None:
    iid = create(client, title="Secret plan")
    del client.headers["Authorization"]
    response = client.get(f"/choice/{iid}")
    assert response.status_code == 401
    assert 'data-testid="login"' in response.text and "Secret plan" not in response.text
    assert f"choice open {iid}" in response.text


def test_a_partial_without_a_session_is_a_plain_401(anonymous: Client) -> None:
    response = anonymous.get("/partials/interactions", headers={"HX-Request": "true"})
    assert response.status_code == 401


def test_the_page_escapes_model_text_and_sends_a_strict_csp(browser: Client, app: Litestar) -> None:
    hostile = '<script>window.x=1</script>"><img src=x onerror=alert(1)>'
    iid = create_as_agent(browser, app, title=hostile[:100], prompt=hostile,
                          options=[{"id": "a", "label": hostile[:150], "description": hostile}])
    response = browser.get(f"/choice/{iid}")
    assert response.status_code == 200
    main = response.text.split('id="interaction"', 1)[1]
    assert "<script>window.x=1" not in main and "<img src=x" not in main
    assert "&lt;script&gt;window.x=1" in main
    csp = response.headers["content-security-policy"]
    assert "script-src 'self' 'sha256-" in csp and "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp


def test_get_changes_nothing(browser: Client, app: Litestar) -> None:
    iid = create_as_agent(browser, app)
    for path in (f"/choice/{iid}", f"/choice/{iid}/partial", "/", "/partials/interactions"):
        assert browser.get(path).status_code == 200
    assert events(browser, app, iid) == ["created"]


def test_a_plain_form_post_answers_and_redirects(browser: Client, app: Litestar) -> None:
    iid = create_as_agent(browser, app)
    response = browser.post(f"/choice/{iid}/submit", content="selected=lite&action=submit",
                            headers=FORM, follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == f"/choice/{iid}"
    result = poll(browser, app, iid)
    assert result["selected_ids"] == ["lite"] and result["interface"] == "web"


def test_a_form_post_that_answers_htmx_and_plain_loads_differently_says_so(
        browser: Client, app: Litestar) -> None:
    iid = create_as_agent(browser, app, require_confirmation=True)
    for headers in (HTMX, FORM):
        review = browser.post(f"/choice/{iid}/submit", content="selected=pg&action=review",
                              headers=headers)
        assert review.status_code == 200 and 'data-testid="review"' in review.text
        assert "HX-Request" in review.headers["vary"]
    assert ("<html" in review.text) and "<html" not in browser.post(
        f"/choice/{iid}/submit", content="selected=pg&action=review", headers=HTMX).text


def test_a_new_language_reloads_the_page_and_other_settings_only_the_form(
        browser: Client, app: Litestar) -> None:
    same = browser.post("/settings", headers=HTMX, content="language=en&interface=web")
    assert "hx-refresh" not in same.headers and "settings-saved" in same.headers["hx-trigger"]
    switched = browser.post("/settings", headers=HTMX, content="language=zh&interface=web")
    assert switched.headers["hx-refresh"] == "true" and "hx-trigger" not in switched.headers
    browser.post("/settings", headers=HTMX, content="language=en&interface=web")


def test_an_htmx_submit_swaps_in_the_outcome(browser: Client, app: Litestar) -> None:
    iid = create_as_agent(browser, app)
    response = browser.post(f"/choice/{iid}/submit", content="selected=pg&action=submit",
                            headers=HTMX)
    assert response.status_code == 200
    assert 'data-testid="outcome"' in response.text and "PostgreSQL" in response.text


def test_review_then_confirm_records_the_confirmation(browser: Client, app: Litestar) -> None:
    iid = create_as_agent(browser, app, require_confirmation=True)
    review = browser.post(f"/choice/{iid}/submit", content="selected=pg&action=review",
                          headers=HTMX)
    assert 'data-testid="review"' in review.text and poll(browser, app, iid)["status"] == "pending"
    browser.post(f"/choice/{iid}/submit", content="selected=pg&action=confirm", headers=HTMX)
    assert poll(browser, app, iid)["confirmed"] is True


def test_a_review_of_an_answer_the_submit_would_refuse_is_refused(browser: Client,
                                                                  app: Litestar) -> None:
    iid = create_as_agent(browser, app, require_confirmation=True, selection_mode="multi",
                          max_selections=1)
    review = browser.post(f"/choice/{iid}/submit", content="selected=pg&selected=lite&action=review",
                          headers=HTMX)
    assert review.status_code == 422 and 'data-testid="review"' not in review.text
    assert "at most 1" in review.text
    assert events(browser, app, iid) == ["created"]


def test_a_review_after_the_deadline_is_refused_as_confirm_would_be_and_writes_nothing() -> None:
    """The review step asks the service on the service's clock, not its own."""
    clock = MovableClock()
    app = create_app(clock=clock)
    with TestClient(app, base_url=BASE_URL) as client:
        client.get(f"/login?token={token()}&next=/", follow_redirects=False)
        iid = create_as_agent(client, app, require_confirmation=True, timeout_seconds=10)
        # One more request first: the scheduler, woken by the create, has then gone back to
        # sleep for 10 real seconds, so moving the clock now leaves the expiry unwritten.
        assert poll(client, app, iid)["status"] == "pending"
        clock.offset = 11.0
        review = client.post(f"/choice/{iid}/submit", content="selected=pg&action=review",
                             headers=HTMX)
        assert review.status_code == 409 and 'data-testid="review"' not in review.text
        assert events(client, app, iid) == ["created"]
        confirm = client.post(f"/choice/{iid}/submit", content="selected=pg&action=confirm",
                              headers=HTMX)
        assert confirm.status_code == 409
        assert poll(client, app, iid)["status"] == "timeout"


def test_back_from_review_keeps_the_selection(browser: Client, app: Litestar) -> None:
    iid = create_as_agent(browser, app, require_confirmation=True)
    back = browser.post(f"/choice/{iid}/submit", content="selected=lite&action=back", headers=HTMX)
    assert re.search(r'value="lite"\s+id="opt-2"\s+checked[\s>]', back.text)


def test_an_invalid_answer_re_renders_the_form_with_the_reason(browser: Client, app: Litestar) -> None:
    iid = create_as_agent(browser, app, selection_mode="multi", max_selections=1)
    response = browser.post(f"/choice/{iid}/submit", content="selected=pg&selected=lite",
                            headers=HTMX)
    assert response.status_code == 422
    assert 'data-testid="form-errors"' in response.text and "at most 1" in response.text
    assert poll(browser, app, iid)["status"] == "pending"


def test_a_second_answer_shows_the_first_one(browser: Client, app: Litestar) -> None:
    iid = create_as_agent(browser, app)
    browser.post(f"/choice/{iid}/submit", content="selected=pg", headers=HTMX)
    late = browser.post(f"/choice/{iid}/submit", content="selected=lite", headers=HTMX)
    assert late.status_code == 409 and 'data-testid="notice"' in late.text
    assert poll(browser, app, iid)["selected_ids"] == ["pg"]


def test_cancel_from_the_page_carries_the_note(browser: Client, app: Litestar) -> None:
    iid = create_as_agent(browser, app)
    browser.post(f"/choice/{iid}/cancel", content="global_annotation=not+now", headers=HTMX)
    result = poll(browser, app, iid)
    assert result["action_status"] == "cancelled" and result["global_annotation"] == "not now"


def test_the_time_left_can_be_changed_from_the_page(browser: Client, app: Litestar) -> None:
    iid = create_as_agent(browser, app, timeout_seconds=60)
    before = poll(browser, app, iid)["expires_at"]
    assert browser.post(f"/choice/{iid}/deadline", content="minutes_left=30",
                        headers=HTMX).status_code == 200
    assert poll(browser, app, iid)["expires_at"] > before
    assert "deadline_changed" in events(browser, app, iid)
    bad = browser.post(f"/choice/{iid}/deadline", content="minutes_left=soon", headers=HTMX)
    assert bad.status_code == 422


def test_settings_form_saves_and_unchecked_means_off(browser: Client, app: Litestar) -> None:
    response = browser.post("/settings", headers=HTMX,
                            content="interface=terminal&timeout_seconds=120&language=en&notifications=on")
    assert response.status_code == 200
    assert json.loads(response.headers["hx-trigger"]) == {"choice:settings-saved": {}}
    prefs = browser.get("/api/settings").json()
    assert prefs["interface"] == "terminal" and prefs["timeout_seconds"] == 120
    assert prefs["notifications"] == "unfocused" and prefs["allow_annotations"] is False
    browser.post("/settings", headers=HTMX, content="notifications=hidden&sound_volume=30")
    prefs = browser.get("/api/settings").json()
    assert (prefs["notifications"], prefs["sound"], prefs["sound_volume"]) == ("hidden", False, 30)
    bad = browser.post("/settings", headers=HTMX, content="notifications=loud&sound_volume=300")
    assert bad.status_code == 422
    assert browser.get("/api/settings").json()["notifications"] == "hidden"


def test_forms_must_be_forms(browser: Client, app: Litestar) -> None:
    iid = create_as_agent(browser, app)
    response = browser.post(f"/choice/{iid}/submit", json={"selected": "pg"})
    assert response.status_code == 415
    assert poll(browser, app, iid)["status"] == "pending"


def test_a_form_post_from_another_origin_is_refused(browser: Client, app: Litestar) -> None:
    iid = create_as_agent(browser, app)
    response = browser.post(f"/choice/{iid}/submit", content="selected=pg",
                            headers={**FORM, "Origin": "http://evil.example"})
    assert response.status_code == 403
    assert poll(browser, app, iid)["status"] == "pending"


def test_the_bundle_is_the_manifest_in_order_under_its_hash(browser: Client) -> None:
    page = browser.get("/").text
    for kind in ("js", "css"):
        digest = re.search(rf"/static/bundle\.(\w+)\.{kind}", page).group(1)  # type: ignore[union-attr]
        response = browser.get(f"/static/bundle.{digest}.{kind}")
        assert response.status_code == 200
        assert response.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert hashlib.sha256(response.content).hexdigest()[:16] == digest
        headers = re.findall(r"^/\* (\S+\.(?:js|css)) \*/$", response.text, re.M)
        assert headers == read_manifest()[kind]
        assert browser.get(f"/static/bundle.0000.{kind}").status_code == 404


def test_the_socket_pushes_the_deadline_and_the_outcome(browser: Client, app: Litestar) -> None:
    iid = create_as_agent(browser, app)
    with browser.websocket_connect(f"/ws/choice/{iid}") as socket:
        first = socket.receive_json()
        assert first["type"] == "deadline" and first["status"] == "pending"
        assert first["expires_at_ms"] > first["server_now_ms"]
        browser.post(f"/api/interactions/{iid}/response", json={"selected_ids": ["pg"]},
                     headers=agent_headers(app))
        message = socket.receive_json()
        while message["type"] != "status":
            message = socket.receive_json()
        assert message["status"] == "submitted"
    assert "opened" in events(browser, app, iid)


def test_the_socket_needs_a_session(anonymous: Client, app: Litestar) -> None:
    with pytest.raises(WebSocketDisconnect), anonymous.websocket_connect("/ws/portal") as socket:
        socket.receive_json()


def test_the_socket_refuses_a_foreign_origin(browser: Client) -> None:
    with pytest.raises(WebSocketDisconnect), browser.websocket_connect(
            "/ws/portal", headers={"Origin": "http://evil.example"}) as socket:
        socket.receive_json()


# -- helpers that act as the agent, with the bearer token -----------------------------------
class MovableClock:
    """Real time plus an offset the test sets."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


def agent_headers(app: Litestar) -> dict[str, str]:
    return {"Authorization": f"Bearer {token()}"}


def create_as_agent(client: Client, app: Litestar, **overrides: Any) -> str:
    response = client.post("/api/interactions", json=ask(**overrides), headers=agent_headers(app))
    assert response.status_code == 201, response.text
    return str(response.json()["interaction_id"])


def poll(client: Client, app: Litestar, iid: str) -> dict[str, Any]:
    result: dict[str, Any] = client.get(f"/api/interactions/{iid}", headers=agent_headers(app)).json()
    return result
