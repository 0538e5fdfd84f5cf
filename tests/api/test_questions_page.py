"""The web page for several questions without a browser: the server's render (a section
per question, its chip, the progress), a plain no-JS POST through the review step to the
result, and each question's errors shown next to it."""

from __future__ import annotations

import re
from html import unescape as html_unescape
from typing import Any
from urllib.parse import urlencode

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from tests.api.conftest import token

Client = TestClient[Litestar]
FORM = {"Content-Type": "application/x-www-form-urlencoded"}

QUESTIONS: list[dict[str, Any]] = [
    {"id": "db", "header": "Database", "prompt": "Which **database**?",
     "options": [{"id": "pg", "label": "PostgreSQL"}, {"id": "lite", "label": "SQLite"}],
     "default_selection_ids": ["pg"]},
    {"id": "extras", "header": "Extras", "prompt": "Which extras?", "selection_mode": "multi",
     "options": [{"id": "cache", "label": "Cache"}, {"id": "queue", "label": "Queue"},
                 {"id": "search", "label": "Search <b>"}]},
    {"id": "name", "header": "Name", "prompt": "What do we call it?",
     "selection_mode": "text_input", "placeholder": "billing"},
]


@pytest.fixture
def browser(client: Client, app: Litestar) -> Client:
    """Signed in like a browser (the session cookie), without the bearer token."""
    response = client.get(f"/login?token={token()}&next=/", follow_redirects=False)
    assert response.status_code == 303
    del client.headers["Authorization"]
    return client


def created(client: Client, **overrides: Any) -> str:
    body = {"title": "New service", "prompt": "Context for <all> of them.",
            "questions": QUESTIONS, "allow_annotations": True, **overrides}
    response = client.post("/api/interactions", json=body,
                           headers={"Authorization": f"Bearer {token()}"})
    assert response.status_code == 201, response.text
    return str(response.json()["interaction_id"])


def posted(client: Client, iid: str, pairs: list[tuple[str, str]]) -> Any:
    """The page's own form post, fields in order (a name may repeat)."""
    return client.post(f"/choice/{iid}/submit", content=urlencode(pairs), headers=FORM,
                       follow_redirects=False)


def landed(client: Client, iid: str, post: Any) -> Any:
    """Where a post that did not end the question sends the browser: the question's own page
    (303), which shows what the post showed and shows it again on a reload."""
    assert post.status_code == 303, post.text
    target = post.headers["location"]
    assert target.startswith(f"/choice/{iid}?shown="), target
    page = client.get(target)
    again = client.get(target)
    assert again.status_code == page.status_code and form_of(again.text) == form_of(page.text)
    return page


def form_of(html: str) -> str:
    """The answer's form as the page shows it (the countdown outside it ticks meanwhile)."""
    found = re.search(r'<form id="choice-form".*?</form>', html, re.S)
    assert found, "no answer form on the page"
    return found.group(0)


def sections(html: str) -> list[str]:
    return re.findall(r'data-testid="question" data-question="\d+" data-question-id="([^"]+)"', html)


def test_each_question_is_a_section_with_its_chip_and_the_progress(browser: Client) -> None:
    iid = created(browser)
    html = browser.get(f"/choice/{iid}").text
    assert sections(html) == ["db", "extras", "name"]
    assert re.findall(r'data-testid="question-chip" data-question="\d">\s*<span[^>]*></span>'
                      r"([^<]+)</a>", html) == ["Database", "Extras", "Name"]
    # the default of the first question counts as its answer
    assert '<p class="progress-text" aria-live="polite" data-testid="progress-text">' \
           "1 of 3 answered</p>" in html
    assert "<strong>database</strong>" in html  # the same safe Markdown as one question
    assert "Search &lt;b&gt;" in html and "Context for &lt;all&gt;" in html
    assert 'name="q.db.selected" value="pg" id="q-1-opt-1" checked' in html
    assert 'name="q.extras.note.cache"' in html and 'name="q.name.custom_input"' in html
    assert 'placeholder="billing"' in html
    assert 'data-testid="widen-open"' not in html  # several questions cannot be widened
    listed = browser.get("/partials/interactions").text
    assert 'data-testid="questions-badge">3 questions</span>' in listed


def test_a_plain_post_goes_through_the_review_to_the_agents_result(browser: Client) -> None:
    iid = created(browser)
    answer = [("q.db.selected", "lite"), ("q.extras.selected", "cache"),
              ("q.extras.selected", "search"), ("q.extras.note.cache", "a small one"),
              ("q.name.custom_input", "billing\r\nservice"), ("global_annotation", "thanks")]
    review = landed(browser, iid, posted(browser, iid, [*answer, ("action", "submit")]))
    assert review.status_code == 200
    html = review.text
    assert 'data-testid="review"' in html and 'data-testid="confirm"' in html
    rows = re.findall(r'data-testid="review-question" data-question-id="(\w+)" '
                      r'data-state="(\w+)"', html)
    assert rows == [("db", "answered"), ("extras", "answered"), ("name", "answered")]
    assert re.findall(r'data-testid="review-choice">([^<]+)<', html) == [
        "SQLite", "Cache", "Search &lt;b&gt;"]
    assert 'review-note">a small one<' in html
    assert browser.get(f"/api/interactions/{iid}",
                       headers={"Authorization": f"Bearer {token()}"}).json()["status"] == "pending"
    hidden = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', html)
    confirmed = posted(browser, iid, [(name, html_unescape(value)) for name, value in hidden]
                       + [("action", "confirm")])
    assert confirmed.status_code == 303
    result = browser.get(f"/api/interactions/{iid}",
                         headers={"Authorization": f"Bearer {token()}"}).json()
    assert result["status"] == "submitted"
    assert result["answers"]["db"]["selected_ids"] == ["lite"]
    assert result["answers"]["extras"]["selected_ids"] == ["cache", "search"]
    assert result["answers"]["extras"]["option_annotations"] == {"cache": "a small one"}
    assert result["answers"]["name"]["custom_input"] == "billing\nservice"
    assert result["global_annotation"] == "thanks"
    outcome = browser.get(f"/choice/{iid}").text
    states = re.findall(r'data-testid="outcome-answer" data-question-id="(\w+)" '
                        r'data-state="(\w+)"', outcome)
    assert states == [("db", "answered"), ("extras", "answered"), ("name", "answered")]
    assert 'data-testid="outcome-labels">Cache, Search &lt;b&gt;</span>' in outcome


def test_a_question_left_to_answer_is_named_in_the_review_with_a_way_back(browser: Client) -> None:
    iid = created(browser)
    review = browser.post(f"/choice/{iid}/submit", headers=FORM,
                          data={"q.db.selected": "pg", "action": "review"})
    assert review.status_code == 422
    html = review.text
    assert 'data-testid="review-missing"' in html and "2 questions still need an answer." in html
    assert "Type an answer" in html and "Choose at least 1 option" in html
    assert re.search(r'data-question-id="db" data-state="defaults"', html)
    assert re.search(r'data-question-id="extras" data-state="missing"', html)
    assert re.search(r'data-question-id="name" data-state="missing"', html)
    assert 'value="back:name"' in html
    assert re.search(r'data-testid="confirm" disabled', html)
    back = browser.post(f"/choice/{iid}/submit", headers=FORM,
                        data={"q.db.selected": "pg", "action": "back:name"})
    assert back.status_code == 200
    assert re.search(r'id="q-3-text" name="q.name.custom_input"[^>]*autofocus', back.text)


def test_a_refused_submission_shows_each_error_next_to_its_question(browser: Client) -> None:
    iid = created(browser)
    refused = landed(browser, iid, posted(browser, iid, [
        ("q.db.selected", "mysql"), ("q.extras.selected", "cache"),
        ("q.name.custom_input", "x"), ("action", "confirm")]))
    assert refused.status_code == 422
    html = refused.text
    db = html[html.index('data-question-id="db"'):html.index('data-question-id="extras"')]
    # in a person's words, not the API's ("'mysql' is not an option of this question: ...")
    assert 'data-testid="question-errors"' in db and "no longer offered" in db
    assert "is not an option" not in html
    extras = html[html.index('data-question-id="extras"'):html.index('data-question-id="name"')]
    assert 'data-testid="question-errors"' not in extras
    assert 'name="q.name.custom_input"' in html and ">x</textarea>" in html  # kept as typed
    assert '<a href="#q-1">Database</a>' in html  # the summary on top links to it
