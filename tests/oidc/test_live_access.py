"""Team mode: a member's open sockets and event streams end with the access that opened them.
Signing out closes the member's tabs' sockets with "sign in first" (4401); revoking an agent
token ends the stream it opened (the member's browser stays signed in); an admin ending a
member's access closes their sockets (their own question's, their list's, and the page of a
question widened to them) and ends their token's stream; a revoked token ends the MCP reply
its agent was waiting on. A real portal in team mode, a real
OpenID provider, members signed in through it; each wait is on the event, with a bound.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable, Iterator
from contextlib import AsyncExitStack

import httpx
import pytest
import websockets

from tests.oidc.provider import ADMIN, QUESTION, Member, OidcProvider, team_portal
from tests.portal_process import PortalProcess

pytestmark = pytest.mark.slow

BOUND = 30.0
"""Seconds a socket or stream may take to end: far above the portal's few-second check."""
SIGN_IN_FIRST = 4401
ACCOUNTS = itertools.count()


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[tuple[OidcProvider, PortalProcess]]:
    with team_portal(tmp_path_factory.mktemp("live-access")) as both:
        both[0].set_account("the-admin", ADMIN, "The Admin")
        yield both


class Account(Member):
    """A member's signed-in browser that knows the member's email."""

    def __init__(self, portal: PortalProcess, email: str) -> None:
        super().__init__(portal, email)
        self.email = email


@pytest.fixture
def member(team: tuple[OidcProvider, PortalProcess]) -> Callable[[str], Account]:
    """`member("ann")`: a new account ann-N@example.com, signed in in its own browser."""
    provider, portal = team

    def signed_in(handle: str) -> Account:
        handle = f"{handle}-{next(ACCOUNTS)}"
        provider.set_account(handle, f"{handle}@example.com", handle.title())
        return Account(portal, f"{handle}@example.com")

    return signed_in


async def open_socket(member: Member, path: str) -> websockets.ClientConnection:
    url = member.portal.base_url.replace("http", "ws") + path
    return await websockets.connect(url, additional_headers={
        "Cookie": member.cookie, "Origin": member.portal.base_url})


async def first_message(socket: websockets.ClientConnection) -> dict[str, object]:
    async with asyncio.timeout(BOUND):
        return dict(json.loads(await socket.recv()))


async def close_code(socket: websockets.ClientConnection) -> int | None:
    """Read until the server closes the socket (within `BOUND`): the code it closed with."""
    async with asyncio.timeout(BOUND):
        try:
            while True:
                await socket.recv()
        except websockets.ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else None


async def open_stream(stack: AsyncExitStack, portal: PortalProcess, secret: str
                      ) -> httpx.Response:
    client = await stack.enter_async_context(httpx.AsyncClient(timeout=BOUND))
    stream = await stack.enter_async_context(client.stream(
        "GET", f"{portal.base_url}/api/stream", headers={"Authorization": f"Bearer {secret}"}))
    assert stream.status_code == 200
    return stream


async def stream_end(stream: httpx.Response) -> list[str]:
    """Read the stream until the server ends it (within `BOUND`): its lines."""
    lines: list[str] = []
    async with asyncio.timeout(BOUND):
        async for line in stream.aiter_lines():
            lines.append(line)
    return lines


def make_token(member: Member) -> dict[str, str]:
    made = member.call("POST", "/api/tokens", json={"name": "agent"})
    assert made.status_code == 201, made.text
    return dict(made.json())


def test_signing_out_closes_the_members_open_sockets(member: Callable[[str], Account]) -> None:
    ann = member("ann")
    iid = ann.ask("Open while Ann signs out")

    async def scenario() -> tuple[int | None, int | None]:
        question, tab = await open_socket(ann, f"/ws/choice/{iid}"), await open_socket(
            ann, "/ws/portal")
        async with question, tab:
            assert (await first_message(question))["type"] == "deadline"
            out = await asyncio.to_thread(ann.call, "POST", "/logout")
            assert out.status_code == 303
            return await close_code(question), await close_code(tab)

    assert asyncio.run(scenario()) == (SIGN_IN_FIRST, SIGN_IN_FIRST)


def test_a_revoked_token_ends_its_stream_and_the_browser_stays_signed_in(
        member: Callable[[str], Account]) -> None:
    ann = member("ann")
    token = make_token(ann)
    ann.ask("Replayed to Ann's agent")

    async def scenario() -> tuple[list[str], dict[str, object]]:
        async with AsyncExitStack() as stack:
            stream = await open_stream(stack, ann.portal, token["token"])
            tab = await stack.enter_async_context(await open_socket(ann, "/ws/portal"))
            revoked = await asyncio.to_thread(ann.call, "DELETE", f"/api/tokens/{token['id']}")
            assert revoked.status_code in (200, 204), revoked.text
            lines = await stream_end(stream)
            # The session's socket is still served: a question asked now reaches it.
            asked = await asyncio.to_thread(ann.ask, "Heard after the revocation")
            async with asyncio.timeout(BOUND):
                while (heard := json.loads(await tab.recv())).get("interaction_id") != asked:
                    pass
            return lines, heard

    lines, heard = asyncio.run(scenario())
    assert "event: interaction.created" in lines  # it was live: the replay came
    assert heard["type"] == "created"
    assert ann.call("GET", "/api/me").status_code == 200


def test_an_admin_ending_access_closes_the_members_sockets_and_ends_their_stream(
        member: Callable[[str], Account], team: tuple[OidcProvider, PortalProcess]) -> None:
    ann, bob, admin = member("ann"), member("bob"), Member(team[1], ADMIN)
    token = make_token(bob)
    owns = bob.ask("Bob's own question")
    widened = ann.ask("Ann asks Bob")
    reply = ann.call("POST", f"/api/interactions/{widened}/widen", json={"members": [bob.email]})
    assert reply.status_code == 201, reply.text
    listed = admin.call("GET", "/api/members")
    bob_id = next(m["id"] for m in listed.json()["members"] if m["email"] == bob.email)

    async def scenario() -> tuple[list[int | None], list[str]]:
        async with AsyncExitStack() as stack:
            stream = await open_stream(stack, bob.portal, token["token"])
            sockets = [await stack.enter_async_context(await open_socket(bob, path))
                       for path in (f"/ws/choice/{owns}", "/ws/portal", f"/ws/widened/{widened}")]
            assert (await first_message(sockets[0]))["type"] == "deadline"
            assert (await first_message(sockets[2]))["type"] == "deadline"
            ended = await asyncio.to_thread(admin.call, "POST", f"/api/members/{bob_id}/revoke")
            assert ended.status_code == 200, ended.text
            lines = await stream_end(stream)
            return [await close_code(socket) for socket in sockets], lines

    codes, lines = asyncio.run(scenario())
    assert codes == [SIGN_IN_FIRST] * 3
    assert "event: interaction.created" in lines
    assert ann.call("GET", "/api/me").status_code == 200  # no one else was signed out


def test_a_revoked_token_ends_the_mcp_reply_it_was_waiting_on(
        member: Callable[[str], Account]) -> None:
    import httpx2
    from mcp.client.session import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    ann = member("ann")
    token = make_token(ann)

    async def scenario() -> tuple[str, BaseException | None]:
        headers = {"Authorization": f"Bearer {token['token']}"}
        async with httpx2.AsyncClient(headers=headers, timeout=BOUND) as http, \
                streamable_http_client(f"{ann.portal.base_url}/mcp", http_client=http) as streams, \
                ClientSession(streams[0], streams[1]) as session, \
                await open_socket(ann, "/ws/portal") as tab:
            await session.initialize()
            waiting = asyncio.ensure_future(session.call_tool("provide_choice", {
                **QUESTION, "title": "Asked over MCP, then revoked"}))
            # Ann's open tab hears the question asked; the tool goes on waiting for her answer.
            while (heard := await first_message(tab)).get("type") != "created":
                pass
            assert not waiting.done(), waiting.result()
            iid = str(heard["interaction_id"])
            revoked = await asyncio.to_thread(ann.call, "DELETE", f"/api/tokens/{token['id']}")
            assert revoked.status_code in (200, 204), revoked.text
            try:
                async with asyncio.timeout(BOUND):
                    result = await waiting
            except TimeoutError:
                raise AssertionError("the MCP reply went on after its token was revoked") from None
            except Exception as error:  # the stream ended: the client's call fails
                return iid, error
            return iid, AssertionError(f"the tool answered: {result}")

    iid, ended = asyncio.run(scenario())
    assert not isinstance(ended, AssertionError), ended
    # The question is kept, the member's browser still signed in and able to answer it (on a
    # new connection: Ann's last one has been idle as long as the server keeps one alive).
    answered = httpx.post(f"{ann.portal.base_url}/api/interactions/{iid}/response",
                          json={"selected_ids": ["pg"]}, timeout=BOUND,
                          headers={"Cookie": ann.cookie, "Origin": ann.portal.base_url})
    assert answered.status_code == 200, answered.text
