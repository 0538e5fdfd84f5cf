"""Team mode: Ann widens her question to Bob, a member, by his email, and to a guest by name.
Bob finds it in his list, his open page hears it, and he comments and votes signed in, as
that participant only: every owner route stays 404 for him, as for Cat, whom it was not
widened to and who reaches nothing. The audit names Bob; the guest's link still works;
withdrawing Bob ends his access at once. A real portal in team mode, a real OpenID
provider, members signed in with httpx.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
import websockets

from tests.api.test_attachments import PNG, attached
from tests.oidc.provider import (
    MISSING,
    QUESTION,
    Member,
    OidcProvider,
    filled,
    routes_about_one_question,
    team_portal,
)
from tests.portal_process import PortalProcess

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[tuple[OidcProvider, PortalProcess]]:
    with team_portal(tmp_path_factory.mktemp("widen"), members=("ann", "bob", "cat")) as both:
        yield both


def widen(ann: Member, iid: str, **body: Any) -> dict[str, Any]:
    widened = ann.call("POST", f"/api/interactions/{iid}/widen", json=body)
    assert widened.status_code == 201, widened.text
    return dict(widened.json())


def ws_url(member: Member, path: str) -> str:
    return member.portal.base_url.replace("http", "ws") + path


def headers(member: Member) -> dict[str, str]:
    return {"Cookie": member.cookie, "Origin": member.portal.base_url}


def test_bob_named_by_email_finds_it_hears_it_and_takes_part_signed_in(
        ann: Member, bob: Member) -> None:
    async def widened_while_bob_listens() -> tuple[str, dict[str, Any], dict[str, Any]]:
        async with websockets.connect(ws_url(bob, "/ws/portal"),
                                      additional_headers=headers(bob)) as socket:
            loop = asyncio.get_running_loop()
            iid = await loop.run_in_executor(None, ann.ask, "Ann asks the team")
            reply = await loop.run_in_executor(None, lambda: widen(
                ann, iid, members=["Bob@Example.com"], audience=["Gus"]))
            while True:
                message = json.loads(await asyncio.wait_for(socket.recv(), 10))
                if message.get("type") == "widened_to_you":
                    return iid, reply, message

    iid, reply, heard = asyncio.run(widened_while_bob_listens())
    assert heard == {"type": "widened_to_you", "interaction_id": iid,
                     "title": "Ann asks the team", "path": f"/widened/{iid}"}
    links = {p["name"]: p["link"] for p in reply["participants"]}
    assert links["Bob"] == f"{bob.portal.base_url}/widened/{iid}"  # no secret for a member
    assert "/d/" in links["Gus"]

    listed = bob.call("GET", "/api/interactions").json()
    assert iid in {row["interaction_id"] for row in listed["widened_to_me"]}
    assert iid not in {row["interaction_id"] for row in listed["interactions"]}
    home = bob.call("GET", "/")
    assert "Widened to you" in home.text and f'href="/widened/{iid}"' in home.text

    page = bob.call("GET", f"/widened/{iid}")
    assert page.status_code == 200 and "Ann asks the team" in page.text
    read = bob.call("GET", f"/api/widened/{iid}")
    assert read.status_code == 200, read.text
    assert read.json()["question"]["title"] == "Ann asks the team"
    said = bob.call("POST", f"/api/widened/{iid}/comments", json={"text": "PostgreSQL, surely"})
    assert said.status_code == 201, said.text
    voted = bob.call("PUT", f"/api/widened/{iid}/vote", json={"option_ids": ["pg"]})
    assert voted.status_code == 200 and voted.json() == {"option_ids": ["pg"]}
    form = bob.call("POST", f"/widened/{iid}/comment", data={"text": "from the page"})
    assert form.status_code in (200, 303), form.text[:300]

    team = ann.call("GET", f"/api/interactions/{iid}/team").json()
    assert [c["author"] for c in team["comments"]] == ["Bob", "Bob"]
    assert {t["option_id"]: t["voters"] for t in team["tally"]}["pg"] == ["Bob"]

    events = ann.call("GET", f"/api/interactions/{iid}/events").json()["events"]
    bobs = {event["kind"]: event for event in events
            if (event.get("detail") or {}).get("member") == "bob@example.com"}
    assert set(bobs) >= {"participant_invited", "participant_opened", "comment_added",
                         "vote_cast"}, [(e["kind"], e.get("detail")) for e in events]
    assert bobs["vote_cast"]["actor"].startswith("participant:")  # its spelling, as ever

    # Ann decides: the result and its audit event name her, the member who decided.
    decided = ann.call("POST", f"/api/interactions/{iid}/response", json={"selected_ids": ["pg"]})
    assert decided.status_code == 200, decided.text
    result = ann.call("GET", f"/api/interactions/{iid}").json()
    assert (result["decided_by"], result["decided_by_member"]) == ("owner", "ann@example.com")
    events = ann.call("GET", f"/api/interactions/{iid}/events").json()["events"]
    answered = [e for e in events if e["kind"] in ("answered", "resolved")]
    assert [e["detail"]["member"] for e in answered] == ["ann@example.com"]
    assert bob.call("GET", f"/api/widened/{iid}").json()["status"] != "widened"


def test_bob_reaches_no_owner_route_and_cat_reaches_nothing(
        ann: Member, bob: Member, cat: Member) -> None:
    iid = ann.ask("Ann widened, owner routes")
    bobs_id = next(p["participant_id"] for p in
                   widen(ann, iid, members=["bob@example.com"])["participants"])
    for member in (bob, cat):
        for method, template in routes_about_one_question(member):
            body = None if method in ("GET", "DELETE") else {}
            attacked = member.call(method, filled(template, iid), json=body)
            missing = member.call(method, filled(template, MISSING), json=body)
            assert attacked.status_code == 404, (member, method, template, attacked.text)
            assert attacked.text.replace(iid, MISSING) == missing.text, (method, template)
        page = member.call("GET", f"/choice/{iid}")
        assert page.status_code == 404 and "Ann widened" not in page.text
    # Nothing Bob sent reached the owner's side: the question is as Ann left it.
    assert ann.call("GET", f"/api/interactions/{iid}").json()["status"] == "widened"
    revoked = bob.call("DELETE", f"/api/interactions/{iid}/participants/{bobs_id}")
    assert revoked.status_code == 404

    # Cat, whom it was not widened to, gets what an unknown question gets, there too.
    for path in (f"/api/widened/{iid}", f"/api/widened/{iid}/comments"):
        attacked, missing = cat.call("GET", path), cat.call("GET", path.replace(iid, MISSING))
        assert attacked.status_code == missing.status_code == 404
        assert attacked.text == missing.text
    assert cat.call("PUT", f"/api/widened/{iid}/vote",
                    json={"option_ids": ["pg"]}).status_code == 404
    cats_page = cat.call("GET", f"/widened/{iid}")
    assert cats_page.status_code == 404 and "Ann widened" not in cats_page.text
    assert iid not in json.dumps(cat.call("GET", "/api/interactions").json())
    # And Ann, its owner, is no participant: her own page is the owner's.
    assert ann.call("GET", f"/api/widened/{iid}").status_code == 404


def test_the_guest_link_still_works_and_withdrawing_bob_ends_his_access_at_once(
        ann: Member, bob: Member) -> None:
    iid = ann.ask("Ann widened, then withdrew Bob")
    reply = widen(ann, iid, members=["bob@example.com"], audience=["Gus"])
    people = {p["name"]: p for p in reply["participants"]}
    secret = people["Gus"]["link"].rsplit("/d/", 1)[1]
    assert bob.client.get(f"{bob.portal.base_url}/api/d/{secret}",
                          headers={"Cookie": ""}).status_code == 200

    async def withdrawn_while_bob_watches() -> int | None:
        async with websockets.connect(ws_url(bob, f"/ws/widened/{iid}"),
                                      additional_headers=headers(bob)) as socket:
            first = json.loads(await asyncio.wait_for(socket.recv(), 10))
            assert first["type"] == "deadline" and first["status"] == "widened"
            loop = asyncio.get_running_loop()
            gone = await loop.run_in_executor(None, lambda: ann.call(
                "DELETE", f"/api/interactions/{iid}/participants/{people['Bob']['participant_id']}"))
            assert gone.status_code == 204, gone.text
            try:
                while True:
                    await asyncio.wait_for(socket.recv(), 10)
            except websockets.ConnectionClosed as closed:
                return closed.rcvd.code if closed.rcvd else None

    assert asyncio.run(withdrawn_while_bob_watches()) == 4404
    assert bob.call("GET", f"/api/widened/{iid}").status_code == 404
    assert bob.call("PUT", f"/api/widened/{iid}/vote",
                    json={"option_ids": ["pg"]}).status_code == 404
    assert "Ann widened, then withdrew Bob" not in bob.call("GET", f"/widened/{iid}").text
    listed = bob.call("GET", "/api/interactions").json()["widened_to_me"]
    assert iid not in {row["interaction_id"] for row in listed}
    # The guest's link is untouched by Bob's withdrawal.
    assert bob.client.get(f"{bob.portal.base_url}/api/d/{secret}",
                          headers={"Cookie": ""}).status_code == 200


def test_bob_gets_the_questions_files_through_his_own_session_and_cat_does_not(
        ann: Member, bob: Member, cat: Member) -> None:
    asked = ann.call("POST", "/api/interactions", json={
        **QUESTION, "title": "Ann's mock-up",
        "attachments": [attached("mock-a.png", "image/png", PNG, id="mock-a")]})
    assert asked.status_code == 201, asked.text
    iid = asked.json()["interaction_id"]
    widen(ann, iid, members=["bob@example.com"])
    page = bob.call("GET", f"/widened/{iid}")
    assert f'/api/widened/{iid}/attachments/mock-a' in page.text
    image = bob.call("GET", f"/api/widened/{iid}/attachments/mock-a")
    assert image.status_code == 200 and image.content == PNG
    refused = cat.call("GET", f"/api/widened/{iid}/attachments/mock-a")
    assert refused.status_code == 404 and refused.content != PNG


def test_bobs_file_is_asked_for_again_and_once_he_is_withdrawn_it_is_404_not_304(
        ann: Member, bob: Member) -> None:
    asked = ann.call("POST", "/api/interactions", json={
        **QUESTION, "title": "Ann's mock-up, then Bob withdrawn",
        "attachments": [attached("mock-a.png", "image/png", PNG, id="mock-a")]})
    assert asked.status_code == 201, asked.text
    iid = asked.json()["interaction_id"]
    bobs_id = next(p["participant_id"] for p in
                   widen(ann, iid, members=["bob@example.com"])["participants"])
    route = f"/api/widened/{iid}/attachments/mock-a"
    first = bob.call("GET", route)
    assert first.status_code == 200 and first.content == PNG
    assert first.headers["cache-control"] == "private, no-cache"  # his browser asks each time
    validators = {"If-None-Match": first.headers["etag"]}
    still = bob.call("GET", route, headers=validators)
    assert (still.status_code, still.content) == (304, b"")
    withdrawn = ann.call("DELETE", f"/api/interactions/{iid}/participants/{bobs_id}")
    assert withdrawn.status_code == 204, withdrawn.text
    gone = bob.call("GET", route, headers=validators)
    assert gone.status_code == 404 and gone.content != PNG


def test_an_email_no_member_signed_in_with_is_refused_naming_the_field(
        ann: Member, bob: Member) -> None:
    iid = ann.ask("Ann names a stranger")
    refused = ann.call("POST", f"/api/interactions/{iid}/widen",
                       json={"members": ["bob@example.com", "nobody@example.com"]})
    assert refused.status_code == 422, refused.text
    errors = refused.json()["errors"]
    assert [(e["field"], e["code"]) for e in errors] == [("members[1]", "unknown_member")]
    assert "nobody@example.com" in errors[0]["message"]
    herself = ann.call("POST", f"/api/interactions/{iid}/widen",
                       json={"members": ["ann@example.com"]})
    assert herself.status_code == 422
    assert herself.json()["errors"][0]["field"] == "members[0]"
    # Nothing was widened: the question waits for Ann, as before.
    assert ann.call("GET", f"/api/interactions/{iid}").json()["status"] == "pending"
