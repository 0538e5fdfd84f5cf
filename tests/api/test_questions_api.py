"""Several questions over HTTP (docs/guides/several-questions.md): created, listed, answered
in one submission, refused per question, and the widening they cannot take."""

from __future__ import annotations

from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

pytestmark = pytest.mark.usefixtures("backend")  # on SQLite and on PostgreSQL

Client = TestClient[Litestar]

QUESTIONS: list[dict[str, Any]] = [
    {"id": "db", "header": "Database", "prompt": "Which database?",
     "options": [{"id": "pg", "label": "PostgreSQL"}, {"id": "lite", "label": "SQLite"}]},
    {"id": "name", "header": "Name", "prompt": "What do we call it?",
     "selection_mode": "text_input"},
]


def created(client: Client) -> str:
    response = client.post("/api/interactions", json={"title": "New service",
                                                       "questions": QUESTIONS})
    assert response.status_code == 201, response.text
    return str(response.json()["interaction_id"])


def test_several_questions_are_answered_in_one_submission(client: Client) -> None:
    iid = created(client)
    listed = client.get("/api/interactions").json()["interactions"]
    assert [i["selection_mode"] for i in listed if i["interaction_id"] == iid] == ["questions"]
    answer = client.post(f"/api/interactions/{iid}/response", json={"answers": {
        "db": {"selected_ids": ["pg"]}, "name": {"custom_input": "billing"}}})
    assert answer.status_code == 200, answer.text
    result = client.get(f"/api/interactions/{iid}").json()
    assert result["status"] == "submitted"
    assert result["answers"]["db"]["selected_labels"] == ["PostgreSQL"]
    assert result["answers"]["name"]["custom_input"] == "billing"
    assert result["summary"].splitlines()[0] == 'Database: Selected "PostgreSQL" (pg).'
    events = client.get(f"/api/interactions/{iid}/events").json()["events"]
    answered = [e for e in events if e["kind"] == "answered"]
    assert answered[0]["detail"]["answers"]["db"]["selected_ids"] == ["pg"]


def test_a_bad_answer_names_its_question_and_changes_nothing(client: Client) -> None:
    iid = created(client)
    bad = client.post(f"/api/interactions/{iid}/response",
                      json={"answers": {"db": {"selected_ids": ["mysql"]}}})
    assert bad.status_code == 422
    fields = {e["field"] for e in bad.json()["errors"]}
    assert fields == {"answers.db.selected_ids[0]",  # and not also too few
                      "answers.name.custom_input"}
    assert client.get(f"/api/interactions/{iid}").json()["status"] == "pending"


def test_a_bad_request_names_the_question(client: Client) -> None:
    broken = [dict(QUESTIONS[0], options=[]), QUESTIONS[1]]
    response = client.post("/api/interactions", json={"title": "t", "questions": broken})
    assert response.status_code == 422
    assert [e["field"] for e in response.json()["errors"]] == ["questions[0].options"]


def test_several_questions_cannot_be_widened(client: Client) -> None:
    client.put("/api/settings", json={"team": [{"name": "Ana"}]})
    iid = created(client)
    response = client.post(f"/api/interactions/{iid}/widen", json={})
    assert response.status_code == 422
    assert response.json()["errors"][0]["code"] == "not_widenable"
    assert client.get(f"/api/interactions/{iid}").json()["status"] == "pending"
