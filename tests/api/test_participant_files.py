"""The files an agent shows with a widened question, as its participants get them
(docs/guides/team-mode.md#what-participants-get): through their own link
(`/api/d/<secret>/attachments/{id}`), served as the owner's route serves them, listed in
their JSON and shown on their page; never the person's answer files, another question's
files, or anything once their link is withdrawn; and the link is no key to the owner's API."""

from __future__ import annotations

import hashlib
import re

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from tests.api.conftest import agent, ask, owner
from tests.api.test_attachments import PNG, attached

pytestmark = pytest.mark.usefixtures("backend")  # on SQLite and on PostgreSQL

Client = TestClient[Litestar]
PDF = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"
SERVED_AS = ("content-type", "content-length", "content-disposition", "x-content-type-options",
             "content-security-policy", "cache-control", "etag")
"""The headers that say how a file is served: the participant's route must send the owner's."""


def mock_up_question(web: Client) -> tuple[str, dict[str, str]]:
    """A question showing a mock-up (option `a`'s own) and a PDF (the question's), widened
    to Ann and Ben: its id and each person's secret."""
    assert web.put("/api/settings", json={"team": [{"name": "Ann"}, {"name": "Ben"}]},
                   headers=agent()).status_code == 200
    body = ask(attachments=[attached("mock-a.png", "image/png", PNG, id="mock-a"),
                            attached("brief.pdf", "application/pdf", PDF, id="brief")],
               options=[{"id": "a", "label": "Mock-up A", "attachment_ids": ["mock-a"]},
                        {"id": "b", "label": "Neither"}])
    created = web.post("/api/interactions", json=body, headers=agent())
    assert created.status_code == 201, created.text
    iid = created.json()["interaction_id"]
    widened = web.post(f"/api/interactions/{iid}/widen", json={}, headers=agent())
    assert widened.status_code == 201, widened.text
    return iid, {p["name"]: p["link"].rsplit("/d/", 1)[1] for p in widened.json()["participants"]}


def served(response: object) -> dict[str, str]:
    headers = response.headers  # type: ignore[attr-defined]
    return {name: headers.get(name) for name in SERVED_AS}


def test_a_participant_gets_the_image_and_the_pdf_as_the_owner_does(anonymous: Client) -> None:
    iid, secrets = mock_up_question(anonymous)
    for file_id, data in (("mock-a", PNG), ("brief", PDF)):
        theirs = anonymous.get(f"/api/d/{secrets['Ann']}/attachments/{file_id}")
        assert theirs.status_code == 200, theirs.text
        assert theirs.content == data
        owners = anonymous.get(f"/api/interactions/{iid}/attachments/{file_id}",
                               headers=owner(anonymous))
        assert served(theirs) == served(owners)
    image = anonymous.get(f"/api/d/{secrets['Ben']}/attachments/mock-a")
    assert image.headers["content-disposition"] == "inline; filename*=UTF-8''mock-a.png"
    assert image.headers["x-content-type-options"] == "nosniff"
    assert image.headers["content-security-policy"] == "default-src 'none'; sandbox"
    assert image.headers["cache-control"].startswith("private")
    pdf = anonymous.get(f"/api/d/{secrets['Ben']}/attachments/brief")
    assert pdf.headers["content-type"] == "application/pdf"
    assert pdf.headers["content-disposition"] == "attachment; filename*=UTF-8''brief.pdf"


def test_a_participants_json_lists_the_files_and_which_option_shows_which(
        anonymous: Client) -> None:
    _, secrets = mock_up_question(anonymous)
    question = anonymous.get(f"/api/d/{secrets['Ann']}").json()["question"]
    assert [(f["id"], f["name"], f["mime_type"], f["size"], f["sha256"])
            for f in question["attachments"]] == [
        ("mock-a", "mock-a.png", "image/png", len(PNG), hashlib.sha256(PNG).hexdigest()),
        ("brief", "brief.pdf", "application/pdf", len(PDF), hashlib.sha256(PDF).hexdigest())]
    assert {o["id"]: o["attachment_ids"] for o in question["options"]} == {
        "a": ["mock-a"], "b": []}


def test_a_withdrawn_link_gets_no_file(anonymous: Client) -> None:
    iid, secrets = mock_up_question(anonymous)
    team = anonymous.get(f"/api/interactions/{iid}/team", headers=agent()).json()
    ann = next(p["participant_id"] for p in team["participants"] if p["name"] == "Ann")
    assert anonymous.get(f"/api/d/{secrets['Ann']}/attachments/mock-a").status_code == 200
    withdrawn = anonymous.delete(f"/api/interactions/{iid}/participants/{ann}", headers=agent())
    assert withdrawn.status_code == 204
    gone = anonymous.get(f"/api/d/{secrets['Ann']}/attachments/mock-a")
    assert gone.status_code == 404
    assert gone.json()["errors"][0]["code"] == "unknown_link"
    assert PNG not in gone.content
    assert anonymous.get(f"/api/d/{secrets['Ben']}/attachments/mock-a").status_code == 200


def test_another_questions_file_is_404_and_says_nothing_of_it(anonymous: Client) -> None:
    _, secrets = mock_up_question(anonymous)
    other = anonymous.post("/api/interactions", headers=agent(), json=ask(
        title="Someone else's", attachments=[attached("payroll.pdf", "application/pdf",
                                                      b"%PDF-1.4 salaries", id="payroll")]))
    assert other.status_code == 201, other.text
    refused = anonymous.get(f"/api/d/{secrets['Ann']}/attachments/payroll")
    assert refused.status_code == 404
    assert refused.json()["errors"][0]["field"] == "attachment_id"
    assert b"salaries" not in refused.content and other.json()["interaction_id"] not in refused.text
    # The same answer as for an id no question has: nothing tells the two apart.
    unknown = anonymous.get(f"/api/d/{secrets['Ann']}/attachments/nope")
    assert unknown.status_code == 404
    assert unknown.text.replace("nope", "<id>") == refused.text.replace("payroll", "<id>")


def test_the_persons_answer_files_are_not_the_teams(anonymous: Client) -> None:
    iid, secrets = mock_up_question(anonymous)
    answered = anonymous.post(f"/api/interactions/{iid}/response", headers=agent(), json={
        "selected_ids": ["a"], "attachments": [attached("private.txt", "text/plain", b"mine\n")]})
    assert answered.status_code == 200, answered.text
    assert [f["id"] for f in answered.json()["attachments"]] == ["answer-1"]
    refused = anonymous.get(f"/api/d/{secrets['Ann']}/attachments/answer-1")
    assert refused.status_code == 404 and b"mine" not in refused.content
    # The question is over; the link still shows it, files included.
    assert anonymous.get(f"/api/d/{secrets['Ann']}/attachments/brief").content == PDF


def test_a_draft_file_is_not_the_teams(anonymous: Client) -> None:
    iid, secrets = mock_up_question(anonymous)
    draft = anonymous.post(f"/api/interactions/{iid}/draft/files?name=shot.png", content=PNG,
                           headers={**agent(), "Content-Type": "image/png"})
    assert draft.status_code == 201, draft.text
    assert anonymous.get(f"/api/d/{secrets['Ann']}/attachments/{draft.json()['id']}"
                         ).status_code == 404


def test_the_owners_credentials_add_nothing_on_a_participants_route(anonymous: Client) -> None:
    iid, secrets = mock_up_question(anonymous)
    anonymous.post(f"/api/interactions/{iid}/response", headers=agent(), json={
        "selected_ids": ["a"], "attachments": [attached("private.txt", "text/plain", b"mine\n")]})
    for credentials in (agent(), owner(anonymous)):
        assert anonymous.get(f"/api/d/{secrets['Ann']}/attachments/answer-1",
                             headers=credentials).status_code == 404
        assert anonymous.get("/api/d/not-a-link/attachments/mock-a",
                             headers=credentials).status_code == 404


def test_a_participants_link_is_no_key_to_the_owners_file_route(anonymous: Client) -> None:
    iid, secrets = mock_up_question(anonymous)
    route = f"/api/interactions/{iid}/attachments/mock-a"
    for tried in ({}, {"Authorization": f"Bearer {secrets['Ann']}"}):
        refused = anonymous.get(route, headers=tried)
        assert refused.status_code == 401
        assert PNG not in refused.content
    assert anonymous.get(f"{route}?secret={secrets['Ann']}").status_code == 401


def test_the_page_shows_the_files_from_the_links_own_route(anonymous: Client) -> None:
    _, secrets = mock_up_question(anonymous)
    page = anonymous.get(f"/d/{secrets['Ann']}")
    assert page.status_code == 200
    base = f"/api/d/{secrets['Ann']}/attachments"
    option_a = page.text.split('data-option-id="a"', 1)[1].split('data-option-id="b"', 1)[0]
    assert re.search(rf'<img src="{base}/mock-a" alt="mock-a.png"', option_a)
    assert re.search(rf'<a href="{base}/brief" download[^>]*>brief.pdf</a>', page.text)
    assert "/api/interactions/" not in page.text
    csp = page.headers["content-security-policy"]
    assert "img-src 'self'" in csp


def test_a_withdrawn_links_file_is_asked_for_again_and_then_is_404_not_304(
        anonymous: Client) -> None:
    iid, secrets = mock_up_question(anonymous)
    route = f"/api/d/{secrets['Ann']}/attachments/mock-a"
    first = anonymous.get(route)
    assert first.status_code == 200 and first.content == PNG
    # The browser may keep it, but must ask before every use: nothing lets it show the file
    # from its cache after the link is gone.
    assert first.headers["cache-control"] == "private, no-cache"
    assert first.headers["etag"] == f'"{hashlib.sha256(PNG).hexdigest()}"'
    validators = {"If-None-Match": first.headers["etag"]}
    still = anonymous.get(route, headers=validators)
    assert (still.status_code, still.content) == (304, b"")
    assert still.headers["etag"] == first.headers["etag"]
    assert still.headers["cache-control"] == "private, no-cache"
    team = anonymous.get(f"/api/interactions/{iid}/team", headers=agent()).json()
    ann = next(p["participant_id"] for p in team["participants"] if p["name"] == "Ann")
    assert anonymous.delete(f"/api/interactions/{iid}/participants/{ann}",
                            headers=agent()).status_code == 204
    for asked_again in (validators, {"If-None-Match": f'W/{first.headers["etag"]}, "other"'},
                        {"If-None-Match": "*"}):
        gone = anonymous.get(route, headers=asked_again)
        assert gone.status_code == 404, asked_again
        assert gone.json()["errors"][0]["code"] == "unknown_link"
    # Ben's link still stands: his copy is still good.
    assert anonymous.get(f"/api/d/{secrets['Ben']}/attachments/mock-a",
                         headers=validators).status_code == 304


def test_a_copy_that_is_no_longer_the_file_gets_the_file(anonymous: Client) -> None:
    _, secrets = mock_up_question(anonymous)
    route = f"/api/d/{secrets['Ann']}/attachments/brief"
    for stale in ('"0000"', f'"{hashlib.sha256(PNG).hexdigest()}"', ""):
        fresh = anonymous.get(route, headers={"If-None-Match": stale})
        assert (fresh.status_code, fresh.content) == (200, PDF), stale


def test_the_owners_file_is_asked_for_again_and_refused_without_the_token(
        anonymous: Client) -> None:
    iid, _ = mock_up_question(anonymous)
    route = f"/api/interactions/{iid}/attachments/mock-a"
    first = anonymous.get(route, headers=agent())
    assert first.status_code == 200 and first.headers["cache-control"] == "private, no-cache"
    validators = {"If-None-Match": first.headers["etag"]}
    assert anonymous.get(route, headers={**agent(), **validators}).status_code == 304
    refused = anonymous.get(route, headers=validators)
    assert refused.status_code == 401 and PNG not in refused.content
