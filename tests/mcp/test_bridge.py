"""`choice mcp`, driven with raw JSON-RPC lines: it answers `initialize` and `tools/list`
as the portal's `/mcp` does (plus an attachment's `path`, which only it reads), without
waiting for the portal; it ends its session on the portal when it exits; and the portal's
access log names `/mcp` requests by their path.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from choice.mcp.local_files import advertised
from tests.mcp.bridge_process import INITIALIZE_PARAMS, BridgeProcess, bridge_env, stop_portal_at
from tests.mcp.conftest import FAST, ask
from tests.portal_process import PortalProcess

MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
CREATED = "Created new transport with session ID: "


def portal_says(portal: PortalProcess, message: dict[str, Any],
                session: str | None = None) -> tuple[httpx.Response, dict[str, Any] | None]:
    """POST one message to the portal's `/mcp` directly; its reply, parsed from SSE."""
    headers = {**MCP_HEADERS, "Authorization": f"Bearer {portal.token}"}
    if session:
        headers.update({"Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-06-18"})
    response = httpx.post(f"{portal.base_url}/mcp", json=message, headers=headers, timeout=10)
    data = [line[5:].strip() for line in response.text.splitlines() if line.startswith("data:")]
    return response, json.loads(data[0]) if data else None


def portal_session(portal: PortalProcess) -> str:
    response, _ = portal_says(portal, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                       "params": INITIALIZE_PARAMS})
    session = response.headers["mcp-session-id"]
    portal_says(portal, {"jsonrpc": "2.0", "method": "notifications/initialized"}, session)
    return session


def until(predicate: Callable[[], Any], what: str, timeout: float = 10.0) -> Any:
    """Wait for another process's doing (a log line), bounded."""
    deadline = time.monotonic() + timeout
    while not (found := predicate()):
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {timeout} s")
        time.sleep(0.02)
    return found


def sessions_created(portal: PortalProcess, since: int) -> list[str]:
    return [line.split(CREATED, 1)[1].strip() for line in portal.log[since:] if CREATED in line]


@pytest.fixture
def bridge(portal: PortalProcess) -> Any:
    process = BridgeProcess(bridge_env(portal.data_dir, portal.port, **FAST))
    yield process
    process.kill()


@pytest.mark.parametrize("version", ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25",
                                     "2026-07-28", "1999-01-01"])
def test_the_bridge_answers_initialize_as_the_portal_does(
        portal: PortalProcess, bridge: BridgeProcess, version: str) -> None:
    params = {**INITIALIZE_PARAMS, "protocolVersion": version}
    _, expected = portal_says(portal, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                       "params": params})
    assert expected is not None and "result" in expected
    assert bridge.request("initialize", params)["result"] == expected["result"]


def test_a_malformed_initialize_gets_the_portals_own_error(
        portal: PortalProcess, bridge: BridgeProcess) -> None:
    params = {"protocolVersion": "2025-06-18", "capabilities": {}}  # no clientInfo
    _, expected = portal_says(portal, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                       "params": params})
    assert expected is not None and expected["error"]["code"] == -32602
    assert bridge.request("initialize", params)["error"] == expected["error"]


def test_the_bridge_lists_the_tools_the_portal_lists(
        portal: PortalProcess, bridge: BridgeProcess) -> None:
    _, expected = portal_says(portal, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
                              portal_session(portal))
    assert expected is not None
    bridge.initialize()
    listed = bridge.request("tools/list")["result"]
    # the portal's listing, with the one field only the bridge takes (an attachment's path)
    assert listed == {"tools": advertised(expected["result"]["tools"])}, \
        "run scripts/mcp-listing and commit the result"
    assert listed != expected["result"]
    assert {tool["name"] for tool in listed["tools"]} == {
        "provide_choice", "hitl_request", "request_user_choice", "ask_user_question",
        "list_pending", "submit_candidate", "withdraw_question"}


@pytest.mark.slow
def test_the_bridge_answers_before_any_portal_does(isolated_env: Any) -> None:
    """Nothing answers on the port, and no portal can take it (a socket holds it without
    listening), so every answer before the call's error came from the bridge itself."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        bridge = BridgeProcess(bridge_env(isolated_env, holder.getsockname()[1]))
        try:
            bridge.send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                         "params": INITIALIZE_PARAMS})
            bridge.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
            bridge.send({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
            bridge.send({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
                "name": "provide_choice", "arguments": {"session_id": "x"}}})
            bridge.send({"jsonrpc": "2.0", "id": 4, "method": "ping"})
            order = [bridge.lines.get(timeout=90) for _ in range(4)]
        finally:
            bridge.kill()
    assert [m["id"] for m in order if m] == [1, 2, 4, 3]
    assert order[0]["result"]["serverInfo"]["name"] == "choice-portal"  # type: ignore[index]
    assert len(order[1]["result"]["tools"]) == 7  # type: ignore[index]
    error = order[3]["error"]["message"]  # type: ignore[index]
    assert "not reachable" in error and str(isolated_env / "portal.log") in error
    assert "taken by another program" in (isolated_env / "portal.log").read_text()


@pytest.mark.parametrize("ending", ["stdin closed", "SIGTERM"])
def test_the_bridge_ends_its_session_when_it_exits(
        portal: PortalProcess, bridge: BridgeProcess, ending: str) -> None:
    since = len(portal.log)
    bridge.initialize()
    missing = bridge.request("tools/call", {"name": "provide_choice",
                                            "arguments": {"session_id": "no-such-id"}})
    assert missing["result"]["isError"] is True
    (session,) = until(lambda: sessions_created(portal, since), "the bridge's session")
    ping = {"jsonrpc": "2.0", "id": 9, "method": "ping"}
    assert portal_says(portal, ping, session)[0].status_code == 200
    code = bridge.close() if ending == "stdin closed" else bridge.terminate()
    assert code == (0 if ending == "stdin closed" else 128 + 15)
    assert portal_says(portal, ping, session)[0].status_code == 404  # the portal forgot it
    assert any('"DELETE /mcp HTTP/1.1" 200' in line for line in portal.log[since:])


def test_the_access_log_names_mcp_requests_by_their_path(portal: PortalProcess) -> None:
    since = len(portal.log)
    portal_session(portal)
    logged = until(lambda: [line for line in portal.log[since:] if '"POST /mcp' in line],
                   "an access log line for /mcp")
    assert '"POST /mcp HTTP/1.1" 200' in logged[0]
    assert not any('"POST / HTTP' in line for line in portal.log[since:])



@pytest.mark.slow
def test_the_bridge_follows_the_portal_through_a_restart_and_a_stop(isolated_env: Any) -> None:
    """A restarted portal forgot the session, and has a new token (its file was deleted):
    the bridge reads the token again, opens a new session and retries. A stopped portal is
    started again, detached, by the bridge itself."""
    first = PortalProcess(isolated_env, **FAST).start()
    portals, first_token = [first], first.token
    bridge = BridgeProcess(bridge_env(isolated_env, first.port, **FAST))
    poll = {"name": "provide_choice", "arguments": {"session_id": "no-such-id"}}
    try:
        bridge.initialize()
        assert bridge.request("tools/call", poll)["result"]["isError"] is True
        first.stop()
        (isolated_env / "token").unlink()
        second = PortalProcess(isolated_env, port=first.port, **FAST).start()
        portals.append(second)
        assert second.token != first_token
        assert bridge.request("tools/call", poll)["result"]["isError"] is True
        assert len(sessions_created(second, 0)) == 1  # a new session, opened by the bridge
        second.stop()
        assert bridge.request("tools/call", poll, timeout=60)["result"]["isError"] is True
        started = second.client().call("GET", "/healthz")["pid"]
        assert started not in (first.process.pid, second.process.pid)  # type: ignore[union-attr]
        assert "Uvicorn running on" in (isolated_env / "portal.log").read_text()
    finally:
        bridge.kill()
        for portal in portals:
            portal.stop()
        stop_portal_at(first.port)  # the one the bridge started, if it got that far


def test_the_bridge_relays_progress_then_the_pending_reply(bridge: BridgeProcess) -> None:
    bridge.initialize()
    bridge.send({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
        "name": "provide_choice", "arguments": ask(), "_meta": {"progressToken": "p7"}}})
    seen: list[dict[str, Any]] = []
    while not seen or seen[-1].get("id") != 7:
        message = bridge.lines.get(timeout=20)
        assert message is not None, "the bridge exited"
        seen.append(message)
    progress = [m["params"] for m in seen if m.get("method") == "notifications/progress"]
    assert len(progress) >= 2 and {p["progressToken"] for p in progress} == {"p7"}
    assert seen[-1]["result"]["structuredContent"]["status"] == "pending"
