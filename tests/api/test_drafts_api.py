"""`GET/PUT/DELETE /api/interactions/{id}/draft` on both stores: a draft survives, is
bounded, ends with its question, and never becomes an answer."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from choice.core.service import InteractionService
from choice.portal import create_app
from choice.store.drafts import load_draft
from tests.api.conftest import BASE_URL, ask, token

pytestmark = pytest.mark.usefixtures("backend")
Client = TestClient[Litestar]


class Clock:
    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(clock: Clock) -> Litestar:
    return create_app(clock=clock)


@pytest.fixture
def client(app: Litestar) -> Iterator[Client]:
    with TestClient(app, base_url=BASE_URL) as test_client:
        test_client.headers["Authorization"] = f"Bearer {token()}"
        yield test_client


def service_of(app: Litestar) -> InteractionService:
    found: InteractionService = app.dependencies["service"].dependency()
    return found


def create(client: Client, **overrides: Any) -> str:
    response = client.post("/api/interactions", json=ask(**overrides))
    assert response.status_code == 201, response.text
    return str(response.json()["interaction_id"])


DRAFT = {"selected_ids": ["lite"], "custom_input": "half a thought",
         "option_annotations": {"lite": "small"}, "global_annotation": "so far",
         "cancel_reason": "maybe not"}


def test_a_draft_round_trips_and_is_deleted(client: Client) -> None:
    iid = create(client)
    assert client.get(f"/api/interactions/{iid}/draft").json() == {"draft": None}
    saved = client.put(f"/api/interactions/{iid}/draft", json={**DRAFT, "interface": "terminal"})
    assert saved.status_code == 200, saved.text
    got = client.get(f"/api/interactions/{iid}/draft").json()
    assert got["draft"] == DRAFT and got["interface"] == "terminal"
    assert client.delete(f"/api/interactions/{iid}/draft").status_code == 204
    assert client.get(f"/api/interactions/{iid}/draft").json() == {"draft": None}
    assert client.get(f"/api/interactions/{iid}").json()["status"] == "pending"  # not an answer


def test_several_questions_and_unknown_option_ids_are_kept(client: Client) -> None:
    iid = create(client)
    draft = {"answers": {"q1": {"selected_ids": ["gone"], "custom_input": "x"}}}
    assert client.put(f"/api/interactions/{iid}/draft", json=draft).status_code == 200
    assert client.get(f"/api/interactions/{iid}/draft").json()["draft"] == draft


@pytest.mark.parametrize(("body", "field"), [
    ({"custom_input": "x" * 20_001}, "custom_input"),
    ({"global_annotation": "x" * 5_001}, "global_annotation"),
    ({"cancel_reason": "x" * 5_001}, "cancel_reason"),
    ({"selected_ids": [str(n) for n in range(51)]}, "selected_ids"),
    ({"answers": {str(n): {} for n in range(11)}}, "answers"),
    ({"confirmed": True}, "confirmed"),
])
def test_a_draft_out_of_bounds_is_refused_and_changes_nothing(
        client: Client, body: dict[str, Any], field: str) -> None:
    iid = create(client)
    client.put(f"/api/interactions/{iid}/draft", json=DRAFT)
    response = client.put(f"/api/interactions/{iid}/draft", json=body)
    assert response.status_code in (400, 422), response.text
    assert field in response.text
    assert client.get(f"/api/interactions/{iid}/draft").json()["draft"] == DRAFT


def test_an_unknown_question_is_404(client: Client) -> None:
    assert client.get("/api/interactions/nope/draft").status_code == 404
    assert client.put("/api/interactions/nope/draft", json=DRAFT).status_code == 404


@pytest.mark.parametrize("ending", ["answer", "cancel"])
def test_the_end_of_the_question_clears_its_draft_and_refuses_new_ones(
        client: Client, app: Litestar, ending: str) -> None:
    iid = create(client)
    assert client.put(f"/api/interactions/{iid}/draft", json=DRAFT).status_code == 200
    if ending == "answer":
        done = client.post(f"/api/interactions/{iid}/response", json={"selected_ids": ["pg"]})
        assert done.json()["selected_ids"] == ["pg"]
    else:
        done = client.post(f"/api/interactions/{iid}/cancel")
        assert done.json()["action_status"] == "cancelled"
    assert client.put(f"/api/interactions/{iid}/draft", json=DRAFT).status_code == 409
    assert client.get(f"/api/interactions/{iid}/draft").json() == {"draft": None}
    service = service_of(app)
    assert load_draft(service.store.repo, iid) is None


def test_submit_defaults_submits_the_defaults_not_the_draft(
        client: Client, app: Litestar, clock: Clock) -> None:
    iid = create(client, timeout_seconds=10, on_timeout="submit_defaults",
                 default_selection_ids=["pg"])
    assert client.put(f"/api/interactions/{iid}/draft", json=DRAFT).status_code == 200
    clock.offset = 11
    service = service_of(app)
    service.deadlines.recheck()
    result = client.get(f"/api/interactions/{iid}", params={"wait": 5}).json()
    assert result["status"] == "auto_submitted"
    assert (result["selected_ids"], result["submission"], result["defaults_used"]) == (
        ["pg"], "timeout_default", True)
    assert result["custom_input"] is None and result["global_annotation"] is None
    assert load_draft(service.store.repo, iid) is None


def test_writes_are_coalesced_to_one_a_second_and_the_latest_wins(
        client: Client, app: Litestar) -> None:
    iid = create(client)
    service = service_of(app)

    def stored() -> str | None:
        found = load_draft(service.store.repo, iid)
        return None if found is None else found.draft_json.get("custom_input")

    client.put(f"/api/interactions/{iid}/draft", json={"custom_input": "one"})
    client.put(f"/api/interactions/{iid}/draft", json={"custom_input": "two"})
    client.put(f"/api/interactions/{iid}/draft", json={"custom_input": "three"})
    assert stored() == "one"  # the first is written, the next two are held
    assert client.get(f"/api/interactions/{iid}/draft").json()["draft"] == {
        "custom_input": "three"}
    deadline = time.monotonic() + 5
    while stored() != "three" and time.monotonic() < deadline:
        time.sleep(0.05)  # polling the stored row (bounded), not waiting for a time
    assert stored() == "three"


def test_a_foreign_origin_cannot_write_a_draft(client: Client) -> None:
    iid = create(client)
    response = client.put(f"/api/interactions/{iid}/draft", json=DRAFT,
                          headers={"Origin": "http://evil.example"})
    assert response.status_code == 403
    assert client.get(f"/api/interactions/{iid}/draft").json() == {"draft": None}
