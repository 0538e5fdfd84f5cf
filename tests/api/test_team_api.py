"""The owner's team API as an agent and a script see it: the widened reply on polls, the
end-of-run list (`?status=widened`), DiscussionData, and widen's bad input, each refused
with `{field, code, message}` and changing nothing."""

from __future__ import annotations

from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from choice.portal import create_app
from choice.team.models import WidenedReply
from tests.api.conftest import BASE_URL, ask, token

pytestmark = pytest.mark.usefixtures("backend")  # on SQLite and on PostgreSQL

Client = TestClient[Litestar]


def create(client: Client, **overrides: Any) -> str:
    response = client.post("/api/interactions", json=ask(**overrides))
    assert response.status_code == 201, response.text
    return str(response.json()["interaction_id"])


def widen(client: Client, iid: str, **body: Any) -> dict[str, Any]:
    response = client.post(f"/api/interactions/{iid}/widen", json=body)
    assert response.status_code == 201, response.text
    widened: dict[str, Any] = response.json()
    return widened


def secret_of(link: str) -> str:
    return link.rsplit("/d/", 1)[1]


def state(client: Client, iid: str) -> dict[str, Any]:
    """What a refused widen must leave alone: the row, its audit trail, its team."""
    return {"detail": client.get(f"/api/interactions/{iid}/detail").json(),
            "events": client.get(f"/api/interactions/{iid}/events").json(),
            "team": client.get(f"/api/interactions/{iid}/team").json()}


def assert_field_errors(body: dict[str, Any]) -> list[dict[str, str]]:
    errors: list[dict[str, str]] = body["errors"]
    assert errors
    for error in errors:
        assert set(error) == {"field", "code", "message"} and all(error.values()), error
    return errors


def test_a_poll_of_a_widened_question_is_the_widened_reply(client: Client) -> None:
    iid = create(client)
    widen(client, iid, audience=["Alice", "Bob"], mode="block")
    polled = client.get(f"/api/interactions/{iid}?wait=0.2").json()
    WidenedReply.model_validate(polled)  # the documented shape, nothing more
    assert set(polled) == set(WidenedReply.model_fields)
    assert (polled["status"], polled["action_status"], polled["mode"]) == ("widened", "widened",
                                                                            "block")
    assert polled["participants"] == ["Alice", "Bob"] and polled["session_id"] == iid
    assert f"GET /api/interactions/{iid}?wait=60" in polled["instructions"]


def test_the_deadline_patch_of_a_widened_question_answers_the_widened_reply(client: Client) -> None:
    iid = create(client)
    widen(client, iid, audience=["Alice"])
    moved = client.patch(f"/api/interactions/{iid}", json={"timeout_seconds": 4000})
    assert moved.status_code == 200 and moved.json()["status"] == "widened"
    assert moved.json()["participants"] == ["Alice"]


def test_status_widened_lists_only_what_waits_on_the_team(client: Client) -> None:
    widened, pending, done = create(client), create(client), create(client)
    widen(client, widened, audience=["Alice"], mode="continue")
    client.post(f"/api/interactions/{done}/response", json={"selected_ids": ["pg"]})
    listed = client.get("/api/interactions?status=widened").json()["interactions"]
    active = client.get("/api/interactions?status=active").json()["interactions"]
    completed = client.get("/api/interactions?status=completed").json()["interactions"]
    assert [row["interaction_id"] for row in listed] == [widened]
    assert listed[0]["status"] == "widened"
    assert {row["interaction_id"] for row in active} == {widened, pending}
    assert [row["interaction_id"] for row in completed] == [done]


def test_discussion_data_keeps_the_newest_50_messages(client: Client) -> None:
    iid = create(client)
    invited = widen(client, iid, audience=["Alice", "Bob", "Carol"])
    secrets = {p["name"]: secret_of(p["link"]) for p in invited["participants"]}
    posted = []
    for round_ in range(19):  # 19 each: under the per-person limit of 20 a minute
        for name, secret in secrets.items():
            text = f"{name} #{round_}: <b>not html</b>\nsecond line"
            reply = client.post(f"/api/d/{secret}/comments", json={"text": text})
            assert reply.status_code == 201, reply.text
            posted.append(f"[{name}] {text}")
    client.post(f"/api/interactions/{iid}/comments", json={"text": "Owner here"})
    posted.append("[Owner] Owner here")
    data = client.get(f"/api/interactions/{iid}/discussion").json()
    assert data == {
        "participants": ["Alice", "Bob", "Carol"], "message_count": 58,
        "messages": posted[-50:], "truncated": True,
        "thread_url": f"{BASE_URL}/choice/{iid}",
    }


def test_discussion_data_of_a_short_thread_is_whole(client: Client) -> None:
    iid = create(client)
    invited = widen(client, iid, audience=["Alice"])
    client.post(f"/api/d/{secret_of(invited['participants'][0]['link'])}/comments",
                json={"text": "PG"})
    data = client.get(f"/api/interactions/{iid}/discussion").json()
    assert (data["messages"], data["message_count"], data["truncated"]) == (["[Alice] PG"], 1,
                                                                            False)


def test_discussion_data_links_to_the_public_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHOICE_PUBLIC_URL", "https://choice.example")
    with TestClient(create_app(), base_url=BASE_URL) as client:
        client.headers["Authorization"] = f"Bearer {token()}"
        iid = create(client)
        invited = widen(client, iid, audience=["Alice"])
        data = client.get(f"/api/interactions/{iid}/discussion").json()
        created_url = client.get(f"/api/interactions/{iid}").json()["url"]
    assert data["thread_url"] == f"https://choice.example/choice/{iid}" == created_url
    assert invited["participants"][0]["link"].startswith("https://choice.example/d/")


def test_discussion_of_an_unknown_interaction_is_404(client: Client) -> None:
    reply = client.get("/api/interactions/nope/discussion")
    assert reply.status_code == 404
    assert assert_field_errors(reply.json())[0]["field"] == "interaction_id"


BAD_WIDENS: list[tuple[str, dict[str, Any], int, set[tuple[str, str]]]] = [
    ("all names blank", {"audience": ["  ", "", "\t"]}, 422, {("audience", "empty")}),
    ("a control character", {"audience": ["Al\x07ice"]}, 422,
     {("audience[0]", "invalid_characters")}),
    ("a zero-width format character", {"audience": ["Bob\u200b"]}, 422,
     {("audience[0]", "invalid_characters")}),
    ("a comma in a name", {"audience": ["Alice, Bob"]}, 422,
     {("audience[0]", "invalid_characters")}),
    ("a name over 100 characters", {"audience": ["x" * 101]}, 422,
     {("audience[0]", "too_long")}),
    ("every name wrong at once", {"audience": ["ok", "a\x1bb", "x" * 101]}, 422,
     {("audience[1]", "invalid_characters"), ("audience[2]", "too_long")}),
    ("more than 100 names", {"audience": [f"P{i}" for i in range(101)]}, 422,
     {("audience", "too_many")}),
    ("audience not a list", {"audience": "Alice"}, 422, {("audience", "invalid_type")}),
    ("timeout below the minimum", {"audience": ["Alice"], "timeout_seconds": 9}, 422,
     {("timeout_seconds", "out_of_range")}),
    ("timeout above the maximum", {"audience": ["Alice"], "timeout_seconds": 86_401}, 422,
     {("timeout_seconds", "out_of_range")}),
    ("an unknown mode", {"audience": ["Alice"], "mode": "later"}, 422,
     {("mode", "invalid_choice")}),
    ("an unknown field", {"audience": ["Alice"], "deadline": 5}, 422,
     {("deadline", "unknown_field")}),
    ("a note over 2000 characters", {"audience": ["Alice"], "note": "n" * 2001}, 422,
     {("note", "too_long")}),
    ("members named on a portal without team mode", {"members": ["bob@example.com"]}, 422,
     {("members", "team_mode_only")}),
]


@pytest.mark.parametrize(("name", "body", "status", "errors"), BAD_WIDENS,
                         ids=[case[0] for case in BAD_WIDENS])
def test_a_bad_widen_is_refused_with_the_field_and_changes_nothing(
        client: Client, name: str, body: dict[str, Any], status: int,
        errors: set[tuple[str, str]]) -> None:
    iid = create(client)
    before = state(client, iid)
    reply = client.post(f"/api/interactions/{iid}/widen", json=body)
    assert reply.status_code == status, reply.text
    assert {(e["field"], e["code"]) for e in assert_field_errors(reply.json())} == errors
    assert state(client, iid) == before
    assert before["detail"]["status"] == "pending"


def test_widening_with_an_empty_team_list_says_how_to_fill_it(client: Client) -> None:
    iid = create(client)
    before = state(client, iid)
    reply = client.post(f"/api/interactions/{iid}/widen", json={"mode": "continue"})
    assert reply.status_code == 422
    (error,) = assert_field_errors(reply.json())
    assert (error["field"], error["code"]) == ("audience", "empty")
    assert "PUT /api/settings" in error["message"]
    assert state(client, iid) == before


def test_widening_an_unknown_interaction_is_404(client: Client) -> None:
    count = len(client.get("/api/interactions?status=all").json()["interactions"])
    reply = client.post("/api/interactions/0123456789abcdef/widen", json={"audience": ["A"]})
    assert reply.status_code == 404
    assert assert_field_errors(reply.json())[0]["code"] == "not_found"
    assert len(client.get("/api/interactions?status=all").json()["interactions"]) == count


def test_widening_an_ended_interaction_is_409_with_the_result_that_stands(client: Client) -> None:
    iid = create(client)
    client.post(f"/api/interactions/{iid}/response", json={"selected_ids": ["lite"]})
    before = state(client, iid)
    reply = client.post(f"/api/interactions/{iid}/widen", json={"audience": ["Alice"]})
    assert reply.status_code == 409
    assert assert_field_errors(reply.json())[0]["code"] == "already_completed"
    assert reply.json()["result"]["selected_ids"] == ["lite"]
    assert state(client, iid) == before


def test_widening_twice_is_409_already_widened_and_keeps_the_first(client: Client) -> None:
    iid = create(client)
    first = widen(client, iid, audience=["Alice"], mode="continue", note="first")
    before = state(client, iid)
    reply = client.post(f"/api/interactions/{iid}/widen",
                        json={"audience": ["Mallory"], "mode": "block", "timeout_seconds": 9000})
    assert reply.status_code == 409
    assert assert_field_errors(reply.json())[0]["code"] == "already_widened"
    after = state(client, iid)
    assert after == before
    assert [p["name"] for p in after["team"]["participants"]] == ["Alice"]
    assert after["team"]["mode"] == "continue" and after["team"]["note"] == "first"
    assert after["detail"]["expires_at"] == first["expires_at"]


def test_revoking_an_unknown_participant_is_404_and_changes_nothing(client: Client) -> None:
    iid = create(client)
    widen(client, iid, audience=["Alice"])
    before = state(client, iid)
    reply = client.delete(f"/api/interactions/{iid}/participants/0000000000000000")
    assert reply.status_code == 404
    assert assert_field_errors(reply.json())
    assert state(client, iid) == before


def test_widen_extends_the_deadline_and_never_shortens_it(client: Client) -> None:
    longer, shorter = create(client, timeout_seconds=60), create(client, timeout_seconds=3600)
    before = client.get(f"/api/interactions/{shorter}/detail").json()["expires_at"]
    extended = widen(client, longer, audience=["Alice"], timeout_seconds=7200)
    kept = widen(client, shorter, audience=["Alice"], timeout_seconds=60)
    assert extended["expires_at"] > client.get(
        f"/api/interactions/{longer}/events").json()["events"][0]["at"]
    assert kept["expires_at"] == before
    assert any("shorten" in warning for warning in kept["warnings"])
    kinds = {iid: [e["kind"] for e in client.get(f"/api/interactions/{iid}/events").json()["events"]]
             for iid in (longer, shorter)}
    assert "deadline_changed" in kinds[longer] and "deadline_changed" not in kinds[shorter]


def test_a_withdrawn_participants_vote_no_longer_counts(client: Client) -> None:
    """The tally, the owner's team view and the result's votes counted a
    vote cast through a link the owner had withdrawn."""
    iid = create(client)
    invited = widen(client, iid, audience=["Alice", "Bob"], mode="block")
    people = {p["name"]: p for p in invited["participants"]}
    for name in ("Alice", "Bob"):
        voted = client.put(f"/api/d/{secret_of(people[name]['link'])}/vote",
                           json={"option_ids": ["pg"]})
        assert voted.status_code == 200, voted.text
    gone = client.delete(f"/api/interactions/{iid}/participants/"
                         f"{people['Bob']['participant_id']}")
    assert gone.status_code in (200, 204), gone.text
    team = client.get(f"/api/interactions/{iid}/team").json()
    assert {t["option_id"]: (t["votes"], t["voters"]) for t in team["tally"]}["pg"] == (
        1, ["Alice"])
    result = client.post(f"/api/interactions/{iid}/response", json={"selected_ids": ["pg"]})
    assert result.status_code == 200, result.text
    assert {v["option_id"]: v["voters"] for v in result.json()["votes"]}["pg"] == ["Alice"]
    assert result.json()["participants"] == ["Alice"]


def test_the_thread_and_the_audit_trail_come_a_page_at_a_time(client: Client) -> None:
    iid = create(client)
    invited = widen(client, iid, audience=["Alice", "Bob", "Carol"])
    secrets = [secret_of(p["link"]) for p in invited["participants"]]
    for n in range(57):  # 19 each: under the per-person limit of 20 a minute
        reply = client.post(f"/api/d/{secrets[n % 3]}/comments", json={"text": f"c{n}"})
        assert reply.status_code == 201, reply.text
    team = client.get(f"/api/interactions/{iid}/team").json()
    assert [c["text"] for c in team["comments"]] == [f"c{n}" for n in range(7, 57)]
    assert team["comment_count"] == 57
    before = client.get(f"/api/interactions/{iid}/comments?before={team['comments_before']}")
    assert [c["text"] for c in before.json()["comments"]] == [f"c{n}" for n in range(7)]
    assert before.json()["comments_before"] is None
    mine = client.get(f"/api/d/{secrets[0]}/comments?before={team['comments_before']}").json()
    assert [(c["text"], c["by_owner"]) for c in mine["comments"]][:1] == [("c0", False)]
    assert "participant_id" not in mine["comments"][0]  # theirs: whose, not which row

    first = client.get(f"/api/interactions/{iid}/events?limit=10").json()
    rest = client.get(f"/api/interactions/{iid}/events?after={first['events_after']}").json()
    assert len(first["events"]) == 10 and rest["events_after"] is None
    whole = [e["kind"] for e in first["events"] + rest["events"]]
    assert whole.count("comment_added") == 57 and whole[:2] == ["created", "widened"]


def test_quick_vote_changes_over_the_api_are_one_audit_row(client: Client) -> None:
    iid = create(client)
    secret = secret_of(widen(client, iid, audience=["Alice"])["participants"][0]["link"])
    for option in ("pg", "lite", "pg"):
        assert client.put(f"/api/d/{secret}/vote", json={"option_ids": [option]}).status_code == 200
    rows = [e["detail"] for e in client.get(f"/api/interactions/{iid}/events").json()["events"]
            if e["kind"] == "vote_cast"]
    assert [(r["option_ids"], r["changes"]) for r in rows] == [(["pg"], 3)]


def test_the_largest_cursor_reads_from_the_newest_on_either_store(client: Client) -> None:
    iid = create(client)
    secret = secret_of(widen(client, iid, audience=["Alice"])["participants"][0]["link"])
    client.post(f"/api/d/{secret}/comments", json={"text": "only"})
    largest = 2**31 - 1  # an INTEGER id on PostgreSQL
    for path in (f"/api/interactions/{iid}/comments?before={largest}",
                 f"/api/d/{secret}/comments?before={largest}"):
        assert [c["text"] for c in client.get(path).json()["comments"]] == ["only"], path
    assert client.get(f"/api/interactions/{iid}/events?after={largest}").json() == {
        "events": [], "events_after": None}
    assert client.get(f"/d/{secret}/live?after={largest}").status_code == 200
    assert client.get(f"/api/d/{secret}/comments?before={largest + 1}").status_code == 422
