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
             "selected_ids": ["pg"], "source_hint": "discussion_extraction"}


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
    assert (sent.json()["state"], sent.json()["candidate_selected_ids"]) == (
        "candidate_ready", ["pg"])
    after = client.get(f"/api/interactions/{iid}?wait=0.2").json()
    assert (after["action_status"], after["review_state"]) == ("widened", "candidate_submitted")

    # Accept: the candidate's option and words, as they came.
    result = resolve(client, iid, final_answer=CANDIDATE["candidate_answer"], selected_ids=["pg"])
    Outcome.model_validate(result)
    assert result["summary_json"] == {"text": CANDIDATE["candidate_summary"],
                                      "source": "discussion_extraction"}
    # An options-only question is answered by its option; the words are the summary's.
    assert (result["selected_ids"], result["custom_input"]) == (["pg"], None)
    assert (result["decided_by"], result["answered_via"], result["schema_version"]) == (
        "owner", "api", 1)
    assert result["participants"] == ["Alice", "Bob"]
    assert [v["option_id"] for v in result["votes"]] == ["pg", "lite"]
    assert "Decided by the owner after discussing it with 2 teammates" in result["summary"]
    assert kinds(client, iid)[-3:] == ["review_requested", "candidate_submitted", "resolved"]


@pytest.mark.parametrize(("final", "source"), [
    ("PostgreSQL, with the migration path planned from day one.", "discussion_extraction"),
    ("SQLite for now; revisit next quarter.", "owner_override"),
])
def test_an_edit_is_judged_by_the_30_percent_rule(client: Client, final: str, source: str) -> None:
    iid = widened(client, selection_mode="hybrid")  # typed answers count as the answer
    client.post(f"/api/interactions/{iid}/review")
    client.post(f"/api/interactions/{iid}/candidate", json={**CANDIDATE, "selected_ids": []})
    result = resolve(client, iid, final_answer=final, rationale="  Cost matters more.  ")
    assert result["summary_json"]["source"] == source
    assert result["rationale"] == "Cost matters more."


def test_an_answer_written_without_asking_the_agent_is_manual(client: Client) -> None:
    iid = widened(client)
    result = resolve(client, iid, final_answer="SQLite: it is enough.", selected_ids=["lite"])
    assert result["summary_json"] == {"text": "SQLite: it is enough.", "source": "manual"}
    assert (result["action_status"], result["selected_ids"]) == ("selected", ["lite"])


WORDS = "SQLite, revisit at 10k writes/s"


@pytest.mark.parametrize("how", ["by hand", "the candidate's words", "with a summary"])
def test_a_resolve_keeps_the_owners_words_beside_the_chosen_option(client: Client,
                                                                   how: str) -> None:
    iid = widened(client)
    extra: dict[str, Any] = {"summary": "Bob's load test settled it."} \
        if how == "with a summary" else {}
    if how == "the candidate's words":
        client.post(f"/api/interactions/{iid}/review")
        sent = client.post(f"/api/interactions/{iid}/candidate", json={
            **CANDIDATE, "candidate_answer": WORDS, "selected_ids": ["lite"]})
        assert sent.status_code == 200, sent.text
    resolve(client, iid, final_answer=WORDS, selected_ids=["lite"], **extra)
    result = client.get(f"/api/interactions/{iid}").json()  # what the agent reads
    Outcome.model_validate(result)
    assert (result["selected_ids"], result["global_annotation"]) == (["lite"], WORDS)
    assert "revisit at 10k writes/s" in result["summary"]


@pytest.mark.parametrize("final", ["SQLite", " sqlite ", ""])
def test_words_that_only_name_the_chosen_option_add_no_note(client: Client, final: str) -> None:
    iid = widened(client)
    result = resolve(client, iid, final_answer=final, selected_ids=["lite"])
    assert (result["selected_ids"], result["global_annotation"]) == (["lite"], None)


def test_no_candidate_in_time_falls_back_to_manual() -> None:
    from choice.portal import create_app
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
    cancel = client.post(f"/api/interactions/{iid}/cancel")
    assert cancel.status_code == 409  # take it up again first, or decide it

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
    result = resolve(client, iid, final_answer="PostgreSQL", selected_ids=["pg"])
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

    resolve(client, iid, final_answer="PostgreSQL", selected_ids=["pg"])
    second = client.post(f"/api/interactions/{iid}/candidate", json=CANDIDATE)
    assert second.status_code == 409
    again = client.post(f"/api/interactions/{iid}/resolve",
                        json={"final_answer": "SQLite", "selected_ids": ["lite"]})
    assert again.status_code == 409
    assert client.get(f"/api/interactions/{iid}").json()["selected_ids"] == ["pg"]
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


# -- A resolve is an answer: the question's own rules -----------------

def hitl(client: Client) -> str:
    response = client.post("/api/interactions?shape=hitl_request", json={
        "question": "Deploy to production now?", "options": [
            {"id": "deploy", "label": "Deploy"}, {"id": "wait", "label": "Wait"}]})
    assert response.status_code == 201, response.text
    return str(response.json()["interaction_id"])


def refused(client: Client, iid: str, **body: Any) -> list[dict[str, Any]]:
    response = client.post(f"/api/interactions/{iid}/resolve", json=body)
    assert response.status_code == 422, response.text
    assert client.get(f"/api/interactions/{iid}").json()["status"] in ("pending", "widened")
    return assert_field_errors(response.json())


def test_free_text_alone_does_not_decide_an_options_only_question(client: Client) -> None:
    iid = widened(client)
    errors = refused(client, iid, final_answer="PostgreSQL, obviously.")
    assert [(e["field"], e["code"]) for e in errors] == [("selected_ids", "required")]
    hitl_id = hitl(client)
    widen(client, hitl_id, audience=["Alice"], mode="block")
    assert [e["field"] for e in refused(client, hitl_id, final_answer="Ship it")] == [
        "selected_ids"]


def test_a_resolve_picks_within_min_and_max(client: Client) -> None:
    options = [{"id": i, "label": i.upper()} for i in ("a", "b", "c")]
    iid = widened(client, selection_mode="multi", options=options, min_selections=2,
                  max_selections=3)
    errors = refused(client, iid, selected_ids=["a"])
    assert [(e["field"], e["code"]) for e in errors] == [("selected_ids", "too_few")]
    result = resolve(client, iid, selected_ids=["c", "a"], final_answer="A and C, as agreed.")
    assert (result["selected_ids"], result["summary_json"]["text"]) == (
        ["a", "c"], "A and C, as agreed.")


def test_several_questions_resolve_with_an_answer_for_each(client: Client) -> None:
    questions = [{"id": "db", "prompt": "Which store?", "options": [
                     {"id": "pg", "label": "PostgreSQL"}, {"id": "lite", "label": "SQLite"}]},
                 {"id": "name", "prompt": "Its name?", "selection_mode": "text_input"}]
    iid = str(client.post("/api/interactions", json={
        "title": "Set up storage", "questions": questions}).json()["interaction_id"])
    client.post(f"/api/interactions/{iid}/defer", json={"rationale": "After the review."})
    assert [e["field"] for e in refused_deferred(client, iid, answers=None)] == ["answers"]
    assert [e["field"] for e in refused_deferred(
        client, iid, answers={"db": {"selected_ids": ["pg"]}})] == ["answers.name"]
    result = resolve(client, iid, answers={"db": {"selected_ids": ["pg"]},
                                           "name": {"custom_input": "orders"}})
    assert result["answers"]["db"]["selected_ids"] == ["pg"]
    assert result["answers"]["name"]["custom_input"] == "orders"


def refused_deferred(client: Client, iid: str, **body: Any) -> list[dict[str, Any]]:
    response = client.post(f"/api/interactions/{iid}/resolve", json=body)
    assert response.status_code == 422, response.text
    assert client.get(f"/api/interactions/{iid}?wait=0").json()["status"] == "deferred"
    return assert_field_errors(response.json())


def test_a_widened_hitl_request_ends_confirmed_with_its_option(client: Client) -> None:
    iid = hitl(client)
    widen(client, iid, audience=["Alice"], mode="block")
    result = resolve(client, iid, selected_ids=["deploy"], final_answer="Green light from QA.")
    assert (result["status"], result["action_status"], result["outcome"]) == (
        "submitted", "selected", "confirmed")
    assert result["selected_option"] == {"id": "deploy", "label": "Deploy"}
    assert result["custom_input"] is None  # options-only: the words are the summary's
    assert result["summary_json"] == {"text": "Green light from QA.", "source": "manual"}


def test_a_deferred_hitl_request_says_deferred_not_null(client: Client) -> None:
    iid = hitl(client)
    deferred = client.post(f"/api/interactions/{iid}/defer",
                           json={"rationale": "Wait for the freeze."}).json()
    assert (deferred["action_status"], deferred["outcome"]) == ("deferred", "deferred")
    polled = client.get(f"/api/interactions/{iid}?wait=0").json()
    assert polled["outcome"] == "deferred"
    plain = create(client)
    assert client.post(f"/api/interactions/{plain}/defer",
                       json={"rationale": "Later."}).json()["outcome"] is None


def test_the_candidate_may_propose_options_and_an_unknown_one_is_refused(client: Client) -> None:
    iid = widened(client)
    client.post(f"/api/interactions/{iid}/review")
    wrong = client.post(f"/api/interactions/{iid}/candidate",
                        json={**CANDIDATE, "selected_ids": ["mysql"]})
    assert wrong.status_code == 422
    assert assert_field_errors(wrong.json())[0]["field"] == "selected_ids"
    review = client.post(f"/api/interactions/{iid}/candidate", json=CANDIDATE).json()
    assert review["candidate_selected_ids"] == ["pg"]
    changed = resolve(client, iid, selected_ids=["lite"], final_answer=CANDIDATE[
        "candidate_answer"])
    assert changed["summary_json"]["source"] == "owner_override"  # another option than proposed


def test_an_owner_may_answer_a_deferred_question_directly(client: Client) -> None:
    iid = create(client)
    client.post(f"/api/interactions/{iid}/defer", json={"rationale": "Later."})
    answered = client.post(f"/api/interactions/{iid}/response", json={"selected_ids": ["lite"]})
    assert answered.status_code == 200, answered.text
    result = answered.json()
    assert (result["status"], result["decided_by"], result["summary_json"]) == (
        "submitted", "owner", {"text": "", "source": "manual"})
    assert kinds(client, iid)[-2:] == ["deferred", "resolved"]


def test_a_dry_run_is_not_completed(client: Client) -> None:
    iid = create(client)
    checked = client.post(f"/api/interactions/{iid}/response?dry_run=1",
                          json={"selected_ids": ["pg"]}).json()
    assert (checked["stored"], checked["status"], checked["completed_at"]) == (
        False, "pending", None)


def test_a_deferral_has_no_deadline_in_its_reply_nor_in_the_list(client: Client) -> None:
    iid = create(client)
    deferred = client.post(f"/api/interactions/{iid}/defer", json={"rationale": "Later."}).json()
    listed = client.get("/api/interactions?status=deferred").json()["interactions"]
    assert deferred.get("expires_at") is None
    assert [row["expires_at"] for row in listed] == [None]
