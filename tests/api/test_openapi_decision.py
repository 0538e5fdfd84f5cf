"""`/schema` documents the write-back: each new operation with its body and reply, the
`?candidates=0` and `status=deferred` parameters, and replies that validate against what it
documents: the poll's Reply union admits a `summary_requested` and a `deferred` reply (as
exactly one of its branches: it is a `oneOf`), the review is a CandidateReview, and a
written-back result an Outcome with its new fields."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator
from litestar import Litestar
from litestar.testing import TestClient

from tests.api.test_decision_api import CANDIDATE, widened
from tests.api.test_team_api import create

Client = TestClient[Litestar]
ONE = "/api/interactions/{interaction_id}"
OPERATIONS = [  # method, path, request body model (None: no body), 200 reply
    ("get", f"{ONE}/review", None, "CandidateReview"),
    ("post", f"{ONE}/review", None, "CandidateReview"),
    ("post", f"{ONE}/candidate", "CandidateBody", "CandidateReview"),
    ("post", f"{ONE}/resolve", "ResolveBody", "Reply"),
    ("post", f"{ONE}/defer", "DeferBody", "Reply"),
    ("post", f"{ONE}/resume", "ResumeBody", "Reply"),
    ("put", f"{ONE}/quorum", "QuorumBody", "Reply"),
]
REPLY_BRANCHES = {"Handoff", "WidenedReply", "SummaryRequested", "DeferredReply", "Outcome"}


@pytest.fixture
def openapi(anonymous: Client) -> dict[str, Any]:
    document: dict[str, Any] = anonymous.get("/schema/openapi.json").json()
    return document


def reply_schema(openapi: dict[str, Any], method: str, path: str) -> dict[str, Any]:
    """The documented 200 body, with the components its `$ref`s point into."""
    response = openapi["paths"][path][method]["responses"]["200"]
    schema = response["content"]["application/json"]["schema"]
    return {**schema, "components": openapi["components"]}


def problems(schema: dict[str, Any], body: Any) -> list[str]:
    return [error.message for error in Draft202012Validator(schema).iter_errors(body)]


def refs(schema: dict[str, Any]) -> set[str]:
    branches = schema.get("oneOf", [schema])
    return {b["$ref"].rsplit("/", 1)[1] for b in branches if "$ref" in b}


@pytest.mark.parametrize(("method", "path", "body", "reply"), OPERATIONS)
def test_each_write_back_operation_is_documented(openapi: dict[str, Any], method: str, path: str,
                                                 body: str | None, reply: str) -> None:
    operation = openapi["paths"][path][method]
    owner = "team" if path.endswith("/quorum") else "decision"  # the quorum is the team's
    assert operation["tags"] == [owner] and operation["security"]
    assert operation.get("description") or operation.get("summary")
    documented = reply_schema(openapi, method, path)
    assert refs(documented) == (REPLY_BRANCHES if reply == "Reply" else {reply})
    assert {"401", "404", "409"} <= set(operation["responses"])
    if body is None:
        assert "requestBody" not in operation
        return
    content = operation["requestBody"]["content"]["application/json"]["schema"]
    if body == "ResumeBody":  # may be left out: documented inline, not required
        assert operation["requestBody"]["required"] is False
        assert set(content["properties"]) == {"interface"}
    else:
        assert content == {"$ref": f"#/components/schemas/{body}"}
        assert operation["requestBody"]["required"] is True
        assert "422" in operation["responses"]


def test_the_bodies_document_their_rules(openapi: dict[str, Any]) -> None:
    schemas = openapi["components"]["schemas"]
    candidate = schemas["CandidateBody"]
    assert set(candidate["required"]) == {"candidate_summary", "candidate_answer"}
    assert set(candidate["properties"]["source_hint"]["enum"]) == {
        "discussion_extraction", "slack_extraction", "manual"}
    assert schemas["DeferBody"]["required"] == ["rationale"]
    assert set(schemas["ResolveBody"]["properties"]) >= {"final_answer", "selected_ids",
                                                          "rationale", "summary"}
    review = schemas["CandidateReview"]["properties"]
    assert set(review["state"]["enum"]) == {"not_requested", "awaiting_candidate",
                                            "candidate_ready", "timed_out"}
    outcome = schemas["Outcome"]["properties"]
    assert {"summary_json", "rationale", "participants", "votes", "decided_by",
            "answered_via", "schema_version"} <= set(outcome)
    assert set(schemas["SummaryJson"]["properties"]["source"]["enum"]) == {
        "discussion_extraction", "owner_override", "manual", "quorum"}


def test_the_poll_documents_candidates_and_the_list_deferred(openapi: dict[str, Any]) -> None:
    poll = {p["name"]: p for p in openapi["paths"][ONE]["get"]["parameters"]}
    assert poll["candidates"]["schema"] == {**poll["candidates"]["schema"], "type": "boolean",
                                            "default": True}
    listing = {p["name"]: p for p in openapi["paths"]["/api/interactions"]["get"]["parameters"]}
    assert "deferred" in listing["status"]["schema"]["enum"]


def test_summary_requested_and_deferred_replies_validate_against_the_documented_union(
        client: Client, openapi: dict[str, Any]) -> None:
    union = reply_schema(openapi, "get", ONE)
    iid = widened(client)
    client.post(f"/api/interactions/{iid}/comments", json={"text": "PostgreSQL."})
    client.post(f"/api/interactions/{iid}/review")
    asked = client.get(f"/api/interactions/{iid}?wait=0").json()
    assert asked["action_status"] == "summary_requested"
    assert problems(union, asked) == []

    later = create(client)
    deferred = client.post(f"/api/interactions/{later}/defer",
                           json={"rationale": "After the load test."}).json()
    assert problems(reply_schema(openapi, "post", f"{ONE}/defer"), deferred) == []
    assert problems(union, client.get(f"/api/interactions/{later}?wait=0").json()) == []

    review = client.post(f"/api/interactions/{iid}/candidate", json=CANDIDATE).json()
    assert problems(reply_schema(openapi, "post", f"{ONE}/candidate"), review) == []
    after = client.get(f"/api/interactions/{iid}?wait=0").json()  # widened, candidate in
    assert problems(union, after) == []
    result = client.post(f"/api/interactions/{iid}/resolve",
                         json={"final_answer": CANDIDATE["candidate_answer"],
                               "selected_ids": CANDIDATE["selected_ids"]}).json()
    assert result["summary_json"]["source"] == "discussion_extraction"
    assert problems(reply_schema(openapi, "post", f"{ONE}/resolve"), result) == []


def test_the_union_refuses_a_reply_no_branch_describes(openapi: dict[str, Any]) -> None:
    union = reply_schema(openapi, "get", ONE)
    assert problems(union, {"action_status": "summary_requested"})
    assert problems(union, {"interaction_id": "x", "session_id": "x", "status": "deferred",
                            "action_status": "deferred", "schema_version": 2, "rationale": "r",
                            "deferred_at": None, "url": "u", "instructions": "i"})
