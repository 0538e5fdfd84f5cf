"""The JSON API (docs/reference/contract.md): create, poll, list, events, response, cancel,
deadline."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from choice.core.config import Settings
from choice.portal import create_app
from tests.api.conftest import BASE_URL, ask, token

pytestmark = pytest.mark.usefixtures("backend")  # on SQLite and on PostgreSQL

Client = TestClient[Litestar]


def create(client: Client, **overrides: Any) -> dict[str, Any]:
    response = client.post("/api/interactions", json=ask(**overrides))
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def test_create_returns_where_to_answer_and_how_to_poll(client: Client) -> None:
    body = create(client)
    assert body["status"] == "pending"
    assert body["url"] == f"http://127.0.0.1:8765/choice/{body['interaction_id']}"
    assert body["terminal_command"].endswith(f"choice answer {body['interaction_id']}")
    assert body["session_id"] == body["interaction_id"]
    assert "Poll GET" in body["instructions"]
    assert body["expires_at"].endswith("Z")


def test_create_with_wait_returns_pending_when_nobody_answers(client: Client) -> None:
    response = client.post("/api/interactions?wait=0.2", json=ask())
    assert response.status_code == 201
    assert response.json()["status"] == "pending"


def test_poll_returns_the_result_after_a_response(client: Client) -> None:
    created = create(client)
    iid = created["interaction_id"]
    answer = client.post(f"/api/interactions/{iid}/response", json={"selected_ids": ["lite"]})
    assert answer.status_code == 200
    polled = client.get(f"/api/interactions/{iid}?wait=5").json()
    assert polled["status"] == "submitted"
    assert polled["action_status"] == "selected"
    assert polled["selected_ids"] == ["lite"]
    assert polled["selected_labels"] == ["SQLite"]
    assert polled["interface"] == "web"


def test_poll_without_wait_reports_pending(client: Client) -> None:
    iid = create(client)["interaction_id"]
    assert client.get(f"/api/interactions/{iid}").json()["status"] == "pending"


def test_second_response_is_409_and_keeps_the_first(client: Client) -> None:
    iid = create(client)["interaction_id"]
    client.post(f"/api/interactions/{iid}/response", json={"selected_ids": ["pg"]})
    second = client.post(f"/api/interactions/{iid}/response", json={"selected_ids": ["lite"]})
    assert second.status_code == 409
    assert second.json()["errors"][0]["code"] == "already_completed"
    assert second.json()["result"]["selected_ids"] == ["pg"]
    assert client.get(f"/api/interactions/{iid}").json()["selected_ids"] == ["pg"]


def test_cancel_after_answer_is_409(client: Client) -> None:
    iid = create(client)["interaction_id"]
    client.post(f"/api/interactions/{iid}/response", json={"selected_ids": ["pg"]})
    assert client.post(f"/api/interactions/{iid}/cancel").status_code == 409


def test_invalid_answer_is_422_and_changes_nothing(client: Client) -> None:
    iid = create(client)["interaction_id"]
    bad = client.post(f"/api/interactions/{iid}/response", json={"selected_ids": ["mysql"]})
    assert bad.status_code == 422
    assert bad.json()["errors"][0]["field"] == "selected_ids[0]"
    assert client.get(f"/api/interactions/{iid}").json()["status"] == "pending"
    kinds = [e["kind"] for e in client.get(f"/api/interactions/{iid}/events").json()["events"]]
    assert kinds == ["created"]


def test_an_unknown_option_id_is_the_only_error_of_its_answer(client: Client) -> None:
    iid = create(client)["interaction_id"]
    bad = client.post(f"/api/interactions/{iid}/response", json={"selected_ids": ["mysql"]})
    assert bad.status_code == 422
    assert [(e["field"], e["code"]) for e in bad.json()["errors"]] == [
        ("selected_ids[0]", "unknown_option")]


def test_cancel_with_a_note(client: Client) -> None:
    iid = create(client)["interaction_id"]
    response = client.post(f"/api/interactions/{iid}/cancel",
                           json={"global_annotation": "neither, use files"})
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "cancelled"
    assert body["action_status"] == "cancelled"
    assert body["selected_ids"] == []
    assert body["global_annotation"] == "neither, use files"


def test_cancel_without_a_body(client: Client) -> None:
    iid = create(client)["interaction_id"]
    assert client.post(f"/api/interactions/{iid}/cancel").json()["status"] == "cancelled"


def test_events_record_every_state_change(client: Client) -> None:
    iid = create(client, require_confirmation=True)["interaction_id"]
    client.patch(f"/api/interactions/{iid}", json={"timeout_seconds": 900})
    client.post(f"/api/interactions/{iid}/response", json={"selected_ids": ["pg"], "confirmed": True})
    events = client.get(f"/api/interactions/{iid}/events").json()["events"]
    assert [e["kind"] for e in events] == ["created", "deadline_changed", "answered", "confirmed"]
    assert events[0]["actor"] == "agent"
    assert events[2]["detail"]["selected_ids"] == ["pg"]


def test_deadline_patch_moves_the_deadline(client: Client) -> None:
    created = create(client, timeout_seconds=60)
    iid = created["interaction_id"]
    moved = client.patch(f"/api/interactions/{iid}", json={"timeout_seconds": 600})
    assert moved.status_code == 200
    assert moved.json()["expires_at"] > created["expires_at"]


def test_a_deadline_patch_from_the_terminal_is_audited_as_the_terminal_s(client: Client) -> None:
    """`choice answer` says where the person changed it, as its answers and cancels do; any
    other client's change is the API's (the "Use as default" offer ignores those)."""
    iid = create(client)["interaction_id"]
    assert client.patch(f"/api/interactions/{iid}",
                        json={"timeout_seconds": 900, "interface": "terminal"}).status_code == 200
    assert client.patch(f"/api/interactions/{iid}", json={"timeout_seconds": 1200}).status_code == 200
    refused = client.patch(f"/api/interactions/{iid}",
                           json={"timeout_seconds": 1500, "interface": "client"})
    assert refused.status_code in (400, 422) and "interface" in refused.text
    events = client.get(f"/api/interactions/{iid}/events").json()["events"]
    assert [e["actor"] for e in events if e["kind"] == "deadline_changed"] == \
        ["human:terminal", "human:api"]


def test_deadline_patch_in_the_past_is_422(client: Client) -> None:
    iid = create(client)["interaction_id"]
    response = client.patch(f"/api/interactions/{iid}", json={"expires_at": "2000-01-01T00:00:00Z"})
    assert response.status_code == 422
    assert response.json()["errors"][0]["code"] == "in_the_past"


def test_deadline_patch_needs_exactly_one_field(client: Client) -> None:
    iid = create(client)["interaction_id"]
    assert client.patch(f"/api/interactions/{iid}", json={}).json()["errors"][0]["code"] == "one_of"


def test_list_filters_active_and_completed(client: Client) -> None:
    done = create(client, title="done")["interaction_id"]
    create(client, title="open")
    client.post(f"/api/interactions/{done}/cancel")
    active = client.get("/api/interactions?status=active").json()["interactions"]
    completed = client.get("/api/interactions?status=completed").json()["interactions"]
    assert [row["title"] for row in active] == ["open"]
    assert [row["title"] for row in completed] == ["done"]
    assert len(client.get("/api/interactions").json()["interactions"]) == 2


def test_list_rows_say_how_many_questions_each_asks(client: Client) -> None:
    create(client, title="one")
    two = [{"id": "db", "prompt": "Which database?", "options": [
                {"id": "pg", "label": "PostgreSQL"}, {"id": "lite", "label": "SQLite"}]},
           {"id": "name", "prompt": "What do we call it?", "selection_mode": "text_input"}]
    several = client.post("/api/interactions", json={"title": "two", "questions": two})
    assert several.status_code == 201, several.text
    rows = client.get("/api/interactions").json()["interactions"]
    assert {row["title"]: row["question_count"] for row in rows} == {"one": 1, "two": 2}


def test_list_limit_out_of_range_is_422(client: Client) -> None:
    response = client.get("/api/interactions?limit=0")
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "limit"


def test_invalid_request_is_422_with_every_field_error(client: Client) -> None:
    response = client.post("/api/interactions", json=ask(title="", selection_mode="pick", bogus=1))
    assert response.status_code == 422
    fields = {e["field"]: e["code"] for e in response.json()["errors"]}
    assert fields == {"title": "too_short", "selection_mode": "invalid_choice", "bogus": "unknown_field"}
    assert client.get("/api/interactions").json()["interactions"] == []


def test_an_empty_title_and_impossible_bounds_are_refused_together(client: Client) -> None:
    response = client.post("/api/interactions", json=ask(title="", selection_mode="multi",
                                                         min_selections=3))
    assert response.status_code == 422
    fields = {e["field"]: e["code"] for e in response.json()["errors"]}
    assert fields == {"title": "too_short", "min_selections": "out_of_range"}


def test_cancel_disabling_fields_become_warnings(client: Client) -> None:
    body = create(client, allow_cancel=False)
    assert any("allow_cancel" in w for w in body["warnings"])


def test_compatibility_shapes_are_accepted(client: Client) -> None:
    hitl = client.post("/api/interactions", json={"question": "Delete the branch?",
                                                  "options": ["Yes", "No"], "confirm": True})
    assert hitl.status_code == 201, hitl.text
    choice = client.post("/api/interactions", json={
        "question": "Which layout?", "options": [{"title": "Grid", "description": "cards"}]})
    assert choice.status_code == 201, choice.text


def test_hitl_request_with_free_text_is_rejected(client: Client) -> None:
    response = client.post("/api/interactions", json={"question": "Why?", "options": ["a"],
                                                      "placeholder": "type here"})
    assert response.status_code == 422
    assert response.json()["errors"][0]["code"] == "free_text_not_allowed"


def test_compatibility_shapes_hear_of_their_own_fields_only(client: Client) -> None:
    empty = client.post("/api/interactions?shape=request_user_choice",
                        json={"question": "Which layout?", "options": []})
    assert empty.status_code == 422
    [error] = empty.json()["errors"]
    assert (error["field"], error["code"]) == ("options", "required")
    assert "selection_mode" not in error["message"] and "hybrid" not in error["message"]
    context = client.post("/api/interactions?shape=hitl_request", json={
        "question": "Delete the branch?", "prompt": "It is merged.", "options": ["Yes", "No"],
        "timeout_seconds": 5})
    assert context.status_code == 422
    found = {e["field"]: e for e in context.json()["errors"]}
    assert set(found) == {"prompt", "timeout_seconds"}
    assert "into question" in found["prompt"]["message"]
    assert client.get("/api/interactions").json()["interactions"] == []


def test_unknown_shape_parameter_is_422(client: Client) -> None:
    response = client.post("/api/interactions?shape=nope", json=ask())
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "shape"


def test_wait_above_60_seconds_is_422(client: Client) -> None:
    iid = create(client)["interaction_id"]
    response = client.get(f"/api/interactions/{iid}?wait=61")
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "wait"


def test_wait_that_is_not_a_number_is_422(client: Client) -> None:
    iid = create(client)["interaction_id"]
    response = client.get(f"/api/interactions/{iid}?wait=soon")
    assert response.status_code == 422
    assert "seconds" in response.json()["errors"][0]["message"]


def test_unknown_id_is_404(client: Client) -> None:
    for response in (client.get("/api/interactions/nope"),
                     client.post("/api/interactions/nope/response", json={"selected_ids": []}),
                     client.post("/api/interactions/nope/cancel"),
                     client.get("/api/interactions/nope/events"),
                     client.patch("/api/interactions/nope", json={"timeout_seconds": 60})):
        assert response.status_code == 404, response.text
        assert response.json()["errors"][0]["code"] == "not_found"


def test_oversized_body_is_413(client: Client) -> None:
    """256 KiB everywhere but the routes that take files (tests/api/test_attachments.py,
    tests/api/test_answer_files.py)."""
    iid = client.post("/api/interactions", json=ask()).json()["interaction_id"]
    response = client.post(f"/api/interactions/{iid}/cancel",
                           content=b"{" + b" " * 300_000 + b"}",
                           headers={"Content-Type": "application/json"})
    assert response.status_code == 413
    assert response.json()["errors"][0]["code"] == "too_large"


def test_the_413_names_the_limit_the_portal_runs_with() -> None:
    app = create_app(replace(Settings.from_env(), max_body_bytes=4096))
    with TestClient(app, base_url=BASE_URL) as small:
        small.headers["Authorization"] = f"Bearer {token()}"
        response = small.put("/api/settings", content=b"{" + b" " * 5000 + b"}",
                             headers={"Content-Type": "application/json"})
    assert response.status_code == 413
    assert "keep it under 4 KiB" in response.json()["errors"][0]["message"]


def test_body_that_is_not_json_is_refused(client: Client) -> None:
    form = client.post("/api/interactions", content=b"title=x",
                       headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert form.status_code == 415
    broken = client.post("/api/interactions", content=b"{nope",
                         headers={"Content-Type": "application/json"})
    assert broken.status_code == 422
    assert broken.json()["errors"][0]["code"] == "invalid_json"


def test_deeply_nested_json_is_422_not_500(client: Client) -> None:
    body = b"[" * 100_000 + b"]" * 100_000
    response = client.post("/api/interactions", content=body,
                           headers={"Content-Type": "application/json"})
    assert response.status_code in (413, 422)


def test_body_that_is_not_an_object_is_422(client: Client) -> None:
    response = client.post("/api/interactions", json=[1, 2])
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "body"


def test_settings_round_trip_and_apply_to_new_interactions(client: Client) -> None:
    saved = client.put("/api/settings", json={"timeout_seconds": 45, "interface": "terminal"})
    assert saved.status_code == 200
    assert client.get("/api/settings").json()["timeout_seconds"] == 45
    created = create(client)
    assert created["interface"] == "terminal"
    assert "run `" in created["instructions"]


def test_settings_reject_unknown_and_out_of_range_values(client: Client) -> None:
    response = client.put("/api/settings", json={"timeout_seconds": 5, "colour": "blue"})
    assert response.status_code == 422
    assert {e["field"] for e in response.json()["errors"]} == {"timeout_seconds", "colour"}


def test_a_team_name_with_a_comma_is_refused_naming_the_member_and_the_fix(
        client: Client) -> None:
    response = client.put("/api/settings", json={"team": [{"name": "Ann"},
                                                          {"name": "Lee, Carol"}]})
    assert response.status_code == 422
    [error] = response.json()["errors"]
    assert (error["field"], error["code"]) == ("team[1].name", "invalid_characters")
    assert "'Lee, Carol' has a comma" in error["message"]
    assert "Value error" not in response.text
    assert client.get("/api/settings").json()["team"] == []


def test_healthz_needs_no_token(anonymous: Client) -> None:
    body = anonymous.get("/healthz").json()
    assert body["status"] == "ok" and body["portal"] == "choice"


def test_openapi_documents_the_request_bodies(anonymous: Client) -> None:
    schema = anonymous.get("/schema/openapi.json").json()
    body = schema["paths"]["/api/interactions"]["post"]["requestBody"]["content"]["application/json"]
    titles = {one["title"] for one in body["schema"]["oneOf"]}
    assert titles == {"ChoiceRequest", "HitlRequest", "RequestUserChoice", "AskUserQuestion"}
    option = body["schema"]["oneOf"][0]["properties"]["options"]["items"]
    assert option["properties"]["id"]["pattern"] == "^[A-Za-z0-9_.-]{1,64}$"


TYPED_BODIES = [("PUT", "/api/settings"), ("PATCH", "/api/interactions/{iid}"),
                ("POST", "/api/interactions/{iid}/interface"),
                ("POST", "/api/interactions/{iid}/opened")]


@pytest.mark.parametrize(("method", "path"), TYPED_BODIES)
def test_a_typed_body_keeps_the_contract_of_every_body(client: Client, method: str,
                                                       path: str) -> None:
    """Litestar parses these bodies (`data: Model`); the errors stay ours: 415, 422
    `invalid_json`, and the model's rules with their fixes. Nothing changes."""
    iid = create(client)["interaction_id"]
    url = path.format(iid=iid)
    for body, content_type, status, code in [
            (b'{"interface": "web"}', "text/plain", 415, "unsupported_media_type"),
            (b'{"interface": ', "application/json", 422, "invalid_json"),
            (b'[]', "application/json", 422, "invalid_type"),
            (b'{"interfaces": "web"}', "application/json", 422, "unknown_field")]:
        response = client.request(method, url, content=body,
                                  headers={"Content-Type": content_type})
        assert response.status_code == status, (body, response.text)
        errors = {error["code"]: error["message"] for error in response.json()["errors"]}
        assert code in errors, errors
        if code == "unknown_field":
            assert "accepted:" in errors[code]
    assert trail(client, iid) == ["created"]


def test_typed_bodies_are_documented_from_their_models(anonymous: Client) -> None:
    schema = anonymous.get("/schema/openapi.json").json()
    components = schema["components"]["schemas"]
    for method, path, model in [("put", "/api/settings", "PreferencesPatch"),
                                ("patch", "/api/interactions/{interaction_id}", "DeadlineChange"),
                                ("post", "/api/interactions/{interaction_id}/interface",
                                 "InterfaceSwitch")]:
        body = schema["paths"][path][method]["requestBody"]["content"]["application/json"]
        assert body["schema"] == {"$ref": f"#/components/schemas/{model}"}
    deadline = components["DeadlineChange"]["properties"]["timeout_seconds"]
    assert (deadline["minimum"], deadline["maximum"]) == (10, 86_400)


# -- ?dry_run=1: an answer checked, nothing stored -----------------------------------------------
def trail(client: Client, iid: str) -> list[str]:
    return [e["kind"] for e in client.get(f"/api/interactions/{iid}/events").json()["events"]]


def test_a_dry_run_returns_the_result_and_stores_nothing(client: Client) -> None:
    iid = create(client, require_confirmation=True)["interaction_id"]
    answer = {"selected_ids": ["lite"], "confirmed": True, "global_annotation": "small"}
    checked = client.post(f"/api/interactions/{iid}/response?dry_run=1", json=answer)
    assert checked.status_code == 200
    assert (checked.json()["stored"], checked.json()["status"]) == (False, "pending")
    assert client.get(f"/api/interactions/{iid}").json()["status"] == "pending"
    assert trail(client, iid) == ["created"]
    real = client.post(f"/api/interactions/{iid}/response", json=answer).json()
    assert "stored" not in real
    for field in ("selected_ids", "selected_labels", "global_annotation", "confirmed", "summary"):
        assert checked.json()[field] == real[field]


def test_a_dry_run_refuses_a_bad_answer_exactly_as_a_submit_does(client: Client) -> None:
    iid = create(client, require_confirmation=True)["interaction_id"]
    bad = {"selected_ids": ["mysql", "pg", "lite"]}
    checked = client.post(f"/api/interactions/{iid}/response?dry_run=1", json=bad)
    real = client.post(f"/api/interactions/{iid}/response", json=bad)
    assert checked.status_code == real.status_code == 422
    assert checked.json() == real.json()
    assert {e["code"] for e in checked.json()["errors"]} >= {"unknown_option",
                                                            "confirmation_required"}
    assert trail(client, iid) == ["created"]


def test_a_dry_run_on_a_finished_interaction_is_the_same_409(client: Client) -> None:
    iid = create(client)["interaction_id"]
    client.post(f"/api/interactions/{iid}/response", json={"selected_ids": ["pg"]})
    checked = client.post(f"/api/interactions/{iid}/response?dry_run=1",
                          json={"selected_ids": ["lite"]})
    real = client.post(f"/api/interactions/{iid}/response", json={"selected_ids": ["lite"]})
    assert checked.status_code == real.status_code == 409
    assert checked.json() == real.json()
    assert trail(client, iid) == ["created", "answered"]


def test_a_dry_run_flag_that_is_not_a_boolean_is_422(client: Client) -> None:
    iid = create(client)["interaction_id"]
    response = client.post(f"/api/interactions/{iid}/response?dry_run=maybe",
                           json={"selected_ids": ["pg"]})
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "dry_run"
    assert client.get(f"/api/interactions/{iid}").json()["status"] == "pending"
