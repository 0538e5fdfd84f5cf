"""A participant's page, rendered without a browser: a long deadline as its date and time
("due tomorrow 14:05", 明天 first in Chinese), and an option's rationale in Markdown with a label of
its own (no "理由：  " double gap, no synthetic italic)."""

from __future__ import annotations

import re

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from tests.api.conftest import ask
from tests.api.test_team_pages import TEAM, agent

Client = TestClient[Litestar]


@pytest.fixture
def web(anonymous: Client) -> Client:
    assert anonymous.put("/api/settings", json={"team": TEAM}, headers=agent()).status_code == 200
    return anonymous


def participant_page(web: Client, lang: str = "en") -> str:
    body = ask(timeout_seconds=86_400, options=[
        {"id": "pg", "label": "PostgreSQL", "rationale": "Fits the **3-replica** deployment."},
        {"id": "lite", "label": "SQLite"}])
    iid = web.post("/api/interactions", json=body, headers=agent()).json()["interaction_id"]
    reply = web.post(f"/api/interactions/{iid}/widen", json={}, headers=agent())
    secret = reply.json()["participants"][0]["link"].rsplit("/d/", 1)[1]
    page = web.get(f"/d/{secret}?lang={lang}")
    assert page.status_code == 200
    return str(page.text)


def test_a_day_long_deadline_is_shown_as_its_date_and_time_not_a_clock(web: Client) -> None:
    page = participant_page(web)
    shown = re.search(r'data-testid="countdown-text">([^<]*)<', page)
    assert shown is not None and re.fullmatch(r"due tomorrow \d\d:\d\d", shown[1]), shown
    assert 'data-testid="countdown-clock"' not in page


def test_chinese_says_the_day_and_time_before_the_deadline_word(web: Client) -> None:
    page = participant_page(web, "zh")
    shown = re.search(r'data-testid="countdown-text">([^<]*)<', page)
    assert shown is not None and re.fullmatch(r"明天 \d\d:\d\d 截止", shown[1]), shown


def test_an_options_rationale_is_markdown_under_a_label_of_its_own(web: Client) -> None:
    page = participant_page(web, "zh")
    assert '<span class="vote-rationale-label">理由</span>' in page
    assert "Fits the <strong>3-replica</strong> deployment." in page
    assert "理由： " not in page


def test_a_hitl_question_is_shown_once_on_the_participants_page(web: Client) -> None:
    made = web.post("/api/interactions?shape=hitl_request", headers=agent(), json={
        "question": "Deploy to production now?",
        "options": [{"id": "deploy", "label": "Deploy"}, {"id": "wait", "label": "Wait"}]})
    assert made.status_code == 201, made.text
    iid = made.json()["interaction_id"]
    reply = web.post(f"/api/interactions/{iid}/widen", json={}, headers=agent())
    secret = reply.json()["participants"][0]["link"].rsplit("/d/", 1)[1]
    page = web.get(f"/d/{secret}").text
    assert page.count("Deploy to production now?") == 2  # the <title> and the heading
    assert 'data-testid="prompt"' not in page
    assert 'data-testid="prompt"' in participant_page(web)  # a prompt that says more stays
