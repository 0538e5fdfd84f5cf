"""Option visibility on the web (docs/guides/browser.md#options-you-do-not-want-to-see): the
page folds the options whose labels the person hid under "N hidden options" (never a picked
one, never all), and `POST /choice/{id}/hidden-options` remembers what one question hides,
by label, keeping the labels other questions hid."""

from __future__ import annotations

import re
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from tests.api.conftest import token
from tests.api.test_web import FORM, agent_headers, create_as_agent

Client = TestClient[Litestar]
THREE = [{"id": "pg", "label": "PostgreSQL"}, {"id": "lite", "label": "SQLite"},
         {"id": "duck", "label": "DuckDB"}]


@pytest.fixture
def browser(client: Client) -> Client:
    response = client.get(f"/login?token={token()}&next=/", follow_redirects=False)
    assert response.status_code == 303
    del client.headers["Authorization"]
    return client


def saved(client: Client, app: Litestar) -> list[str]:
    labels: list[str] = client.get("/api/settings", headers=agent_headers(app)).json()[
        "hidden_options"]
    return labels


def folded(page: str) -> tuple[list[str], list[str]]:
    """(shown option ids, folded option ids) in the page's order."""
    shown_part, _, fold = page.partition('data-testid="hidden-options"')
    ids = re.compile(r'data-testid="option" data-option-id="([^"]+)"')
    return ids.findall(shown_part), ids.findall(fold)


def hide(client: Client, iid: str, *ids: str, question: str = "") -> Any:
    body = "&".join([f"question={question}"] * bool(question) + [f"hidden={i}" for i in ids])
    return client.post(f"/choice/{iid}/hidden-options", content=body, headers=FORM)


def test_what_one_question_hides_is_remembered_by_label_and_folds_the_next(
        browser: Client, app: Litestar) -> None:
    browser.put("/api/settings", json={"hidden_options": ["Elsewhere"]},
                headers=agent_headers(app))
    first = create_as_agent(browser, app, options=THREE)
    assert hide(browser, first, "lite").status_code == 204
    assert saved(browser, app) == ["Elsewhere", "SQLite"]
    later = create_as_agent(browser, app, options=THREE)
    page = browser.get(f"/choice/{later}").text
    assert folded(page) == (["pg", "duck"], ["lite"])
    assert "1 hidden option" in page
    assert hide(browser, later).status_code == 204  # "Show them all again"
    assert saved(browser, app) == ["Elsewhere"]
    assert folded(browser.get(f"/choice/{later}").text) == (["pg", "lite", "duck"], [])


def test_a_default_pick_is_never_folded_and_neither_is_every_option(
        browser: Client, app: Litestar) -> None:
    browser.put("/api/settings", json={"hidden_options": ["sqlite", "PostgreSQL"]},
                headers=agent_headers(app))
    picked = create_as_agent(browser, app, options=THREE, default_selection_ids=["lite"])
    assert folded(browser.get(f"/choice/{picked}").text) == (["lite", "duck"], ["pg"])
    browser.put("/api/settings", json={"hidden_options": ["PostgreSQL", "SQLite"]},
                headers=agent_headers(app))
    two = create_as_agent(browser, app)  # PostgreSQL and SQLite only: both would hide
    assert folded(browser.get(f"/choice/{two}").text) == (["pg", "lite"], [])
    browser.put("/api/settings", json={"hidden_options": []}, headers=agent_headers(app))


def test_several_questions_fold_each_one_and_name_the_question_they_hide_in(
        browser: Client, app: Litestar) -> None:
    questions = [{"id": "store", "prompt": "Which store?", "options": THREE},
                 {"id": "cache", "prompt": "Which cache?",
                  "options": [{"id": "redis", "label": "Redis"}, {"id": "none", "label": "None"}]}]
    reply = browser.post("/api/interactions", json={"title": "Stores", "questions": questions},
                         headers=agent_headers(app))
    assert reply.status_code == 201, reply.text
    iid = reply.json()["interaction_id"]
    assert hide(browser, iid, "redis", question="cache").status_code == 204
    assert saved(browser, app) == ["Redis"]
    page = browser.get(f"/choice/{iid}").text
    cache = page[page.index('data-question-id="cache"'):]
    assert folded(cache) == (["none"], ["redis"])
    hide(browser, iid, question="cache")


@pytest.mark.parametrize(("body", "field"), [
    ("question=nope&hidden=lite", "question"), ("hidden=mysql", "hidden")])
def test_an_unknown_question_or_option_is_refused_and_saves_nothing(
        browser: Client, app: Litestar, body: str, field: str) -> None:
    iid = create_as_agent(browser, app, options=THREE)
    before = saved(browser, app)
    reply = browser.post(f"/choice/{iid}/hidden-options", content=body, headers=FORM)
    assert reply.status_code == 422 and reply.text.startswith(f"{field}:")
    assert saved(browser, app) == before


def test_without_a_session_nothing_is_hidden(anonymous: Client, app: Litestar) -> None:
    iid = create_as_agent(anonymous, app, options=THREE)
    reply = anonymous.post(f"/choice/{iid}/hidden-options", content="hidden=lite", headers=FORM)
    assert reply.status_code in (401, 403)
    assert saved(anonymous, app) == []
