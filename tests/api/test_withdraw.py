"""An agent withdraws its question (docs/reference/contract.md#the-result): `POST
/api/interactions/{id}/withdraw {reason}` ends it `withdrawn`, audited with the agent as its
actor; an open page hears it at once and says why; a later answer, or a second withdrawal,
is a 409 with the standing result; a deferred question can be withdrawn too."""

from __future__ import annotations

from litestar import Litestar
from litestar.testing import TestClient

from tests.api.conftest import ask
from tests.api.test_team_pages import agent, owner

Client = TestClient[Litestar]
REASON = "Found it in the ADR: we use PostgreSQL."


def asked(client: Client) -> str:
    reply = client.post("/api/interactions", json=ask(), headers=agent())
    assert reply.status_code == 201, reply.text
    return str(reply.json()["interaction_id"])


def test_a_withdrawn_question_ends_with_the_reason_and_refuses_a_later_answer(
        anonymous: Client) -> None:
    iid = asked(anonymous)
    with anonymous.websocket_connect(f"/ws/choice/{iid}", headers=owner(anonymous)) as page:
        assert page.receive_json(timeout=10)["type"] == "deadline"
        withdrawn = anonymous.post(f"/api/interactions/{iid}/withdraw", json={"reason": REASON},
                                   headers=agent())
        assert withdrawn.status_code == 200, withdrawn.text
        heard = page.receive_json(timeout=10)
        while heard["type"] != "status":
            heard = page.receive_json(timeout=10)
        assert heard["status"] == "withdrawn"
    body = withdrawn.json()
    assert (body["status"], body["action_status"], body["withdrawn_reason"]) == (
        "withdrawn", "cancelled", REASON)
    assert body["selected_ids"] == [] and REASON in body["summary"]
    late = anonymous.post(f"/api/interactions/{iid}/response", json={"selected_ids": ["pg"]},
                          headers=agent())
    again = anonymous.post(f"/api/interactions/{iid}/withdraw", json={"reason": "again"},
                           headers=agent())
    assert late.status_code == 409 and again.status_code == 409
    events = anonymous.get(f"/api/interactions/{iid}/events", headers=agent()).json()["events"]
    withdrawal = [e for e in events if e["kind"] == "withdrawn"]
    assert len(withdrawal) == 1 and withdrawal[0]["actor"] == "agent:api"
    assert withdrawal[0]["detail"] == {"reason": REASON}
    page_text = anonymous.get(f"/choice/{iid}", headers=owner(anonymous)).text
    assert f"The agent no longer needs this: {REASON}" in page_text
    assert 'data-status="withdrawn"' in page_text


def test_a_deferred_question_can_be_withdrawn(anonymous: Client) -> None:
    iid = asked(anonymous)
    deferred = anonymous.post(f"/api/interactions/{iid}/defer", headers=agent(),
                              json={"rationale": "Next sprint."})
    assert deferred.status_code == 200, deferred.text
    withdrawn = anonymous.post(f"/api/interactions/{iid}/withdraw", json={"reason": REASON},
                               headers=agent())
    assert withdrawn.status_code == 200 and withdrawn.json()["status"] == "withdrawn"


def test_a_withdrawal_needs_a_reason_and_the_agent_s_token(anonymous: Client) -> None:
    iid = asked(anonymous)
    for body in ({}, {"reason": ""}, {"reason": "x" * 5001}, {"reason": "ok", "why": "x"}):
        refused = anonymous.post(f"/api/interactions/{iid}/withdraw", json=body, headers=agent())
        assert refused.status_code == 422, body
        assert refused.json()["errors"][0]["field"] in ("reason", "why")
    assert anonymous.post(f"/api/interactions/{iid}/withdraw", json={"reason": "x"}).status_code == 401
    assert anonymous.post("/api/interactions/nope/withdraw", json={"reason": "x"},
                          headers=agent()).status_code == 404
    assert anonymous.get(f"/api/interactions/{iid}", headers=agent()).json()["status"] == "pending"
