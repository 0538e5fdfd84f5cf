"""Local mode: an open socket or event stream ends with the access that opened it. A tab's
socket, open and hearing changes, closes with "sign in first" (4401) once its session is
signed out or a new token (`choice token --rotate`) ends every session; a stream opened with
the old token ends. A real portal on a real port; each wait is on the event, with a bound.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import httpx
import pytest
import websockets

from tests.portal_process import PortalProcess
from tests.security.conftest import ask, send
from tests.security.test_sessions import rotate
from tests.sign_in import sign_in

pytestmark = pytest.mark.slow

BOUND = 30.0
"""Seconds a socket or stream may take to end: far above the portal's few-second check."""
SIGN_IN_FIRST = 4401


@pytest.fixture(scope="module")
def portal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PortalProcess]:
    process = PortalProcess(tmp_path_factory.mktemp("live-access")).start()
    yield process
    process.stop()


async def open_socket(portal: PortalProcess, path: str, cookie: str
                      ) -> websockets.ClientConnection:
    url = portal.base_url.replace("http", "ws") + path
    return await websockets.connect(url, additional_headers={
        "Cookie": cookie, "Origin": portal.base_url})


async def hears_a_new_question(socket: websockets.ClientConnection, portal: PortalProcess
                               ) -> None:
    """The socket is served (not just accepted): a question asked now reaches it."""
    iid = await asyncio.to_thread(ask, portal, title="Heard live")
    async with asyncio.timeout(BOUND):
        while True:
            message = json.loads(await socket.recv())
            if message.get("type") == "created" and message["interaction_id"] == iid:
                return


async def close_code(socket: websockets.ClientConnection) -> int | None:
    """Read until the server closes the socket (within `BOUND`): the code it closed with."""
    async with asyncio.timeout(BOUND):
        try:
            while True:
                await socket.recv()
        except websockets.ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else None


def cookie_of(portal: PortalProcess) -> str:
    name, value = sign_in(portal.base_url, portal.token)
    return f"{name}={value}"


def test_signing_out_closes_the_tabs_open_socket(portal: PortalProcess) -> None:
    cookie = cookie_of(portal)

    async def scenario() -> int | None:
        socket = await open_socket(portal, "/ws/portal", cookie)
        async with socket:
            await hears_a_new_question(socket, portal)
            out = await asyncio.to_thread(send, portal, "POST", "/logout", None, {
                "Cookie": cookie, "Origin": portal.base_url})
            assert out.status == 303
            return await close_code(socket)

    assert asyncio.run(scenario()) == SIGN_IN_FIRST


def test_signing_out_leaves_another_browsers_socket_open(portal: PortalProcess) -> None:
    mine, other = cookie_of(portal), cookie_of(portal)
    iid = ask(portal, title="Still shown in the other browser", timeout_seconds=3600)

    async def scenario() -> list[str]:
        socket = await open_socket(portal, f"/ws/choice/{iid}", other)
        async with socket:
            assert json.loads(await socket.recv())["type"] == "deadline"
            out = await asyncio.to_thread(send, portal, "POST", "/logout", None, {
                "Cookie": mine, "Origin": portal.base_url})
            assert out.status == 303
            # Two re-syncs a few seconds apart: the other session was checked in between.
            async with asyncio.timeout(BOUND):
                return [json.loads(await socket.recv())["type"] for _ in range(2)]

    assert asyncio.run(scenario()) == ["deadline", "deadline"]


def test_a_new_token_closes_open_sockets_and_ends_the_old_tokens_stream(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    process = PortalProcess(tmp_path_factory.mktemp("live-rotate")).start()
    try:
        old_token, cookie = process.token, cookie_of(process)
        iid = ask(process, title="Open while the token changes", timeout_seconds=3600)

        async def scenario() -> tuple[int | None, int | None, list[str]]:
            question = await open_socket(process, f"/ws/choice/{iid}", cookie)
            tab = await open_socket(process, "/ws/portal", cookie)
            async with question, tab, httpx.AsyncClient(timeout=BOUND) as client, \
                    client.stream("GET", f"{process.base_url}/api/stream", headers={
                        "Authorization": f"Bearer {old_token}"}) as stream:
                assert stream.status_code == 200
                assert json.loads(await question.recv())["type"] == "deadline"
                await hears_a_new_question(tab, process)
                new = await asyncio.to_thread(rotate, process)
                assert new != old_token
                events: list[str] = []
                async with asyncio.timeout(BOUND):  # the stream ends: the loop finishes
                    async for line in stream.aiter_lines():
                        events.append(line)
                return await close_code(question), await close_code(tab), events

        question_code, tab_code, events = asyncio.run(scenario())
        assert (question_code, tab_code) == (SIGN_IN_FIRST, SIGN_IN_FIRST)
        assert "event: interaction.created" in events  # it was live: the replay came
        refused = httpx.get(f"{process.base_url}/api/stream", timeout=10,
                            headers={"Authorization": f"Bearer {old_token}"})
        assert refused.status_code == 401
    finally:
        process.stop()

