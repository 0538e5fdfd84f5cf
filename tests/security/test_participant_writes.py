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
from tests.security.conftest import FORM, JSON, Reply, first_error, refusal_code, send
from tests.security.payloads import BROWSER
from tests.security.team import Invitee, comment, same_origin, team_state, vote, widened
from tests.security.test_hosts_and_origins import foreign_origins
from tests.tally import attacks

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
    with attacks("Team: comments") as seen:
        for text in ("x" * 4001, "x" * 100_000, "é" * 4001, " " * 10, ""):
            reply = comment(portal, who, text)
            error = first_error(reply)
            seen.refused_if(reply.status == 422 and error is not None and error["field"] == "text",
                            (len(text), reply.status))
        seen.unchanged(before, team_state(portal, who.interaction_id))
    assert comment(portal, who, "y" * 4000).status == 201  # the limit itself is fine


def test_comments_beyond_20_a_minute_get_429_with_retry_after(portal: PortalProcess) -> None:
    ann, ben = widened(portal, ["Ann", "Ben"])
    opened(portal, ann, ben)
    for number in range(20):
        assert comment(portal, ann, f"point {number}").status == 201
    before = team_state(portal, ann.interaction_id)
    with attacks("Team: comments") as seen:
        for _ in range(5):
            reply = comment(portal, ann, "one more")
            retry_after = reply.headers.get("retry-after", "")
            seen.refused_if(reply.status == 429 and refusal_code(reply) == "rate_limited"
                            and retry_after.isdigit() and 1 <= int(retry_after) <= 60,
                            (reply.status, retry_after))
        seen.unchanged(before, team_state(portal, ann.interaction_id))
    assert comment(portal, ben, "my first").status == 201  # per participant, not per question


def test_hostile_comments_are_stored_verbatim_and_only_ever_sent_as_json(
        portal: PortalProcess) -> None:
    (who,) = widened(portal, ["Ann"])
    opened(portal, who)
    posted = [comment(portal, who, payload) for payload in BROWSER]
    thread = send(portal, "GET", who.api)
    data = portal.client().call("GET", f"/api/interactions/{who.interaction_id}/discussion")
    team = send(portal, "GET", f"/api/interactions/{who.interaction_id}/team",
                headers={"Authorization": f"Bearer {portal.token}"})
    assert all(reply.headers.get_content_type() == "application/json" for reply in (thread, team))
    as_json = [[m["text"] for m in reply.json()["comments"]] for reply in (thread, team)]
    with attacks("Team: comments") as seen:
        for index, (payload, reply) in enumerate(zip(BROWSER, posted, strict=True)):
            verbatim = payload.strip()
            kept = (reply.status == 201 and reply.json()["text"] == verbatim
                    and all(texts[index:index + 1] == [verbatim] for texts in as_json)
                    and data["messages"][index:index + 1] == [f"[Ann] {verbatim}"])
            seen.refused_if(kept, (payload, reply.status, reply.text[:200]))
    assert all(len(texts) == len(BROWSER) for texts in as_json)


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
    with attacks("Team: votes") as seen:
        for voter, option_ids, errors in cases:
            before = team_state(portal, voter.interaction_id)
            reply = send(portal, "PUT", f"{voter.api}/vote",
                         json.dumps({"option_ids": option_ids}), JSON)
            found = ({(e["field"], e["code"]) for e in reply.json()["errors"]}
                     if first_error(reply) else set())
            seen.refused_if(reply.status == 422 and found >= errors,
                            (option_ids, reply.status, reply.text))
            seen.unchanged(before, team_state(portal, voter.interaction_id))
    assert send(portal, "GET", who.api).json()["you"]["vote"] == ["b"]


def test_participant_writes_from_another_origin_are_refused(portal: PortalProcess) -> None:
    (who,) = widened(portal, ["Ann"])
    opened(portal, who)
    before = team_state(portal, who.interaction_id)
    with attacks("Team: participant origin") as seen:
        for forged in foreign_origins(portal.port):
            for reply in (comment(portal, who, "forged", forged),
                          vote(portal, who, ["a"], forged)):
                seen.refused_if(reply.status == 403 and refusal_code(reply) in (
                    "origin_not_allowed", "cross_site"), (forged, reply.status))
        seen.unchanged(before, team_state(portal, who.interaction_id))
    assert comment(portal, who, "from our page", same_origin(portal)).status == 201


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
    with attacks("Team: protective headers") as seen:
        for reply in answers:
            headers = reply.headers
            protected = (headers.get("x-content-type-options") == "nosniff"
                         and headers.get("referrer-policy") == "no-referrer"
                         and "frame-ancestors 'none'" in headers.get("content-security-policy", "")
                         and headers.get("cache-control") == "no-store"  # a link is a secret
                         and headers.get_content_type() == "application/json")
            seen.refused_if(protected, (reply.status, dict(headers)))
    statuses = [reply.status for reply in answers]
    assert statuses == [200, 201, 200, 422, 429, 404, 415, 405, 403, 409]


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
    with attacks("Team: bad widen input") as seen:
        for name, iid, body, status, code in cases:
            reply = send(portal, "POST", f"/api/interactions/{iid}/widen", json.dumps(body),
                         {**JSON, **token})
            seen.refused_if(reply.status == status and refusal_code(reply) == code,
                            (name, reply.status, reply.text))
        seen.unchanged(before, {iid: team_state(portal, iid) for iid in interactions})
