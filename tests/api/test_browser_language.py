"""A portal nobody set a language on speaks the browser's: `Accept-Language` picks English or
Chinese for the owner's pages, a participant's page and the sign-in page. Whoever chose a
language wins over the browser: the agent's `language`, the saved setting, `CHOICE_LANG`,
a participant's `?lang=`; and the settings page can go back to following the browser."""

from __future__ import annotations

import re

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from choice.portal import create_app
from choice.web.views.browser_language import browser_language
from tests.api.conftest import BASE_URL, agent, ask, token

Client = TestClient[Litestar]
CHINESE = {"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.8"}
ENGLISH = {"Accept-Language": "en-US,en;q=0.9"}


def lang_of(html: str) -> str:
    found = re.search(r'<html lang="([^"]+)"', html)
    assert found, "no <html lang> on the page"
    return found.group(1)


@pytest.fixture
def web(anonymous: Client) -> Client:
    response = anonymous.get(f"/login?token={token()}&next=/", follow_redirects=False)
    assert response.status_code == 303
    return anonymous


def question(web: Client, **overrides: object) -> str:
    created = web.post("/api/interactions", json=ask(**overrides), headers=agent())
    assert created.status_code == 201, created.text
    return str(created.json()["interaction_id"])


def test_a_chinese_browser_gets_chinese_pages_when_nobody_chose_a_language(web: Client) -> None:
    iid = question(web)
    page = web.get(f"/choice/{iid}", headers=CHINESE).text
    assert lang_of(page) == "zh"
    assert "提交" in page  # the submit button, from the catalog
    assert lang_of(web.get("/", headers=CHINESE).text) == "zh"
    assert lang_of(web.get("/settings", headers=CHINESE).text) == "zh"
    assert lang_of(web.get(f"/choice/{iid}", headers=ENGLISH).text) == "en"
    assert lang_of(web.get(f"/choice/{iid}").text) == "en"  # no header: English


def test_the_sign_in_page_follows_the_browser(anonymous: Client) -> None:
    page = anonymous.get("/login", headers=CHINESE)
    assert lang_of(page.text) == "zh"


def test_the_agents_language_and_the_saved_setting_win_over_the_browser(web: Client) -> None:
    english_question = question(web, language="en")
    assert lang_of(web.get(f"/choice/{english_question}", headers=CHINESE).text) == "en"
    iid = question(web)
    assert web.put("/api/settings", json={"language": "en"}, headers=agent()).status_code == 200
    assert lang_of(web.get(f"/choice/{iid}", headers=CHINESE).text) == "en"


def test_choice_lang_wins_over_the_browser(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHOICE_LANG", "en")
    with TestClient(create_app(), base_url=BASE_URL) as client:
        assert lang_of(client.get("/login", headers=CHINESE).text) == "en"


def test_the_settings_form_goes_back_to_following_the_browser(web: Client) -> None:
    assert web.put("/api/settings", json={"language": "en"}, headers=agent()).status_code == 200
    settings = web.get("/settings", headers=CHINESE).text
    assert lang_of(settings) == "en"
    assert re.search(r'<option value="en" selected>', settings)
    saved = web.post("/settings", data={"language": "", "next": "/settings"}, headers=CHINESE,
                     follow_redirects=False)
    assert saved.status_code == 303
    assert web.get("/api/settings", headers=agent()).json()["language"] is None
    settings = web.get("/settings", headers=CHINESE).text
    assert lang_of(settings) == "zh"
    assert re.search(r'<option value="" selected>', settings)


def test_a_form_without_the_language_field_leaves_the_saved_language_alone(web: Client) -> None:
    assert web.put("/api/settings", json={"language": "zh"}, headers=agent()).status_code == 200
    web.post("/settings", data={"interface": "web", "next": "/settings"}, follow_redirects=False)
    assert web.get("/api/settings", headers=agent()).json()["language"] == "zh"


def test_a_participant_page_follows_the_browser_and_lang_wins(web: Client) -> None:
    assert web.put("/api/settings", json={"team": [{"name": "Wang"}]},
                   headers=agent()).status_code == 200
    iid = question(web, timeout_seconds=3600)
    reply = web.post(f"/api/interactions/{iid}/widen", json={}, headers=agent())
    assert reply.status_code == 201, reply.text
    link = reply.json()["participants"][0]["link"].rsplit("/d/", 1)[1]
    assert lang_of(web.get(f"/d/{link}", headers=CHINESE).text) == "zh"
    assert lang_of(web.get(f"/d/{link}?lang=en", headers=CHINESE).text) == "en"
    assert lang_of(web.get(f"/d/{link}", headers=ENGLISH).text) == "en"


@pytest.mark.parametrize(("header", "language"), [
    ("zh-CN,zh;q=0.9,en;q=0.8", "zh"),
    ("en-GB,en;q=0.9,zh;q=0.8", "en"),
    ("fr-FR,fr;q=0.9,zh-TW;q=0.5", "zh"),
    ("en;q=0.5, zh;q=0.7", "zh"),
    ("ZH-hans", "zh"),
    ("zh;q=0, en;q=0.1", "en"),
    ("fr", None),
    ("*", None),
    ("", None),
    ("zh;q=abc, en;q=2", None),
    (",,;;=,zh", "zh"),
])
def test_the_header_is_read_by_quality_then_order(header: str, language: str | None) -> None:
    assert browser_language({"accept-language": header}) == language
