"""The owner's write-back pages without a browser: Fetch & review, the candidate review
(accept, edit with the rationale step, defer), the manual answer, defer and take up again on
any question, the quorum (and the widen dialog's quorum field), the outcome's provenance,
the list's deferred filter, the participant page's new states, the sockets' forwarding of
the write-back's changes, and hostile text from the agent staying text."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from choice.portal import create_app
from tests.api.conftest import BASE_URL, ask
from tests.api.test_team_pages import FORM, HTMX, TEAM, agent, owner, widened

Client = TestClient[Litestar]
HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>'


@pytest.fixture
def web(anonymous: Client) -> Client:
    """The team list set; every owner request sends its credential itself."""
    assert anonymous.put("/api/settings", json={"team": TEAM}, headers=agent()).status_code == 200
    return anonymous


def post(web: Client, path: str, data: dict[str, Any], htmx: bool = True) -> Any:
    return web.post(path, data=data, headers={**(HTMX if htmx else FORM), **owner(web)},
                    follow_redirects=False)


def page(web: Client, path: str) -> str:
    reply = web.get(path, headers=owner(web))
    assert reply.status_code == 200, reply.text
    return str(reply.text)


def result(web: Client, iid: str) -> dict[str, Any]:
    reply: dict[str, Any] = web.get(f"/api/interactions/{iid}", headers=agent()).json()
    return reply


def candidate(web: Client, iid: str, answer: str = "PostgreSQL, as Alice and Bob agreed.",
              summary: str = "Both prefer PostgreSQL: the team runs it already.") -> None:
    reply = web.post(f"/api/interactions/{iid}/candidate", headers=agent(),
                     json={"candidate_summary": summary, "candidate_answer": answer,
                           "selected_ids": ["pg"]})
    assert reply.status_code == 200, reply.text


def in_review(web: Client, **widen: Any) -> str:
    iid, _secrets = widened(web, **widen)
    assert post(web, f"/choice/{iid}/review", {}).status_code == 200
    return iid


def test_fetch_and_review_waits_then_shows_the_candidate_box(web: Client) -> None:
    iid, _ = widened(web)
    start = page(web, f"/choice/{iid}")
    assert 'data-testid="fetch-review"' in start and 'data-state="not_requested"' in start
    waiting = post(web, f"/choice/{iid}/review", {})
    assert 'data-testid="review-waiting"' in waiting.text
    assert 'data-due-at-ms="' in waiting.text
    assert web.get(f"/api/interactions/{iid}?wait=0",
                   headers=agent()).json()["action_status"] == "summary_requested"
    candidate(web, iid)
    shown = page(web, f"/choice/{iid}")
    assert 'data-testid="candidate-review"' in shown
    assert "Both prefer PostgreSQL" in shown and "as Alice and Bob agreed." in shown
    assert 'data-testid="accept"' in shown and 'data-testid="defer-form"' in shown


def test_accept_resolves_with_the_candidate_from_the_discussion(web: Client) -> None:
    iid = in_review(web)
    candidate(web, iid)
    stamp = web.get(f"/api/interactions/{iid}/review", headers=agent()).json()["candidate_at"]
    done = post(web, f"/choice/{iid}/resolve", {"action": "accept", "candidate_at": stamp})
    assert done.status_code == 200 and 'data-testid="provenance"' in done.text
    assert "from the discussion" in done.text
    answer = result(web, iid)
    assert answer["selected_ids"] == ["pg"]  # the candidate's option, kept
    assert answer["summary_json"]["source"] == "discussion_extraction"
    assert answer["answered_via"] == "web" and answer["decided_by"] == "owner"


def test_accepting_a_candidate_that_changed_meanwhile_is_refused(web: Client) -> None:
    iid = in_review(web)
    candidate(web, iid)
    refused = post(web, f"/choice/{iid}/resolve", {"action": "accept", "candidate_at": "old"})
    assert refused.status_code == 409 and "changed meanwhile" in refused.text
    assert result(web, iid)["status"] == "widened"


def test_a_material_edit_asks_for_a_rationale_then_records_an_override(web: Client) -> None:
    iid = in_review(web)
    candidate(web, iid)
    edit = {"action": "edit", "final_answer": "SQLite for now; revisit in March.",
            "selected": "lite"}
    asked = post(web, f"/choice/{iid}/resolve", edit)
    assert asked.status_code == 200 and 'data-testid="rationale-step"' in asked.text
    assert "your own answer" in asked.text  # the hint, from the server's rule
    assert result(web, iid)["status"] == "widened"  # nothing decided yet
    done = post(web, f"/choice/{iid}/resolve",
                {**edit, "step": "rationale", "rationale": "Ops has no time this quarter."})
    assert done.status_code == 200
    answer = result(web, iid)
    assert answer["summary_json"]["source"] == "owner_override"
    assert answer["rationale"] == "Ops has no time this quarter."
    assert answer["selected_ids"] == ["lite"]


def test_a_light_edit_resolves_at_once_from_the_discussion(web: Client) -> None:
    iid = in_review(web)
    candidate(web, iid)
    done = post(web, f"/choice/{iid}/resolve", {
        "action": "edit", "final_answer": "PostgreSQL, as Alice and Bob agreed!", "selected": "pg"})
    assert done.status_code == 200 and 'data-testid="outcome"' in done.text
    assert result(web, iid)["summary_json"]["source"] == "discussion_extraction"


def test_an_empty_answer_is_a_field_error_and_keeps_what_was_picked(web: Client) -> None:
    iid, _ = widened(web)
    refused = post(web, f"/choice/{iid}/resolve", {"action": "write", "final_answer": "  ",
                                                   "rationale": "kept"})
    assert refused.status_code == 422  # an options-only question: pick one
    assert 'data-testid="selected-error"' in refused.text and ">kept</textarea>" in refused.text
    unknown = post(web, f"/choice/{iid}/resolve", {"action": "write", "selected": "nope"})
    assert unknown.status_code == 422 and 'data-testid="selected-error"' in unknown.text
    assert result(web, iid)["status"] == "widened"


def test_the_timed_out_review_offers_an_empty_manual_answer() -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CHOICE_SUMMARY_SECONDS", "1")
        app = create_app()
    with TestClient(app, base_url=BASE_URL) as web:
        web.put("/api/settings", json={"team": TEAM}, headers=agent())
        iid = in_review(web)
        deadline = time.monotonic() + 10  # the fallback is a timer: wait on it, bounded
        while web.get(f"/api/interactions/{iid}/review",
                      headers=agent()).json()["state"] != "timed_out":
            assert time.monotonic() < deadline, "no fallback within 10 s"
            web.get(f"/api/interactions/{iid}?wait=0.3&candidates=0", headers=agent())
        shown = page(web, f"/choice/{iid}")
        assert "The agent did not send a summary in time. Write the answer yourself." in shown
        assert 'data-testid="final-answer"></textarea>' in shown  # empty: source manual
        post(web, f"/choice/{iid}/resolve", {"action": "write", "final_answer": "PostgreSQL.",
                                             "selected": "pg"})
        assert result(web, iid)["summary_json"]["source"] == "manual"


def test_defer_needs_a_rationale_then_takes_up_again_and_resolves(web: Client) -> None:
    iid = web.post("/api/interactions", json=ask(), headers=agent()).json()["interaction_id"]
    assert 'data-testid="defer-form"' in page(web, f"/choice/{iid}")
    refused = post(web, f"/choice/{iid}/defer", {"defer_rationale": "  "})
    assert refused.status_code == 422 and 'data-testid="defer-error"' in refused.text
    assert result(web, iid)["status"] == "pending"
    deferred = post(web, f"/choice/{iid}/defer", {"defer_rationale": "Wait for the budget."},
                    htmx=False)
    assert deferred.status_code == 303 and deferred.headers["location"] == f"/choice/{iid}"
    shown = page(web, f"/choice/{iid}")
    assert "Wait for the budget." in shown and 'data-testid="resume"' in shown
    assert 'data-testid="countdown"' not in shown  # no deadline runs
    assert result(web, iid)["action_status"] == "deferred"
    listed = page(web, "/?filter=deferred")
    assert f'data-interaction-id="{iid}" data-status="deferred"' in listed
    assert post(web, f"/choice/{iid}/resume", {}, htmx=False).status_code == 303
    assert result(web, iid)["status"] == "pending"
    again = post(web, f"/choice/{iid}/resume", {})
    assert again.status_code == 409 and "not deferred" in again.text


def test_a_deferred_question_can_be_resolved_without_taking_it_up(web: Client) -> None:
    iid = web.post("/api/interactions", json=ask(), headers=agent()).json()["interaction_id"]
    post(web, f"/choice/{iid}/defer", {"defer_rationale": "Later."})
    done = post(web, f"/choice/{iid}/resolve", {"action": "write", "selected": "pg"},
                htmx=False)
    assert done.status_code == 303
    answer = result(web, iid)
    assert answer["selected_ids"] == ["pg"] and answer["summary_json"]["source"] == "manual"


def test_the_quorum_is_shown_changed_refused_when_too_large_and_switched_off(
        web: Client) -> None:
    iid, _ = widened(web, quorum={"min_votes": 2})
    assert "Resolves when 2 of 2 vote alike." in page(web, f"/choice/{iid}")
    refused = post(web, f"/choice/{iid}/quorum", {"min_votes": "3", "action": "set"})
    assert refused.status_code == 422 and 'data-testid="quorum-error"' in refused.text
    assert post(web, f"/choice/{iid}/quorum", {"min_votes": "x"}).status_code == 422
    assert post(web, f"/choice/{iid}/quorum", {"min_votes": "1"}).status_code == 200
    assert "Resolves when 1 of 2 vote alike." in page(web, f"/choice/{iid}")
    off = post(web, f"/choice/{iid}/quorum", {"action": "off"})
    assert off.status_code == 200 and "No quorum" in off.text


def test_the_widen_dialog_takes_a_quorum_and_shows_its_error_beside_it(web: Client) -> None:
    iid = web.post("/api/interactions", json=ask(), headers=agent()).json()["interaction_id"]
    refused = post(web, f"/choice/{iid}/widen", {"names": "", "mode": "block", "quorum": "5"})
    assert refused.status_code == 422 and 'data-testid="widen-quorum-error"' in refused.text
    assert 'value="5"' in refused.text
    assert post(web, f"/choice/{iid}/widen", {"names": "", "quorum": "2"}).status_code == 200
    assert web.get(f"/api/interactions/{iid}/review",
                   headers=agent()).json()["quorum_min_votes"] == 2


def test_votes_reaching_the_quorum_resolve_and_both_pages_say_so(web: Client) -> None:
    iid, secrets = widened(web, quorum={"min_votes": 2})
    participant = web.get(f"/d/{secrets['Bob']}").text
    assert "2 of 2 matching votes decide" in participant
    for name in ("Alice Johnson", "Bob"):
        web.post(f"/d/{secrets[name]}/vote", data={"option": "pg"}, headers=FORM)
    answer = result(web, iid)
    assert answer["decided_by"] == "quorum" and answer["summary_json"]["source"] == "quorum"
    shown = page(web, f"/choice/{iid}")
    assert 'data-source="quorum"' in shown and "Alice Johnson, Bob" in shown
    closed = web.get(f"/d/{secrets['Bob']}").text
    assert "decided by quorum" in closed


def test_a_participant_sees_a_deferral_and_still_comments(web: Client) -> None:
    iid, secrets = widened(web)
    web.post(f"/api/interactions/{iid}/defer", headers=agent(),
             json={"rationale": "Waiting for legal."})
    shown = web.get(f"/d/{secrets['Bob']}").text
    assert 'data-testid="discussion-deferred"' in shown and "Waiting for legal." in shown
    assert 'data-testid="comment-input"' in shown  # still open
    posted = web.post(f"/d/{secrets['Bob']}/comment", data={"text": "OK"}, headers=FORM,
                      follow_redirects=False)
    assert posted.status_code == 303


def test_hostile_agent_text_stays_text_everywhere_it_is_shown(web: Client) -> None:
    iid = in_review(web)
    candidate(web, iid, answer=HOSTILE, summary=HOSTILE)
    shown = page(web, f"/choice/{iid}")
    assert "<script>alert" not in shown and "<img src=x" not in shown
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in shown
    late = web.get(f"/choice/{iid}/decision?keep=true", headers={**HTMX, **owner(web)}).text
    assert 'data-testid="late-candidate"' in late and "<script>alert" not in late
    stamp = web.get(f"/api/interactions/{iid}/review", headers=agent()).json()["candidate_at"]
    post(web, f"/choice/{iid}/resolve", {"action": "accept", "candidate_at": stamp,
                                         "rationale": HOSTILE})
    outcome = page(web, f"/choice/{iid}")
    assert "<script>alert" not in outcome and "<img src=x" not in outcome


def test_the_owners_socket_forwards_the_review_and_the_deferral(web: Client) -> None:
    iid, _ = widened(web)
    with web.websocket_connect(f"/ws/choice/{iid}", headers={**owner(web),
                               "Origin": "http://127.0.0.1:8765"}) as socket:
        assert socket.receive_json()["type"] == "deadline"
        web.post(f"/api/interactions/{iid}/review", headers=agent())
        assert _next(socket, "decision")["change"] == "review_requested"
        candidate(web, iid)
        assert _next(socket, "decision")["change"] == "candidate_submitted"
        web.post(f"/api/interactions/{iid}/defer", headers=agent(), json={"rationale": "x"})
        assert _next(socket, "deadline")["status"] == "deferred"


def _next(socket: Any, kind: str) -> dict[str, Any]:
    """The next message of `kind` (periodic deadline syncs may come first)."""
    for _ in range(10):
        message: dict[str, Any] = json.loads(socket.receive_text())
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message")
