"""What a participant may write, and how: comments capped at 4,000 characters and at 20 a
minute (429 with Retry-After), stored and returned verbatim as JSON text (the API never
answers HTML: the pages escape it, `tests/security/test_hostile_text_browser.py` style);
votes only for the question's own option ids; writes from a foreign origin refused; the
protective headers on every `/api/d` answer. And the owner's widen: each kind of bad input
is a clear 4xx with `{field, code, message}` that changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from tests.portal_process import PortalProcess
from tests.security.conftest import FORM, JSON, Reply, field_errors, send
from tests.security.payloads import BROWSER
from tests.security.team import Invitee, comment, same_origin, team_state, vote, widened
from tests.security.test_hosts_and_origins import foreign_origins
from tests.tally import record

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def portal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PortalProcess]:
    process = PortalProcess(tmp_path_factory.mktemp("participant-writes-portal")).start()
    yield process
    process.stop()


def opened(portal: PortalProcess, *invitees: Invitee) -> None:
    """Open each link once (the first opening is audited), so later comparisons of the
    state see only what the request under test did."""
    for who in invitees:
        assert send(portal, "GET", who.api).status == 200


def test_a_comment_over_4000_characters_is_refused(portal: PortalProcess) -> None:
    (who,) = widened(portal, ["Ann"])
    opened(portal, who)
    before = team_state(portal, who.interaction_id)
    tried = 0
    for text in ("x" * 4001, "x" * 100_000, "é" * 4001, " " * 10, ""):
        reply = comment(portal, who, text)
        assert reply.status == 422, (len(text), reply.status)
        assert field_errors(reply)[0]["field"] == "text"
        tried += 1
    assert team_state(portal, who.interaction_id) == before
    assert comment(portal, who, "y" * 4000).status == 201  # the limit itself is fine
    record("security", "Team: comments", tried=tried, refused=tried)


def test_comments_beyond_20_a_minute_get_429_with_retry_after(portal: PortalProcess) -> None:
    ann, ben = widened(portal, ["Ann", "Ben"])
    opened(portal, ann, ben)
    for number in range(20):
        assert comment(portal, ann, f"point {number}").status == 201
    before = team_state(portal, ann.interaction_id)
    tried = 0
    for _ in range(5):
        reply = comment(portal, ann, "one more")
        assert reply.status == 429
        assert field_errors(reply)[0]["code"] == "rate_limited"
        assert 1 <= int(reply.headers["retry-after"]) <= 60
        tried += 1
    assert team_state(portal, ann.interaction_id) == before
    assert comment(portal, ben, "my first").status == 201  # per participant, not per question
    record("security", "Team: comments", tried=tried, refused=tried)


def test_hostile_comments_are_stored_verbatim_and_only_ever_sent_as_json(
        portal: PortalProcess) -> None:
    (who,) = widened(portal, ["Ann"])
    opened(portal, who)
    for payload in BROWSER:
        reply = comment(portal, who, payload)
        assert reply.status == 201, (payload, reply.text)
        assert reply.json()["text"] == payload.strip()
    thread = send(portal, "GET", who.api)
    data = portal.client().call("GET", f"/api/interactions/{who.interaction_id}/discussion")
    team = send(portal, "GET", f"/api/interactions/{who.interaction_id}/team",
                headers={"Authorization": f"Bearer {portal.token}"})
    for reply in (thread, team):
        assert reply.headers.get_content_type() == "application/json"
        assert [m["text"] for m in reply.json()["messages"]] == [p.strip() for p in BROWSER]
    assert data["messages"] == [f"[Ann] {p.strip()}" for p in BROWSER]
    record("security", "Team: comments", tried=len(BROWSER), refused=len(BROWSER))


def test_votes_name_only_the_questions_own_options(portal: PortalProcess) -> None:
    (who,) = widened(portal, ["Ann"])
    (multi,) = widened(portal, ["Ann"], selection_mode="multi", max_selections=2,
                       options=[{"id": "a", "label": "A"}, {"id": "b", "label": "B"},
                                {"id": "c", "label": "C"}])
    (free,) = widened(portal, ["Ann"], selection_mode="text_input", options=[])
    opened(portal, who, multi, free)
    assert vote(portal, who, ["b"]).status == 200
    cases: list[tuple[Invitee, object, set[tuple[str, str]]]] = [
        (who, ["z"], {("option_ids[0]", "unknown_option")}),
        (who, ["b", "<script>"], {("option_ids[1]", "unknown_option")}),
        (who, ["a", "b"], {("option_ids", "too_many")}),
        (who, ["a", "a"], {("option_ids", "duplicate")}),
        (who, ["A"], {("option_ids[0]", "unknown_option")}),
        (who, "a", {("option_ids", "invalid_type")}),
        (who, [1], {("option_ids[0]", "invalid_type")}),
        (multi, ["a", "b", "c"], {("option_ids", "too_many")}),
        (free, ["a"], {("option_ids", "no_options")}),
    ]
    tried = 0
    for voter, option_ids, errors in cases:
        before = team_state(portal, voter.interaction_id)
        reply = send(portal, "PUT", f"{voter.api}/vote", json.dumps({"option_ids": option_ids}),
                     JSON)
        assert reply.status == 422, (option_ids, reply.status, reply.text)
        assert {(e["field"], e["code"]) for e in field_errors(reply)} >= errors, reply.text
        assert team_state(portal, voter.interaction_id) == before
        tried += 1
    assert send(portal, "GET", who.api).json()["you"]["vote"] == ["b"]
    record("security", "Team: votes", tried=tried, refused=tried)


def test_participant_writes_from_another_origin_are_refused(portal: PortalProcess) -> None:
    (who,) = widened(portal, ["Ann"])
    opened(portal, who)
    before = team_state(portal, who.interaction_id)
    tried = 0
    for forged in foreign_origins(portal.port):
        for reply in (comment(portal, who, "forged", forged), vote(portal, who, ["a"], forged)):
            assert reply.status == 403, (forged, reply.status)
            assert field_errors(reply)[0]["code"] in ("origin_not_allowed", "cross_site")
            tried += 1
    assert team_state(portal, who.interaction_id) == before
    assert comment(portal, who, "from our page", same_origin(portal)).status == 201
    record("security", "Team: participant origin", tried=tried, refused=tried)


def test_every_participant_answer_carries_the_protective_headers(portal: PortalProcess) -> None:
    ann, ben = widened(portal, ["Ann", "Ben"])
    opened(portal, ann)
    for number in range(20):
        comment(portal, ben, f"{number}")
    answers: list[Reply] = [
        send(portal, "GET", ann.api),
        comment(portal, ann, "hello"),
        vote(portal, ann, ["a"]),
        vote(portal, ann, ["zzz"]),
        comment(portal, ben, "over the limit"),
        send(portal, "GET", "/api/d/" + "A" * 32),
        send(portal, "POST", f"{ann.api}/comments", "text=form", FORM),
        send(portal, "DELETE", ann.api),
        comment(portal, ann, "forged", {"Origin": "https://evil.example"}),
    ]
    portal.client().call("POST", f"/api/interactions/{ann.interaction_id}/cancel", {})
    answers.append(comment(portal, ann, "after the end"))
    statuses = [reply.status for reply in answers]
    assert statuses == [200, 201, 200, 422, 429, 404, 415, 405, 403, 409]
    for reply in answers:
        headers = reply.headers
        assert headers["x-content-type-options"] == "nosniff", reply.status
        assert headers["referrer-policy"] == "no-referrer", reply.status
        assert "frame-ancestors 'none'" in headers["content-security-policy"], reply.status
        assert headers["cache-control"] == "no-store", reply.status  # a link is a secret
        assert headers.get_content_type() == "application/json", reply.status
    record("security", "Team: protective headers", tried=len(answers), refused=len(answers))


def test_bad_widens_are_clear_errors_that_change_nothing(portal: PortalProcess) -> None:
    client = portal.client()
    token = {"Authorization": f"Bearer {portal.token}"}
    (widened_once,) = widened(portal, ["Ann"])
    (ended,) = widened(portal, ["Ann"])
    client.call("POST", f"/api/interactions/{ended.interaction_id}/response",
                {"selected_ids": ["a"]})
    pending = client.create({"title": "Pending", "prompt": "Context.",
                             "options": [{"id": "a", "label": "A"}]})["interaction_id"]
    cases = [
        ("unknown interaction", "0123456789abcdef", {"audience": ["Ann"]}, 404, "not_found"),
        ("ended interaction", ended.interaction_id, {"audience": ["Ann"]}, 409,
         "already_completed"),
        ("widened twice", widened_once.interaction_id, {"audience": ["Mallory"]}, 409,
         "already_widened"),
        ("empty audience after trimming", pending, {"audience": [" ", "\t", ""]}, 422, "empty"),
        ("no team list and no audience", pending, {}, 422, "empty"),
        ("control characters", pending, {"audience": ["Ann\x1b[31m"]}, 422,
         "invalid_characters"),
        ("a bidi override", pending, {"audience": ["Ann\u202e"]}, 422, "invalid_characters"),
        ("a comma", pending, {"audience": ["Ann, Ben"]}, 422, "invalid_characters"),
        ("over 100 characters", pending, {"audience": ["A" * 101]}, 422, "too_long"),
        ("timeout out of range", pending, {"audience": ["Ann"], "timeout_seconds": 1}, 422,
         "out_of_range"),
    ]
    interactions = {ended.interaction_id, widened_once.interaction_id, pending}
    before = {iid: team_state(portal, iid) for iid in interactions}
    for name, iid, body, status, code in cases:
        reply = send(portal, "POST", f"/api/interactions/{iid}/widen", json.dumps(body),
                     {**JSON, **token})
        assert reply.status == status, (name, reply.status, reply.text)
        errors = field_errors(reply)
        assert errors[0]["code"] == code, (name, errors)
    assert {iid: team_state(portal, iid) for iid in interactions} == before
    record("security", "Team: bad widen input", tried=len(cases), refused=len(cases))
