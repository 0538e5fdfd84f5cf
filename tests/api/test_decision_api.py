"""The write-back through the HTTP API, as an agent and a script see it: the owner asks for a
summary (the agent's poll answers `summary_requested`), the agent's candidate, the owner's
resolve with its provenance, defer and take up again, the quorum; each bad call refused
with `{field, code, message}` and changing nothing."""

from __future__ import annotations

from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from choice.contract import Outcome
from choice.decision.models import CandidateReview, DeferredReply, SummaryRequested
from tests.api.conftest import BASE_URL
from tests.api.test_team_api import assert_field_errors, create, secret_of, state, widen

pytestmark = pytest.mark.usefixtures("backend")  # on SQLite and on PostgreSQL

Client = TestClient[Litestar]
CANDIDATE = {"candidate_summary": "Alice and Bob agree on PostgreSQL, with a migration plan.",
             "candidate_answer": "PostgreSQL, with the migration path planned from day 1.",
             "source_hint": "discussion_extraction"}


def widened(client: Client, **overrides: Any) -> str:
    iid = create(client, **overrides)
    widen(client, iid, audience=["Alice", "Bob"], mode="block")
    return iid


def comment(client: Client, iid: str, text: str) -> None:
    assert client.post(f"/api/interactions/{iid}/comments", json={"text": text}).status_code == 201


def kinds(client: Client, iid: str) -> list[str]:
    return [e["kind"] for e in client.get(f"/api/interactions/{iid}/events").json()["events"]]


def resolve(client: Client, iid: str, **body: Any) -> dict[str, Any]:
    response = client.post(f"/api/interactions/{iid}/resolve", json=body)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def test_review_candidate_accept_is_discussion_extraction(client: Client) -> None:
    iid = widened(client)
    comment(client, iid, "PostgreSQL, but plan the migration from day 1.")
    review = client.post(f"/api/interactions/{iid}/review").json()
    assert review["state"] == "awaiting_candidate" and review["due_at"]
    assert review["discussion_fetch"]["messages"] == [
        "[Owner] PostgreSQL, but plan the migration from day 1."]

    asked = client.get(f"/api/interactions/{iid}?wait=30").json()  # at once, not in 30 s
    SummaryRequested.model_validate(asked)
    assert set(asked) == set(SummaryRequested.model_fields)
    assert asked["action_status"] == "summary_requested"
    assert asked["discussion"]["participants"] == ["Alice", "Bob"]
    assert f"/api/interactions/{iid}/candidate" in asked["instructions"]

    sent = client.post(f"/api/interactions/{iid}/candidate", json=CANDIDATE)
    assert sent.status_code == 200, sent.text
    assert sent.json()["state"] == "candidate_ready"
    after = client.get(f"/api/interactions/{iid}?wait=0.2").json()
    assert (after["action_status"], after["review_state"]) == ("widened", "candidate_submitted")

    result = resolve(client, iid, final_answer=CANDIDATE["candidate_answer"])
    Outcome.model_validate(result)
    assert result["summary_json"] == {"text": CANDIDATE["candidate_summary"],
                                      "source": "discussion_extraction"}
    assert result["custom_input"] == CANDIDATE["candidate_answer"]
    assert (result["decided_by"], result["answered_via"], result["schema_version"]) == (
        "owner", "api", 1)
    assert result["participants"] == ["Alice", "Bob"]
    assert [v["option_id"] for v in result["votes"]] == ["pg", "lite"]
    assert "Decided by the owner after discussing it with 2 teammate(s)" in result["summary"]
    assert kinds(client, iid)[-3:] == ["review_requested", "candidate_submitted", "resolved"]


@pytest.mark.parametrize(("final", "source"), [
    ("PostgreSQL, with the migration path planned from day one.", "discussion_extraction"),
    ("SQLite for now; revisit next quarter.", "owner_override"),
])
def test_an_edit_is_judged_by_the_30_percent_rule(client: Client, final: str, source: str) -> None:
    iid = widened(client)
    client.post(f"/api/interactions/{iid}/review")
    client.post(f"/api/interactions/{iid}/candidate", json=CANDIDATE)
    result = resolve(client, iid, final_answer=final, rationale="  Cost matters more.  ")
    assert result["summary_json"]["source"] == source
    assert result["rationale"] == "Cost matters more."


def test_an_answer_written_without_asking_the_agent_is_manual(client: Client) -> None:
    iid = widened(client)
    result = resolve(client, iid, final_answer="SQLite", selected_ids=["lite"])
    assert result["summary_json"] == {"text": "", "source": "manual"}
    assert (result["action_status"], result["selected_ids"]) == ("selected", ["lite"])


def test_no_candidate_in_time_falls_back_to_manual() -> None:
    from choice.web.app import create_app
    from tests.api.conftest import token

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CHOICE_SUMMARY_SECONDS", "1")
        app = create_app()
    with TestClient(app, base_url=BASE_URL) as client:
        client.headers["Authorization"] = f"Bearer {token()}"
        iid = widened(client)
        client.post(f"/api/interactions/{iid}/review")
        # The fallback is a timer: wait on its audit event, bounded.
        import time
        deadline = time.monotonic() + 10
        while "candidate_timed_out" not in kinds(client, iid):
            assert time.monotonic() < deadline, "no fallback within 10 s"
            client.get(f"/api/interactions/{iid}?wait=0.5&candidates=0")
        review = CandidateReview.model_validate(client.get(f"/api/interactions/{iid}/review").json())
        assert (review.state, review.llm_timed_out, review.source_hint) == ("timed_out", True,
                                                                            "manual")
        assert review.candidate_answer == "" and review.candidate_summary == ""
        polled = client.get(f"/api/interactions/{iid}?wait=0.2").json()
        assert polled["action_status"] == "widened"  # the agent is no longer asked
        late = client.post(f"/api/interactions/{iid}/candidate", json=CANDIDATE)
        assert late.status_code == 200 and late.json()["state"] == "candidate_ready"


def test_defer_returns_the_rationale_and_resume_takes_it_up_again(client: Client) -> None:
    iid = create(client)
    refused = client.post(f"/api/interactions/{iid}/defer", json={"rationale": "   "})
    assert refused.status_code == 422
    assert assert_field_errors(refused.json())[0]["field"] == "rationale"
    deferred = client.post(f"/api/interactions/{iid}/defer",
                           json={"rationale": "Waiting for the load test."}).json()
    DeferredReply.model_validate(deferred)
    assert (deferred["status"], deferred["rationale"]) == ("deferred",
                                                           "Waiting for the load test.")
    assert client.get(f"/api/interactions/{iid}?wait=30").json()["action_status"] == "deferred"
    listed = client.get("/api/interactions?status=deferred").json()["interactions"]
    assert [row["interaction_id"] for row in listed] == [iid]
    answer = client.post(f"/api/interactions/{iid}/response", json={"selected_ids": ["pg"]})
    assert answer.status_code == 409  # take it up again first, or resolve it

    resumed = client.post(f"/api/interactions/{iid}/resume")
    assert resumed.status_code == 200 and resumed.json()["status"] == "pending"
    assert client.post(f"/api/interactions/{iid}/resume").status_code == 409
    answered = client.post(f"/api/interactions/{iid}/response", json={"selected_ids": ["pg"]})
    assert answered.status_code == 200 and answered.json()["status"] == "submitted"
    assert kinds(client, iid)[-3:] == ["deferred", "resumed", "answered"]


def test_a_deferred_widened_question_keeps_its_discussion_and_resolves(client: Client) -> None:
    iid = create(client)
    invited = widen(client, iid, audience=["Alice"], mode="continue")
    secret = secret_of(invited["participants"][0]["link"])
    client.post(f"/api/interactions/{iid}/defer", json={"rationale": "Next sprint."})
    said = client.post(f"/api/d/{secret}/comments", json={"text": "Still PostgreSQL for me."})
    assert said.status_code == 201  # the discussion stays open
    assert client.get(f"/api/d/{secret}").json()["deferred"]["rationale"] == "Next sprint."
    result = resolve(client, iid, final_answer="PostgreSQL")
    assert (result["status"], result["participants"]) == ("submitted", ["Alice"])


def test_quorum_resolves_when_enough_vote_alike(client: Client) -> None:
    iid = create(client)
    invited = widen(client, iid, audience=["Alice", "Bob", "Carol"], mode="block",
                    quorum={"min_votes": 2})
    secrets_ = [secret_of(p["link"]) for p in invited["participants"]]
    assert client.put(f"/api/d/{secrets_[0]}/vote", json={"option_ids": ["pg"]}).status_code == 200
    assert client.put(f"/api/d/{secrets_[1]}/vote", json={"option_ids": ["lite"]}).status_code == 200
    assert client.get(f"/api/interactions/{iid}?wait=0.1").json()["status"] == "widened"
    assert client.put(f"/api/d/{secrets_[2]}/vote", json={"option_ids": ["pg"]}).status_code == 200
    result = client.get(f"/api/interactions/{iid}").json()
    assert (result["status"], result["decided_by"], result["selected_ids"]) == (
        "submitted", "quorum", ["pg"])
    assert (result["summary_json"]["source"], result["answered_via"]) == ("quorum", "api")
    seen = client.get(f"/api/d/{secrets_[0]}").json()  # the team sees how it was decided
    assert (seen["outcome"]["decided_by"], seen["outcome"]["source"]) == ("quorum", "quorum")
    tally = {v["option_id"]: v["voters"] for v in result["votes"]}
    assert tally == {"pg": ["Alice", "Carol"], "lite": ["Bob"]}  # dissent recorded
    late = client.put(f"/api/d/{secrets_[1]}/vote", json={"option_ids": ["pg"]})
    assert late.status_code == 409
    assert "quorum_reached" in kinds(client, iid)


def test_quorum_larger_than_the_audience_is_refused(client: Client) -> None:
    iid = create(client)
    before = client.get(f"/api/interactions/{iid}/detail").json()
    refused = client.post(f"/api/interactions/{iid}/widen",
                          json={"audience": ["Alice"], "quorum": {"min_votes": 2}})
    assert refused.status_code == 422
    assert assert_field_errors(refused.json())[0]["code"] == "quorum_too_large"
    assert client.get(f"/api/interactions/{iid}/detail").json() == before
    widen(client, iid, audience=["Alice"])
    frozen = state(client, iid)
    too_big = client.put(f"/api/interactions/{iid}/quorum", json={"min_votes": 2})
    assert too_big.status_code == 422 and state(client, iid) == frozen
    off = client.put(f"/api/interactions/{iid}/quorum", json={"min_votes": None})
    assert off.status_code == 200 and off.json()["quorum_min_votes"] is None


def test_edges_get_a_clear_error_and_change_nothing(client: Client) -> None:
    iid = widened(client)
    frozen = state(client, iid)
    not_asked = client.post(f"/api/interactions/{iid}/candidate", json=CANDIDATE)
    assert not_asked.status_code == 409
    assert assert_field_errors(not_asked.json())[0]["code"] == "not_in_review"
    assert state(client, iid) == frozen

    client.post(f"/api/interactions/{iid}/review")
    empty = client.post(f"/api/interactions/{iid}/candidate",
                        json={**CANDIDATE, "candidate_answer": " "})
    assert empty.status_code == 422
    assert assert_field_errors(empty.json())[0]["field"] == "candidate_answer"
    extra = client.post(f"/api/interactions/{iid}/candidate", json={**CANDIDATE, "x": 1})
    assert extra.status_code == 422
    nothing = client.post(f"/api/interactions/{iid}/resolve", json={"final_answer": ""})
    assert nothing.status_code == 422
    unknown = client.post(f"/api/interactions/{iid}/resolve",
                          json={"final_answer": "x", "selected_ids": ["nope"]})
    assert assert_field_errors(unknown.json())[0]["field"] == "selected_ids[0]"

    resolve(client, iid, final_answer="PostgreSQL")
    second = client.post(f"/api/interactions/{iid}/candidate", json=CANDIDATE)
    assert second.status_code == 409
    again = client.post(f"/api/interactions/{iid}/resolve", json={"final_answer": "SQLite"})
    assert again.status_code == 409
    assert client.get(f"/api/interactions/{iid}").json()["custom_input"] == "PostgreSQL"
    pending = create(client)
    assert client.post(f"/api/interactions/{pending}/review").status_code == 409


def test_every_result_says_how_it_arrived(client: Client) -> None:
    iid = create(client)
    result = client.post(f"/api/interactions/{iid}/response",
                         json={"selected_ids": ["pg"], "interface": "web"}).json()
    assert (result["answered_via"], result["decided_by"], result["schema_version"]) == (
        "api", "owner", 1)  # the token's answer is the API's, whatever it claims
    assert result["summary_json"] is None and result["participants"] == []


def test_a_quorum_needs_options_and_a_deferred_question_says_so(client: Client) -> None:
    refused = client.post("/api/interactions", json={
        "title": "Name it", "prompt": "Any name.", "selection_mode": "text_input",
        "quorum": {"min_votes": 2}})
    assert refused.status_code == 422
    assert assert_field_errors(refused.json())[0]["field"] == "quorum"
    iid = create(client)
    client.post(f"/api/interactions/{iid}/defer", json={"rationale": "Later."})
    cancel = client.post(f"/api/interactions/{iid}/cancel")
    assert cancel.status_code == 409
    assert assert_field_errors(cancel.json())[0]["code"] == "deferred"
