"""Files a person sends back with the answer
(docs/guides/attachments.md#the-person-sends-files-back): in the answer's body (base64), or
attached to the draft first (the raw bytes, as the page and the terminal do) and sent by
whichever answer comes. The result lists them with a URL only the token or the owner's page
opens; any other ending drops the draft's files; the limits name the field and change
nothing."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from tests.api.conftest import BASE_URL, ask
from tests.api.test_attachments import PNG, attached
from tests.api.test_team_pages import agent, owner

pytestmark = pytest.mark.usefixtures("backend")
Client = TestClient[Litestar]
MiB = 1024 * 1024


def asked(client: Client, **overrides: Any) -> str:
    created = client.post("/api/interactions", json=ask(**overrides), headers=agent())
    assert created.status_code == 201, created.text
    return str(created.json()["interaction_id"])


def attach(client: Client, iid: str, name: str, mime_type: str, data: bytes,
           headers: dict[str, str] | None = None, **query: str) -> Any:
    return client.post(f"/api/interactions/{iid}/draft/files", content=data,
                       params={"name": name, **query},
                       headers={"Content-Type": mime_type, **(agent() if headers is None else headers)})


def draft_files(client: Client, iid: str) -> list[dict[str, Any]]:
    listed = client.get(f"/api/interactions/{iid}/draft/files", headers=agent())
    assert listed.status_code == 200, listed.text
    return list(listed.json()["files"])


def events(client: Client, iid: str) -> list[dict[str, Any]]:
    return list(client.get(f"/api/interactions/{iid}/events", headers=agent()).json()["events"])


def test_files_in_the_answers_body_reach_the_agent_with_a_url(anonymous: Client) -> None:
    iid = asked(anonymous)
    answer = anonymous.post(f"/api/interactions/{iid}/response", headers=agent(), json={
        "selected_ids": ["pg"], "attachments": [attached("shot.png", "image/png", PNG),
                                                attached("log.txt", "text/plain", b"boom\n")]})
    assert answer.status_code == 200, answer.text
    files = answer.json()["attachments"]
    assert [(f["id"], f["name"], f["mime_type"], f["size"], f["sha256"]) for f in files] == [
        ("answer-1", "shot.png", "image/png", len(PNG), hashlib.sha256(PNG).hexdigest()),
        ("answer-2", "log.txt", "text/plain", 5, hashlib.sha256(b"boom\n").hexdigest())]
    assert files[0]["url"] == f"{BASE_URL}/api/interactions/{iid}/attachments/answer-1"
    polled = anonymous.get(f"/api/interactions/{iid}", headers=agent()).json()
    assert [f["id"] for f in polled["attachments"]] == ["answer-1", "answer-2"]
    fetched = anonymous.get(files[0]["url"].removeprefix(BASE_URL), headers=agent())
    assert fetched.status_code == 200 and fetched.content == PNG
    assert fetched.headers["content-disposition"].startswith("inline")
    log = anonymous.get(files[1]["url"].removeprefix(BASE_URL), headers=owner(anonymous))
    assert log.content == b"boom\n" and log.headers["content-disposition"].startswith("attachment")
    assert anonymous.get(files[0]["url"].removeprefix(BASE_URL)).status_code == 401
    added = [e for e in events(anonymous, iid) if e["kind"] == "attachment_added"]
    assert [(e["actor"], e["detail"]["name"], e["detail"]["size"], e["detail"]["sha256"])
            for e in added] == [("human:api", "shot.png", len(PNG), hashlib.sha256(PNG).hexdigest()),
                                ("human:api", "log.txt", 5, hashlib.sha256(b"boom\n").hexdigest())]


def test_the_persons_files_are_saved_with_their_types_extension_and_without_bidi_controls(
        anonymous: Client) -> None:
    iid = asked(anonymous)
    drafted = attach(anonymous, iid, "page.html", "text/plain", b"<script>x</script>")
    assert drafted.status_code == 201, drafted.text
    answer = anonymous.post(f"/api/interactions/{iid}/response", headers=agent(), json={
        "selected_ids": ["pg"], "attachments": [attached("tool\u202egnp.exe", "image/png", PNG)]})
    assert answer.status_code == 200, answer.text
    files = answer.json()["attachments"]
    assert [f["name"] for f in files] == ["page.html.txt", "toolgnp.exe.png"]
    served = [anonymous.get(f["url"].removeprefix(BASE_URL), headers=agent()) for f in files]
    assert [r.headers["content-disposition"] for r in served] == [
        "attachment; filename*=UTF-8''page.html.txt", "inline; filename*=UTF-8''toolgnp.exe.png"]


def test_the_drafts_files_go_with_whichever_answer_comes(anonymous: Client) -> None:
    iid = asked(anonymous, attachments=[attached("mock.png", "image/png", PNG, id="answer-1")])
    first = attach(anonymous, iid, "screen shot.png", "image/png", PNG,
                   headers=owner(anonymous))
    assert first.status_code == 201, first.text
    assert first.json()["id"] == "answer-2"  # the agent's file took answer-1
    second = attach(anonymous, iid, "trace.json", "application/json", b'{"ok": false}',
                    interface="terminal")
    assert [f["name"] for f in draft_files(anonymous, iid)] == ["screen shot.png", "trace.json"]
    answer = anonymous.post(f"/api/interactions/{iid}/response", headers=agent(), json={
        "selected_ids": ["lite"], "attachments": [attached("more.txt", "text/plain", b"x")]})
    assert answer.status_code == 200, answer.text
    assert [f["id"] for f in answer.json()["attachments"]] == [
        "answer-2", second.json()["id"], "answer-4"]
    assert draft_files(anonymous, iid) == []
    sent = anonymous.get(f"/api/interactions/{iid}/attachments/answer-2", headers=agent())
    assert sent.content == PNG
    actors = [e["actor"] for e in events(anonymous, iid) if e["kind"] == "attachment_added"]
    assert actors == ["agent", "human:web", "human:terminal", "human:api"]


def test_a_file_taken_off_the_draft_is_not_sent(anonymous: Client) -> None:
    iid = asked(anonymous)
    kept = attach(anonymous, iid, "a.png", "image/png", PNG).json()
    dropped = attach(anonymous, iid, "b.txt", "text/plain", b"b").json()
    gone = anonymous.delete(f"/api/interactions/{iid}/draft/files/{dropped['id']}",
                            headers=agent())
    assert gone.status_code == 204, gone.text
    assert anonymous.delete(f"/api/interactions/{iid}/draft/files/{dropped['id']}",
                            headers=agent()).status_code == 404
    answer = anonymous.post(f"/api/interactions/{iid}/response", headers=agent(),
                            json={"selected_ids": ["pg"]})
    assert [f["id"] for f in answer.json()["attachments"]] == [kept["id"]]
    assert anonymous.delete(f"/api/interactions/{iid}/draft/files/{kept['id']}",
                            headers=agent()).status_code == 404  # sent: part of the answer
    assert "attachment_removed" in [e["kind"] for e in events(anonymous, iid)]


def test_an_unknown_file_is_named_as_a_file_and_an_unknown_question_as_a_question(
        anonymous: Client) -> None:
    iid = asked(anonymous)
    unknown_file = anonymous.delete(f"/api/interactions/{iid}/draft/files/a1", headers=agent())
    assert unknown_file.status_code == 404
    [error] = unknown_file.json()["errors"]
    assert (error["field"], error["code"]) == ("file_id", "not_found")
    assert error["message"].startswith("no file 'a1' on this question's draft")
    assert f"GET /api/interactions/{iid}/draft/files" in error["message"]
    unknown_question = anonymous.delete("/api/interactions/nosuchquestion/draft/files/a1",
                                        headers=agent())
    assert unknown_question.status_code == 404
    assert unknown_question.json()["errors"][0]["field"] == "interaction_id"
    assert "no interaction with id 'nosuchquestion'" in unknown_question.json()["errors"][0]["message"]
    shown = anonymous.get(f"/api/interactions/{iid}/attachments/a9", headers=agent())
    assert shown.status_code == 404
    assert (shown.json()["errors"][0]["field"], shown.json()["errors"][0]["message"][:14]) == (
        "attachment_id", "no file 'a9' w")


@pytest.mark.parametrize("ending", ["cancel", "withdraw"])
def test_any_other_ending_drops_the_drafts_files(anonymous: Client, ending: str) -> None:
    iid = asked(anonymous)
    file_id = attach(anonymous, iid, "a.png", "image/png", PNG).json()["id"]
    body = {"reason": "solved"} if ending == "withdraw" else {}
    ended = anonymous.post(f"/api/interactions/{iid}/{ending}", json=body, headers=agent())
    assert ended.status_code == 200, ended.text
    assert ended.json()["attachments"] == []
    assert anonymous.get(f"/api/interactions/{iid}/attachments/{file_id}",
                         headers=agent()).status_code == 404
    late = attach(anonymous, iid, "late.png", "image/png", PNG)
    assert late.status_code == 409, late.text


@pytest.mark.parametrize(("name", "mime_type", "data", "field"), [
    ("x.svg", "image/svg+xml", b"<svg/>", "mime_type"),
    ("x.html", "text/html", b"<p>", "mime_type"),
    ("x.exe", "application/x-msdownload", b"MZ", "mime_type"),
    ("empty.png", "image/png", b"", "data"),
    ("big.png", "image/png", b"\0" * (10 * MiB + 1), "data"),
])
def test_a_refused_file_names_the_field_and_attaches_nothing(
        anonymous: Client, name: str, mime_type: str, data: bytes, field: str) -> None:
    iid = asked(anonymous)
    refused = attach(anonymous, iid, name, mime_type, data)
    assert refused.status_code == 422, refused.text
    assert field in [e["field"] for e in refused.json()["errors"]]
    assert draft_files(anonymous, iid) == []


def test_five_files_at_most_and_a_bigger_body_is_413(anonymous: Client) -> None:
    iid = asked(anonymous)
    for index in range(5):
        assert attach(anonymous, iid, f"{index}.png", "image/png", PNG).status_code == 201
    sixth = attach(anonymous, iid, "6.png", "image/png", PNG)
    assert sixth.status_code == 422 and sixth.json()["errors"][0]["field"] == "data"
    too_many = anonymous.post(f"/api/interactions/{iid}/response", headers=agent(), json={
        "selected_ids": ["pg"], "attachments": [attached("7.png", "image/png", PNG)]})
    assert too_many.status_code == 422, too_many.text
    assert "attachments" in [e["field"] for e in too_many.json()["errors"]]
    assert anonymous.get(f"/api/interactions/{iid}", headers=agent()).json()["status"] == "pending"
    huge = attach(anonymous, iid, "huge.png", "image/png", b"\0" * (11 * MiB))
    assert huge.status_code == 413, huge.text
    assert "under 10 MiB (one file" in huge.json()["errors"][0]["message"]
    assert len(draft_files(anonymous, iid)) == 5


def test_a_refused_answer_stores_none_of_its_files(anonymous: Client) -> None:
    iid = asked(anonymous)
    refused = anonymous.post(f"/api/interactions/{iid}/response", headers=agent(), json={
        "selected_ids": ["pg"], "attachments": [attached("ok.png", "image/png", PNG),
                                                attached("x.svg", "image/svg+xml", b"<svg/>")]})
    assert refused.status_code == 422
    assert [e["field"] for e in refused.json()["errors"]] == ["attachments[1].mime_type"]
    checked = anonymous.post(f"/api/interactions/{iid}/response?dry_run=1", headers=agent(), json={
        "selected_ids": ["pg"], "attachments": [attached("ok.png", "image/png", PNG)]})
    assert checked.status_code == 200 and checked.json()["attachments"][0]["id"] == "answer-1"
    assert anonymous.get(f"/api/interactions/{iid}/attachments/answer-1",
                         headers=agent()).status_code == 404
    assert "attachment_added" not in [e["kind"] for e in events(anonymous, iid)]


def test_attaching_needs_the_token_or_the_owners_page(anonymous: Client) -> None:
    iid = asked(anonymous)
    refused = attach(anonymous, iid, "a.png", "image/png", PNG, headers={})
    assert refused.status_code == 401
    assert anonymous.get(f"/api/interactions/{iid}/draft/files").status_code == 401
    assert attach(anonymous, "nosuchquestion", "a.png", "image/png", PNG).status_code == 404
