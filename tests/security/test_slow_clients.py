"""Slow clients (slowloris) on the body: a request whose body trickles in is answered 408
(`Connection: close`) once the body is `BODY_SECONDS` late, on the API, a page's form and
`/mcp`. Before, 200 slow bodies from one client all stayed open. Meanwhile the portal
answers everyone else, and nothing the slow requests carried is stored. A slow body leaves
one line in the log, the access log's 408, and no traceback.

The body's deadline is the app's own, so it holds under any server. A request's head is
not timed here: uvicorn's documented settings time out only an idle keep-alive
connection, and an app is called once the head is complete, so a head that trickles in is
the reverse proxy's to cut off (`docs/operations/proxy.md`).

Each attacker trickles a byte at a time, far slower than its request could ever complete
within the deadline; a bound well past it fails the test instead of hanging it.
"""

from __future__ import annotations

import contextlib
import json
import select
import socket
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import pytest

from choice.web.security.slow_clients import BODY_SECONDS
from tests.integration.test_real_server import wait_until
from tests.portal_process import PortalProcess
from tests.security.conftest import bearer, interaction_count, mcp_session, send, signed_in
from tests.tally import attacks

pytestmark = pytest.mark.slow

BOUND = BODY_SECONDS + 60
"""How long an attacker may go on before the test counts it as never cut off."""
EVERY = 0.5
"""Seconds between two trickled bytes."""


@pytest.fixture(scope="module")
def portal(network_portal: PortalProcess) -> PortalProcess:
    return network_portal


@dataclass
class Outcome:
    name: str
    closed_after: float | None = None
    """Seconds from connecting until the portal closed the connection; None: never."""
    answer: bytes = b""


def head_of(method: str, path: str, headers: dict[str, str], length: int) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", *(f"{k}: {v}" for k, v in headers.items()),
             f"Content-Length: {length}"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def attack(portal: PortalProcess, name: str, at_once: bytes, trickled: bytes) -> Outcome:
    """Send `at_once`, then `trickled` a byte every `EVERY` s (then nothing), until the portal
    closes the connection (reading whatever it answers first) or `BOUND` s pass."""
    outcome = Outcome(name)
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", portal.port), timeout=5) as conn:
        if at_once:
            conn.sendall(at_once)
        left = iter(trickled)
        while time.monotonic() - started < BOUND:
            byte = next(left, None)
            try:
                if byte is not None:
                    conn.send(bytes([byte]))
                readable = select.select([conn], [], [], EVERY)[0]
                while readable:  # it answered or closed: read to the end
                    chunk = conn.recv(65536)
                    if not chunk:
                        break
                    outcome.answer += chunk
            except OSError:  # reset
                readable = [conn]
            if readable:
                outcome.closed_after = time.monotonic() - started
                return outcome
    return outcome


def test_slow_bodies_are_cut_off_and_everyone_else_is_served(portal: PortalProcess) -> None:
    host = f"127.0.0.1:{portal.port}"
    question = json.dumps({"title": "Trickled", "prompt": "Slowly.", "interface": "terminal",
                           "options": [{"id": "a", "label": "A"}]}).encode()
    mcp = mcp_session(portal)
    call = json.dumps({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {
        "name": "provide_choice", "arguments": {"title": "Trickled over MCP", "prompt": "P.",
                                                "interface": "terminal",
                                                "options": [{"id": "a", "label": "A"}]}}})
    bodies = {
        **{f"question {n}": (head_of("POST", "/api/interactions",
                                     {"Host": host, **bearer(portal),
                                      "Content-Type": "application/json"}, len(question)),
                             question) for n in range(3)},
        "settings form": (head_of("POST", "/settings",
                                  {"Host": host, **signed_in(portal), "Origin": f"http://{host}",
                                   "Content-Type": "application/x-www-form-urlencoded"}, 300),
                          b"timeout_seconds=777&language=zh&" + b"x" * 268),
        "MCP call": (head_of("POST", "/mcp", {"Host": host, **mcp}, len(call)), call.encode()),
    }
    before = interaction_count(portal)
    with ThreadPoolExecutor(len(bodies)) as pool, attacks("Slow clients") as seen:
        running = {name: pool.submit(attack, portal, name, *parts)
                   for name, parts in bodies.items()}
        served = [send(portal, "GET", "/healthz").status for _ in range(5)]
        outcomes = {name: future.result() for name, future in running.items()}
        seen.fact("bodies", len(bodies))
        for name in bodies:
            got = outcomes[name]
            status_line, _, rest = got.answer.partition(b"\r\n")
            seen.refused_if(got.closed_after is not None and b" 408 " in status_line
                            and b"connection: close" in rest.lower() and b"body_timeout" in rest
                            and got.closed_after >= BODY_SECONDS - 1, got)
        seen.unchanged(before, interaction_count(portal))
    assert served == [200] * 5


def logged(portal: PortalProcess, since: int, wanted: Callable[[list[str]], bool]) -> list[str]:
    """The portal's log lines after the first `since`, once `wanted` holds for them (the
    log is read from the portal's output on another thread), within 10 s."""
    with contextlib.suppress(AssertionError):  # the caller's asserts say what was logged
        wait_until(lambda: wanted(portal.log[since:]), 10)
    return portal.log[since:]


def test_a_slow_body_on_a_token_route_is_answered_408_with_one_log_line(
        portal: PortalProcess, pending: str) -> None:
    host = f"127.0.0.1:{portal.port}"
    routes = {  # each head promises more bytes than ever come
        f"/api/interactions/{pending}/response": ("application/json", b'{"selected_ids": ["a"'),
        f"/api/interactions/{pending}/draft/files?name=notes.txt": ("text/plain", b"notes"),
        "/api/interactions": ("application/json", b'{"title": "Trickled", "prompt": "Slowly."'),
    }
    since = len(portal.log)
    with ThreadPoolExecutor(len(routes)) as pool:
        running = [pool.submit(attack, portal, path, head_of(
            "POST", path, {"Host": host, **bearer(portal), "Content-Type": kind}, 1000), body)
            for path, (kind, body) in routes.items()]
        outcomes = [future.result() for future in running]
    for got in outcomes:
        assert got.closed_after is not None and got.answer.startswith(b"HTTP/1.1 408 "), got
        assert b"body_timeout" in got.answer
    marker = "/healthz?after=slow-bodies"  # logged after anything the slow bodies left
    assert send(portal, "GET", marker).status == 200
    lines = logged(portal, since, lambda lines: any(marker in line for line in lines))
    assert not [line for line in lines if "Traceback" in line or "ERROR" in line], lines
    for path in routes:
        about = [line for line in lines if f'"POST {path} ' in line]
        assert len(about) == 1 and '" 408 ' in about[0], lines
