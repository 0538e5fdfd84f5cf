"""Team mode: a question is its member's. Member B attacks member A's question by its id on
every surface (every API route about one question that the OpenAPI document lists, with
and without `?wait`, the page, its socket, the list, the event stream, the MCP tools) and
gets what an id that does not exist gets, word for word; A gets the question. A real
portal in team mode on a real port, a real OpenID provider, members signed in with httpx.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets

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
    with team_portal(tmp_path_factory.mktemp("ownership"), members=("ann", "bob")) as both:
        yield both


def test_every_api_route_answers_another_members_question_as_a_missing_one(
        ann: Member, bob: Member) -> None:
    iid = ann.ask()
    routes = routes_about_one_question(bob)
    assert len(routes) >= 20, routes  # the API's question routes, not a few
    for method, template in routes:
        for query in ("", "?wait=1"):
            body = None if method in ("GET", "DELETE") else {}
            attacked = bob.call(method, filled(template, iid) + query, json=body)
            missing = bob.call(method, filled(template, MISSING) + query, json=body)
            assert attacked.status_code == 404, (method, template, attacked.text)
            assert attacked.text.replace(iid, MISSING) == missing.text, (method, template)
            assert "A's private context" not in attacked.text
    # Ann's own question is hers, and nothing Bob sent changed it.
    mine = ann.call("GET", f"/api/interactions/{iid}/detail")
    assert mine.status_code == 200 and mine.json()["request"]["prompt"] == QUESTION["prompt"]
    assert mine.json()["status"] == "pending"
    events = ann.call("GET", f"/api/interactions/{iid}/events").json()["events"]
    assert [event["kind"] for event in events] == ["created"]


def test_the_page_and_the_list_show_a_member_only_their_own(ann: Member, bob: Member) -> None:
    iid = ann.ask("Ann page question")
    attacked = bob.call("GET", f"/choice/{iid}")
    missing = bob.call("GET", f"/choice/{MISSING}")
    assert attacked.status_code == missing.status_code == 404
    assert attacked.text.replace(iid, MISSING) == missing.text
    assert "Ann page question" not in attacked.text
    assert ann.call("GET", f"/choice/{iid}").status_code == 200

    bobs = bob.ask("Bob own question")
    for status in ("all", "active"):
        listed = bob.call("GET", f"/api/interactions?status={status}").json()["interactions"]
        assert [row["interaction_id"] for row in listed] == [bobs]
    assert iid in {row["interaction_id"] for row in
                   ann.call("GET", "/api/interactions").json()["interactions"]}
    home = bob.call("GET", "/")
    assert home.status_code == 200
    assert "Bob own question" in home.text and "Ann page question" not in home.text


def test_the_event_stream_replays_and_sends_only_the_members_questions(
        ann: Member, bob: Member) -> None:
    before = ann.ask("Ann before the stream")
    seen: list[tuple[str, str]] = []
    with bob.client.stream("GET", f"{bob.portal.base_url}/api/stream") as stream:
        kind = ""
        lines = stream.iter_lines()
        ann.ask("Ann during the stream")
        mine = bob.ask("Bob marker")
        for line in lines:
            if line.startswith("event: "):
                kind = line.removeprefix("event: ")
            elif line.startswith("data: "):
                data = json.loads(line.removeprefix("data: "))
                seen.append((kind, str(data.get("interaction_id") or data.get("title"))))
                if data.get("interaction_id") == mine and not data.get("replay"):
                    break
    assert all("Ann" not in what and what != before for _, what in seen), seen
    assert ("interaction.created", mine) in seen


def test_the_socket_of_another_members_question_tells_nothing(
        ann: Member, bob: Member) -> None:
    iid = ann.ask("Ann socket question")
    url = bob.portal.base_url.replace("http", "ws")

    async def attack() -> tuple[list[str], int | None]:
        got: list[str] = []
        async with websockets.connect(f"{url}/ws/choice/{iid}", additional_headers={
                "Cookie": bob.cookie, "Origin": bob.portal.base_url}) as socket:
            try:
                while True:
                    got.append(str(await asyncio.wait_for(socket.recv(), 10)))
            except websockets.ConnectionClosed as closed:
                return got, closed.rcvd.code if closed.rcvd else None

    try:
        messages, code = asyncio.run(attack())
    except websockets.InvalidStatus as refused:  # refused at the handshake: nothing said
        messages, code = [], refused.response.status_code
    assert messages == [] and code is not None, (messages, code)
    assert all(iid not in message for message in messages)


def test_the_portal_socket_hears_only_the_members_questions(ann: Member, bob: Member) -> None:
    url = bob.portal.base_url.replace("http", "ws")

    async def listen() -> list[dict[str, Any]]:
        async with websockets.connect(f"{url}/ws/portal", additional_headers={
                "Cookie": bob.cookie, "Origin": bob.portal.base_url}) as socket:
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(None, ann.ask, "Ann secret title")
            mine = await loop.run_in_executor(None, bob.ask, "Bob socket marker")
            heard: list[dict[str, Any]] = []
            while True:
                message = json.loads(await asyncio.wait_for(socket.recv(), 10))
                heard.append(message)
                if message.get("interaction_id") == mine:
                    return heard

    heard = asyncio.run(listen())
    assert all("Ann" not in json.dumps(message) for message in heard), heard
    assert [m["type"] for m in heard if m.get("type") == "created"] == ["created"]


def test_the_mcp_tools_take_and_list_only_the_members_questions(
        ann: Member, bob: Member) -> None:
    import httpx2
    from mcp.client.session import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    iid = ann.ask("Ann mcp question")

    def said(result: Any) -> str:
        return " ".join(getattr(part, "text", "") for part in result.content)

    async def attack() -> dict[str, Any]:
        headers = {"Cookie": bob.cookie, "Origin": bob.portal.base_url}
        async with httpx2.AsyncClient(headers=headers, timeout=30) as http, \
                streamable_http_client(f"{bob.portal.base_url}/mcp", http_client=http) as streams, \
                ClientSession(streams[0], streams[1]) as session:
            await session.initialize()
            got: dict[str, Any] = {"pending": said(await session.call_tool("list_pending", {}))}
            for tool, extra in (("provide_choice", {}), ("withdraw_question", {"reason": "mine"}),
                                ("submit_candidate", {"selected_ids": ["pg"]})):
                for which in (iid, MISSING):
                    result = await session.call_tool(tool, {"session_id": which, **extra})
                    got[f"{tool} {which}"] = (result.is_error, said(result))
            asked = await session.call_tool("provide_choice", {
                **QUESTION, "title": "Bob mcp question", "interface": "terminal"})
            got["asked"] = said(asked)
            return got

    got = asyncio.run(attack())
    assert "Ann mcp question" not in got["pending"] and iid not in got["pending"]
    for tool in ("provide_choice", "withdraw_question", "submit_candidate"):
        error, text = got[f"{tool} {iid}"]
        assert error, (tool, text)
        assert (error, text.replace(iid, MISSING)) == got[f"{tool} {MISSING}"], tool
    assert ann.call("GET", f"/api/interactions/{iid}").json()["status"] == "pending"
    # What Bob asked over MCP is Bob's: in his list, not in Ann's.
    bobs = {row["title"]: row["interaction_id"] for row in
            bob.call("GET", "/api/interactions").json()["interactions"]}
    assert "Bob mcp question" in bobs
    assert ann.call("GET", f"/api/interactions/{bobs['Bob mcp question']}").status_code == 404


def test_a_local_portals_questions_go_to_the_first_admin_who_signs_in(
        tmp_path: Any) -> None:
    from tests.oidc.provider import ADMIN

    local = PortalProcess(tmp_path / "portal").start()  # the current release, local mode
    try:
        client = local.client()
        answered = client.call("POST", "/api/interactions", {**QUESTION, "title": "Decided"})
        client.call("POST", f"/api/interactions/{answered['interaction_id']}/response",
                    {"selected_ids": ["lite"]})
        waiting = client.call("POST", "/api/interactions", {**QUESTION, "title": "Waiting"})
        before = {iid: client.call("GET", f"/api/interactions/{iid}/detail") for iid in
                  (answered["interaction_id"], waiting["interaction_id"])}
    finally:
        local.stop()

    with team_portal(tmp_path) as (provider, portal):  # the same data dir, now a team's
        provider.set_account("dee", "dee@example.com", "Dee")
        provider.set_account("boss", ADMIN, "The Admin")
        dee = Member(portal, "dee@example.com")  # not an admin: nothing of the owner's
        assert dee.call("GET", "/api/interactions?status=all").json()["interactions"] == []
        boss = Member(portal, ADMIN)
        listed = boss.call("GET", "/api/interactions?status=all").json()["interactions"]
        assert {row["interaction_id"] for row in listed} == set(before)
        for iid, detail in before.items():
            now = boss.call("GET", f"/api/interactions/{iid}/detail").json()
            assert {key: now[key] for key in ("status", "request", "result")} == \
                {key: detail[key] for key in ("status", "request", "result")}
        done = boss.call("POST", f"/api/interactions/{waiting['interaction_id']}/response",
                         json={"selected_ids": ["pg"]})
        assert done.status_code == 200 and done.json()["selected_ids"] == ["pg"]
        assert dee.call("GET", f"/api/interactions/{waiting['interaction_id']}").status_code \
            == 404


def test_a_question_asked_with_a_members_token_is_that_members(
        ann: Member, bob: Member) -> None:
    made = ann.call("POST", "/api/tokens", json={"name": "ann's laptop agent"})
    assert made.status_code == 201, made.text
    agent = {"Authorization": f"Bearer {made.json()['token']}"}
    asked = httpx.post(f"{ann.portal.base_url}/api/interactions", headers=agent,
                       json={**QUESTION, "title": "Asked by Ann's agent"}, timeout=20)
    assert asked.status_code == 201, asked.text
    iid = asked.json()["interaction_id"]
    assert ann.call("GET", f"/choice/{iid}").status_code == 200  # her browser sees its page
    assert bob.call("GET", f"/choice/{iid}").status_code == 404
    assert bob.call("GET", f"/api/interactions/{iid}").status_code == 404
    # Bob's agent's token reaches none of it either.
    bobs = bob.call("POST", "/api/tokens", json={"name": "bob's agent"}).json()["token"]
    polled = httpx.get(f"{bob.portal.base_url}/api/interactions/{iid}",
                       headers={"Authorization": f"Bearer {bobs}"}, timeout=20)
    assert polled.status_code == 404
    listed = httpx.get(f"{bob.portal.base_url}/api/interactions",
                       headers={"Authorization": f"Bearer {bobs}"}, timeout=20)
    assert iid not in listed.text


def test_an_mcp_session_answers_only_the_member_who_opened_it(
        ann: Member, bob: Member) -> None:
    accept = {"Accept": "application/json, text/event-stream",
              "Content-Type": "application/json"}
    opened = ann.call("POST", "/mcp", headers=accept, json={
        "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "ann-agent", "version": "1"}}})
    assert opened.status_code == 200, opened.text
    session = opened.headers["mcp-session-id"]
    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
               "params": {"name": "list_pending", "arguments": {}}}
    taken = bob.call("POST", "/mcp", headers={**accept, "Mcp-Session-Id": session},
                     json=listing)
    unknown = bob.call("POST", "/mcp", headers={**accept, "Mcp-Session-Id": "f" * 32},
                       json=listing)
    assert taken.status_code == unknown.status_code == 404
    assert taken.text == unknown.text
    ann.call("POST", "/mcp", headers={**accept, "Mcp-Session-Id": session},
             json={"jsonrpc": "2.0", "method": "notifications/initialized"})
    own = ann.call("POST", "/mcp", headers={**accept, "Mcp-Session-Id": session}, json=listing)
    assert own.status_code == 200, own.text
