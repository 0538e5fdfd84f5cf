"""The first start is a race: MCP clients launched together on a new data dir each start a
portal through `choice mcp`. Exactly one portal may serve, with one token, one schema, and
every client's calls answered; nothing else may be left behind.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import signal
import stat
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from choice.client.portal_client import PortalClient
from choice.core.token import TokenFileError, ensure_token, read_token
from tests.mcp.bridge_process import BridgeProcess, bridge_env
from tests.portal_process import free_port
from tests.reliability.faults import wait_until
from tests.tally import Seen, faults

# -- the token ---------------------------------------------------------------------------------


def test_threads_creating_the_token_at_once_all_get_the_one_in_the_file(tmp_path: Path) -> None:
    for round_ in range(20):
        path = tmp_path / f"round-{round_}" / "token"
        start = threading.Barrier(16)

        def create(path: Path = path, start: threading.Barrier = start) -> str:
            start.wait()
            return ensure_token(path)

        with ThreadPoolExecutor(16) as pool:
            tokens = set(pool.map(lambda _: create(), range(16)))
        assert tokens == {read_token(path)}
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert sorted(p.name for p in path.parent.iterdir()) == ["token"]  # no temp files left


def _token_in_child(path: Path, start: Any, tokens: Any) -> None:
    start.wait()
    tokens.put(ensure_token(path))


def test_processes_creating_the_token_at_once_all_get_the_one_in_the_file(tmp_path: Path) -> None:
    fork = multiprocessing.get_context("fork")  # after the imports: only the race costs time
    for round_ in range(10):
        path = tmp_path / f"round-{round_}" / "token"
        start, tokens = fork.Barrier(8), fork.Queue()
        children = [fork.Process(target=_token_in_child, args=(path, start, tokens))
                    for _ in range(8)]
        for child in children:
            child.start()
        got = {tokens.get(timeout=30) for _ in children}
        for child in children:
            child.join(timeout=10)
        assert got == {read_token(path)}
        assert sorted(p.name for p in path.parent.iterdir()) == ["token"]


def test_an_empty_token_file_is_an_error_that_says_what_to_do(tmp_path: Path) -> None:
    path = tmp_path / "token"
    path.write_text("")
    with pytest.raises(TokenFileError, match=r"is empty.*delete it and start again") as error:
        ensure_token(path)
    assert str(path) in str(error.value)
    assert path.read_text() == ""


# -- ten bridges at once, ten times ------------------------------------------------------------

BRIDGES = 10
ROUNDS = 10
"""Ten rounds of ten bridges: a hundred first starts racing (twenty took 56 s of the
suite's ~5 minutes; each round is a new data dir, so the race is the same each time)."""
CALL_TIMEOUT = 60.0
# A poll of an id that does not exist: answered at once, and only by the portal.
UNKNOWN_POLL = {"name": "provide_choice", "arguments": {"session_id": "nosuchinteraction"}}


def session(bridge: BridgeProcess) -> list[dict[str, Any]]:
    """What an MCP client does first: initialize, list the tools, call one."""
    return [bridge.initialize(), bridge.request("tools/list", timeout=CALL_TIMEOUT),
            bridge.request("tools/call", UNKNOWN_POLL, timeout=CALL_TIMEOUT)]


def portals_of(data_dir: Path) -> set[int]:
    """Live processes serving (or starting to serve) this data dir: found by their
    environment, so that only the portals this test started are counted and stopped."""
    marker = f"CHOICE_DATA_DIR={data_dir}".encode()
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            serving = b"serve" in (entry / "cmdline").read_bytes().split(b"\0")
            ours = marker in (entry / "environ").read_bytes().split(b"\0")
            zombie = (entry / "stat").read_bytes().rsplit(b")", 1)[1].split()[0] == b"Z"
            if serving and ours and not zombie:
                found.add(int(entry.name))
        except OSError:  # it exited meanwhile, or is not ours to read
            continue
    return found


def listeners_on(port: int) -> int:
    """How many sockets listen on this TCP port (IPv4 and IPv6)."""
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as lines:
            next(lines)
            for line in lines:
                local, state = line.split()[1], line.split()[3]
                if state == "0A" and int(local.rsplit(":", 1)[1], 16) == port:
                    count += 1
    return count


def stop(pids: set[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


@pytest.fixture
def started_portals() -> Iterator[list[Path]]:
    """Data dirs whose portals this test started; every one is killed at the end."""
    data_dirs: list[Path] = []
    yield data_dirs
    for data_dir in data_dirs:
        stop(portals_of(data_dir))


def answered(initialized: dict[str, Any], listed: dict[str, Any],
             called: dict[str, Any]) -> list[bool]:
    """Whether each of a bridge's three requests got its real answer: the poll of an unknown
    id answered by the portal (a tool error naming it), not a bridge's own error."""
    tools = {t["name"] for t in listed.get("result", {}).get("tools", [])}
    result = called.get("result", {})
    return ["result" in initialized, "provide_choice" in tools,
            result.get("isError") is True and "nosuchinteraction" in json.dumps(result)]


def race_round(data_dir: Path, port: int, seen: Seen) -> None:
    bridges = [BridgeProcess(bridge_env(data_dir, port)) for _ in range(BRIDGES)]
    try:
        with ThreadPoolExecutor(BRIDGES) as pool:
            sessions = list(pool.map(session, bridges))
        for bridge in bridges:
            bridge.close()
    finally:
        for bridge in bridges:
            bridge.kill()
    for number, requests in enumerate(sessions):
        replies = answered(*requests)
        seen.tries(len(replies))
        # a request without its answer is lost to the agent that sent it
        seen.checked(sum(replies), [f"bridge {number}, request {index}: {requests[index]}"
                                    for index, ok in enumerate(replies) if not ok])
    token = read_token(data_dir / "token")
    assert token is not None
    assert sorted(p.name for p in data_dir.iterdir() if "token" in p.name) == ["token"]
    serving = PortalClient(f"http://127.0.0.1:{port}", token)
    assert serving.call("GET", "/api/interactions?limit=1")["interactions"] == []  # token works
    pid = serving.call("GET", "/healthz")["pid"]
    wait_until(lambda: portals_of(data_dir) == {pid}, 30, "only the serving portal is left")
    assert listeners_on(port) == 1
    log = (data_dir / "portal.log").read_text()
    for failure in ("Traceback", "already exists", "database is locked"):
        assert failure not in log, log
    assert log.count("Waiting for application startup") == 1, log  # one portal got that far


@pytest.mark.slow
def test_ten_bridges_started_at_once_share_one_portal_ten_times(
        tmp_path: Path, started_portals: list[Path]) -> None:
    with faults("First start race") as seen:
        seen.fact("bridges", BRIDGES)
        for round_ in range(ROUNDS):
            data_dir = tmp_path / f"round-{round_}"
            started_portals.append(data_dir)
            seen.fact("rounds")
            race_round(data_dir, free_port(), seen)
            stop(portals_of(data_dir))
