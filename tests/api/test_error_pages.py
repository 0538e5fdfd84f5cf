"""A failed request answers a person's browser on the pages with a page (the status kept, in
the page's language, with the way back and nothing written for agents), while the JSON API
keeps its JSON errors: each mistake asked both ways. An htmx swap keeps the JSON its script
reads, and a participant's error page links only back to their own discussion."""

from __future__ import annotations

import logging
import re
import sqlite3
from html import unescape

import pytest
from httpx import Response
from litestar import Litestar
from litestar.testing import TestClient

from choice.core.config import Settings
from tests.api.conftest import agent, ask, owner

Client = TestClient[Litestar]
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
HTMX = {"HX-Request": "true"}
UNKNOWN = "0123456789abcdef"
TOO_BIG = b"text=" + b"x" * 300_000  # over the 256 KiB a request body may have


@pytest.fixture
def web(anonymous: Client) -> Client:
    """No token, no cookie: each request sends the owner's cookie or the agent's token."""
    return anonymous


def asked(web: Client, **overrides: object) -> str:
    created = web.post("/api/interactions", json=ask(**overrides), headers=agent())
    assert created.status_code == 201, created.text
    return str(created.json()["interaction_id"])


def shown(html: str) -> dict[str, str]:
    """What an error page says: its language, heading, sentence, and the way back (where
    it leads and what it is called), unescaped."""
    found = {"lang": r'<html lang="([^"]+)"', "title": r"<h1>(.*?)</h1>",
             "detail": r"</h1>\s*<p>(.*?)</p>",
             "back": r'<a class="button primary" href="([^"]*)" data-testid="error-back"',
             "back_text": r'data-testid="error-back">(.*?)</a>'}
    return {key: unescape(match.group(1)) for key, pattern in found.items()
            if (match := re.search(pattern, html, re.S))}


def is_page(reply: Response) -> bool:
    return reply.headers["content-type"].startswith("text/html")


def nothing_for_agents(html: str) -> bool:
    """No sentence of the JSON error (API paths, its shape) on the page."""
    return "/api/" not in html and '"errors"' not in html and "/schema" not in html


def test_an_unknown_question_is_a_page_in_the_browser_and_json_on_the_api(web: Client) -> None:
    page = web.get(f"/choice/{UNKNOWN}", headers=owner(web))
    assert page.status_code == 404 and is_page(page)
    assert shown(page.text) == {
        "lang": "en", "title": "This question is not here",
        "detail": "Its link may be mistyped, or the question is old and the portal has "
                  "removed it.",
        "back": "/", "back_text": "All questions"}
    assert nothing_for_agents(page.text) and 'data-testid="logout"' in page.text
    api = web.get(f"/api/interactions/{UNKNOWN}", headers=agent())
    assert api.status_code == 404 and api.headers["content-type"] == "application/json"
    assert api.json() == {"errors": [{
        "field": "interaction_id", "code": "not_found",
        "message": f"no interaction with id '{UNKNOWN}': check the id, or list them with GET "
                   "/api/interactions (old ones are removed by retention)."}]}


def test_the_page_speaks_the_portals_language(web: Client) -> None:
    assert web.put("/api/settings", json={"language": "zh"}, headers=agent()).status_code == 200
    page = web.get(f"/choice/{UNKNOWN}", headers=owner(web))
    assert page.status_code == 404
    assert shown(page.text) == {
        "lang": "zh", "title": "找不到这个问题",
        "detail": "链接可能有误，或者这个问题已经过旧，被门户删除了。",
        "back": "/", "back_text": "全部问题"}
    api = web.get(f"/api/interactions/{UNKNOWN}", headers=agent())
    assert "list them with GET /api/interactions" in api.json()["errors"][0]["message"]


def test_an_htmx_swap_keeps_the_json_its_script_reads(web: Client) -> None:
    swap = web.get(f"/choice/{UNKNOWN}/partial", headers={**owner(web), **HTMX})
    assert swap.status_code == 404 and swap.json()["errors"][0]["code"] == "not_found"
    assert "HX-Request" in swap.headers["vary"]
    page = web.get(f"/choice/{UNKNOWN}/partial", headers=owner(web))
    assert page.status_code == 404 and is_page(page) and "HX-Request" in page.headers["vary"]


def test_a_path_no_route_serves_is_a_page_unless_it_is_the_apis(web: Client) -> None:
    iid = asked(web)
    page = web.get(f"/choice/{iid}/nonsense", headers=owner(web))
    assert page.status_code == 404 and is_page(page)
    assert shown(page.text)["title"] == "There is no page at this address"
    assert shown(page.text)["back"] == "/" and nothing_for_agents(page.text)
    for path in (f"/api/interactions/{iid}/nonsense", "/static/bundle/x", "/healthz/x"):
        api = web.get(path, headers=agent())
        assert api.status_code == 404 and api.json() == {"errors": [{
            "field": "request", "code": "not_found",
            "message": "no such endpoint: see /schema for the API."}]}, path


def test_a_signed_out_browser_gets_the_page_without_signing_out(web: Client) -> None:
    page = web.get("/no/such/page")
    assert page.status_code == 404 and shown(page.text)["back"] == "/"
    assert 'data-testid="logout"' not in page.text


def test_a_method_a_page_does_not_take_is_a_405_page_with_its_allow_header(web: Client) -> None:
    iid = asked(web)
    page = web.delete(f"/choice/{iid}", headers=owner(web))
    assert page.status_code == 405 and is_page(page) and "GET" in page.headers["allow"]
    assert shown(page.text)["title"] == "The portal cannot do that here"
    api = web.delete(f"/api/interactions/{iid}", headers=agent())
    assert api.status_code == 405 and api.json()["errors"][0]["code"] == "method_not_allowed"


def test_a_form_for_an_answered_question_is_its_page_with_409(web: Client) -> None:
    iid = asked(web)
    assert web.post(f"/api/interactions/{iid}/response", json={"selected_ids": ["pg"]},
                    headers=agent()).status_code == 200
    post = web.post(f"/choice/{iid}/submit", content="selected=lite",
                    headers={**owner(web), **FORM}, follow_redirects=False)
    assert post.status_code == 303  # to the question's page, which says why (a reload is safe)
    page = web.get(post.headers["location"], headers=owner(web))
    assert page.status_code == 409 and is_page(page)
    assert "This question was already answered elsewhere." in page.text
    assert 'href="/"' in page.text and nothing_for_agents(page.text)
    api = web.post(f"/api/interactions/{iid}/response", json={"selected_ids": ["lite"]},
                   headers=agent())
    assert api.status_code == 409 and api.json()["errors"][0]["code"] == "already_completed"


def test_a_form_too_large_to_read_is_a_413_page(web: Client) -> None:
    iid = asked(web)
    page = web.post(f"/choice/{iid}/submit", content=TOO_BIG, headers={**owner(web), **FORM})
    assert page.status_code == 413 and is_page(page)
    assert shown(page.text)["detail"] == (
        "The portal takes at most 256 KiB in one request. Nothing was saved: go back, shorten "
        "the text, and send it again.")
    assert web.get(f"/api/interactions/{iid}", headers=agent()).json()["status"] == "pending"
    api = web.post(f"/api/interactions/{iid}/cancel", content=TOO_BIG,
                   headers={**agent(), "Content-Type": "application/json"})
    assert api.status_code == 413 and api.json()["errors"][0]["code"] == "too_large"


def test_an_address_the_page_cannot_read_is_a_422_page(web: Client) -> None:
    iid = asked(web)
    page = web.get(f"/choice/{iid}/decision?keep=maybe", headers=owner(web))
    assert page.status_code == 422 and is_page(page)
    assert shown(page.text)["title"] == "The portal could not take what was sent"
    api = web.get("/api/interactions?limit=maybe", headers=agent())
    assert api.status_code == 422 and api.json()["errors"][0]["field"] == "limit"


def widened(web: Client) -> tuple[str, str]:
    """A widened question's id and its only participant link's secret."""
    assert web.put("/api/settings", json={"team": [{"name": "Bob"}]},
                   headers=agent()).status_code == 200
    iid = asked(web)
    reply = web.post(f"/api/interactions/{iid}/widen", json={}, headers=agent())
    assert reply.status_code == 201, reply.text
    return iid, str(reply.json()["participants"][0]["link"].rsplit("/d/", 1)[1])


def test_too_many_comments_is_a_429_page_that_says_when_to_try_again(web: Client) -> None:
    _iid, secret = widened(web)
    for number in range(20):
        assert web.post(f"/d/{secret}/comment", content=f"text=point+{number}",
                        headers=FORM, follow_redirects=False).status_code == 303
    page = web.post(f"/d/{secret}/comment", content="text=one+more", headers=FORM)
    assert page.status_code == 429 and is_page(page)
    assert page.headers["retry-after"].isdigit() and "Too many comments in a minute" in page.text
    api = web.post(f"/api/d/{secret}/comments", json={"text": "one more"})
    assert api.status_code == 429 and api.json()["errors"][0]["code"] == "rate_limited"
    assert api.headers["retry-after"].isdigit()


def test_the_owners_429_page_says_when_to_try_again_too(web: Client) -> None:
    iid, _secret = widened(web)
    for number in range(20):
        assert web.post(f"/choice/{iid}/comment", content=f"text=point+{number}",
                        headers={**owner(web), **FORM},
                        follow_redirects=False).status_code == 303
    post = web.post(f"/choice/{iid}/comment", content="text=one+more",
                    headers={**owner(web), **FORM}, follow_redirects=False)
    assert post.status_code == 303 and post.headers["retry-after"].isdigit()
    page = web.get(post.headers["location"], headers=owner(web))
    assert page.status_code == 429 and is_page(page)
    swap = web.post(f"/choice/{iid}/comment", content="text=one+more",
                    headers={**owner(web), **FORM, **HTMX})
    assert swap.status_code == 429 and swap.headers["retry-after"].isdigit()
    api = web.post(f"/api/interactions/{iid}/comments", json={"text": "one more"},
                   headers=agent())
    assert api.status_code == 429 and api.headers["retry-after"].isdigit()


def test_a_participants_error_page_leads_back_to_their_discussion_only(web: Client) -> None:
    _iid, secret = widened(web)
    page = web.post(f"/d/{secret}/comment?lang=zh", content=TOO_BIG, headers=FORM)
    assert page.status_code == 413 and is_page(page)
    assert shown(page.text) == {
        "lang": "zh", "title": "一次发送的内容太多",
        "detail": "门户每次请求最多接受 256 KiB。没有保存任何内容：请返回，缩短文字后再发送。",
        "back": f"/d/{secret}?lang=zh", "back_text": "返回讨论"}
    assert re.findall(r'<a [^>]*href="([^"]*)"', page.text) == [f"/d/{secret}?lang=zh"]
    gone = web.get(f"/d/{secret}/nonsense")
    assert gone.status_code == 404 and 'data-testid="link-gone"' in gone.text
    assert "<a " not in gone.text
    api = web.post(f"/api/d/{secret}/comments", content=TOO_BIG,
                   headers={"Content-Type": "application/json"})
    assert api.status_code == 413 and api.json()["errors"][0]["code"] == "too_large"


def test_an_unexpected_error_is_a_500_page_with_no_traceback(
        web: Client, caplog: pytest.LogCaptureFixture) -> None:
    iid = asked(web)
    database = Settings.from_env().data_dir / "choice.db"
    with sqlite3.connect(database) as db:  # a damaged row: the question cannot be read
        db.execute("UPDATE interaction SET request_json = '{' WHERE id = ?", (iid,))
    with caplog.at_level(logging.ERROR, logger="choice.web"):
        page = web.get(f"/choice/{iid}", headers=owner(web))
    assert page.status_code == 500 and is_page(page)
    assert shown(page.text)["title"] == "Something went wrong on the portal"
    assert shown(page.text)["back"] == "/"
    assert "Traceback" not in page.text and "json_invalid" not in page.text
    assert nothing_for_agents(page.text)
    logged = [record for record in caplog.records if record.exc_info]
    assert logged and f"GET /choice/{iid}" in logged[0].getMessage()
    api = web.get(f"/api/interactions/{iid}/detail", headers=agent())
    assert api.status_code == 500 and api.json() == {"errors": [{
        "field": "server", "code": "internal",
        "message": "the portal hit an unexpected error: the details are in the portal's log."}]}
