"""Scale: one real portal holding 1,000 blocked long-polls and 1,000 countdown sockets at once.

Owns the claim that waiting costs a connection and nothing more: every waiter is really
parked (`/healthz` counts them), every answer reaches its own waiter and no other, every
socket hears its own question finish, and the portal's file descriptors go back to where
they started once the crowd leaves.
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.portal_process import PortalProcess
from tests.sign_in import owner_cookie
from tests.tally import faults

pytestmark = pytest.mark.slow
T = TypeVar("T")

WAITERS = 1_000
"""Long-polls, and sockets; one question each, so `/healthz` counts every long-poll."""
BITS = 10
"""Options per question: waiter i's answer is the bit pattern of i + 1, unique below 1,024."""
WORKERS = 20
"""Keep-alive connections that create and answer the questions."""
NEEDED_FDS = 4_500
"""Open files each process needs: over 2,000 sockets (the client ends here, the server ends
in the portal), and room to spare."""
DATABASE_FDS = 2 * 5 + 1
"""The most SQLite files the portal keeps open whatever the load: a database and a WAL
descriptor per pooled connection (the writer's and up to four readers', one per reader
thread) and one shared `-shm`. The warm-up may open fewer, so these may grow after it."""


def answer_for(index: int) -> list[str]:
    return [f"b{bit}" for bit in range(BITS) if (index + 1) >> bit & 1]


def question(index: int) -> dict[str, Any]:
    return {"title": f"Question {index}", "prompt": "Scale test.", "selection_mode": "multi",
            "options": [{"id": f"b{bit}", "label": f"Bit {bit}"} for bit in range(BITS)],
            "min_selections": 1, "max_selections": BITS}


def raise_fd_limit() -> None:
    """Raise this process's soft limit to the hard one (the portal child inherits it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    print(f"\nRLIMIT_NOFILE: soft {soft}, hard {hard}")
    if hard != resource.RLIM_INFINITY and hard < NEEDED_FDS:
        pytest.skip(f"needs {NEEDED_FDS} open files per process; the hard limit is {hard}")
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, NEEDED_FDS)
    resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


@pytest.fixture(scope="module")
def portal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PortalProcess]:
    """The count limit is far below the pending count: retention must never drop a pending
    question (it may drop the answered warm-up one). No access log: 3,000 lines that this
    process would have to read as well."""
    raise_fd_limit()
    process = PortalProcess(tmp_path_factory.mktemp("crowd"), CHOICE_MAX_SESSIONS="10",
                            UVICORN_ACCESS_LOG="false").start()
    yield process
    process.stop()


class Http:
    """One keep-alive HTTP/1.1 connection on asyncio streams. httpx's pool cost this process
    more CPU per request than the portal spent answering it, at a thousand connections."""

    def __init__(self, portal: PortalProcess) -> None:
        self.portal = portal
        self.head = (f"Host: 127.0.0.1:{portal.port}\r\nAuthorization: Bearer {portal.token}\r\n"
                     "Content-Type: application/json\r\n")
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def __aenter__(self) -> Http:
        self.streams = await asyncio.open_connection("127.0.0.1", self.portal.port)
        return self

    async def __aexit__(self, *_: object) -> None:
        assert self.streams is not None
        self.streams[1].close()
        await self.streams[1].wait_closed()

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        assert self.streams is not None
        reader, writer = self.streams
        payload = b"" if body is None else json.dumps(body).encode()
        writer.write(f"{method} {path} HTTP/1.1\r\n{self.head}Content-Length: {len(payload)}\r\n\r\n"
                     .encode() + payload)
        status = int((await reader.readline()).split()[1])
        headers = {}
        while (line := await reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        raw = await reader.readexactly(int(headers["content-length"]))
        return status, json.loads(raw) if raw else None


async def on_workers(portal: PortalProcess, jobs: list[tuple[str, str, Any]]) -> list[tuple[int, Any]]:
    """Run the requests over `WORKERS` keep-alive connections; results in job order."""
    results: list[tuple[int, Any]] = [(0, None)] * len(jobs)
    todo = iter(range(len(jobs)))

    async def worker() -> None:
        async with Http(portal) as http:
            for index in todo:  # one iterator shared by all workers: each job runs once
                results[index] = await http.request(*jobs[index])

    await asyncio.gather(*(worker() for _ in range(WORKERS)))
    return results


async def warm_up(portal: PortalProcess) -> None:
    """Every worker connects once, and one question is asked, read and answered."""
    (_, warm), *_ = await on_workers(portal, [("POST", "/api/interactions", question(-1))]
                                     + [("GET", "/healthz", None)] * WORKERS)
    path = f"/api/interactions/{warm['interaction_id']}"
    replies = await on_workers(portal, [("GET", path, None),
                                        ("POST", f"{path}/response", {"selected_ids": ["b0"]})])
    assert [status for status, _ in replies] == [200, 200], replies


async def long_poll(portal: PortalProcess, interaction_id: str) -> tuple[int, Any]:
    async with Http(portal) as http:
        return await http.request("GET", f"/api/interactions/{interaction_id}?wait=60")


async def watch(portal: PortalProcess, interaction_id: str, greeted: list[str]) -> str:
    """A countdown socket, as a browser tab opens it, held until it hears its question
    finish (`{"type": "status"}`); returns that status, or how the socket was closed."""
    url = f"ws://127.0.0.1:{portal.port}/ws/choice/{interaction_id}"
    async with connect(url, origin=portal.base_url,  # type: ignore[arg-type]
                       additional_headers=owner_cookie(portal.base_url, portal.token),
                       open_timeout=30, max_queue=None) as socket:
        first = json.loads(await socket.recv())
        assert first["type"] == "deadline" and first["interaction_id"] == interaction_id, first
        assert first["status"] == "pending", first
        greeted.append(interaction_id)
        try:
            async for raw in socket:
                message = json.loads(raw)
                if message["type"] == "status" and message["interaction_id"] == interaction_id:
                    return str(message["status"])
        except ConnectionClosed as closed:
            return f"closed: {closed}"
        return f"closed: {socket.close_code}"


def descriptors(portal: PortalProcess) -> Counter[str]:
    """The portal's open files by kind: `socket`, `database` (its SQLite files) or `other`."""
    assert portal.process is not None
    kinds: Counter[str] = Counter()
    fd_dir = f"/proc/{portal.process.pid}/fd"
    for fd in os.listdir(fd_dir):
        try:
            target = os.readlink(f"{fd_dir}/{fd}")
        except FileNotFoundError:  # closed while we looked
            continue
        kinds["socket" if target.startswith("socket:") else
              "database" if target.startswith(str(portal.data_dir)) else "other"] += 1
    return kinds


def resident_mb(portal: PortalProcess) -> int:
    assert portal.process is not None
    with open(f"/proc/{portal.process.pid}/status") as status:
        return next(int(line.split()[1]) // 1024 for line in status if line.startswith("VmRSS:"))


def shown(kinds: Counter[str]) -> str:
    return f"{kinds.total()} ({', '.join(f'{n} {kind}' for kind, n in sorted(kinds.items()))})"


async def wait_for(probe: Callable[[], Awaitable[T]], done: Callable[[T], bool], timeout: float,
                   what: str) -> T:
    """Poll `probe()` until `done(value)`, bounded; returns the value that satisfied it."""
    deadline = time.monotonic() + timeout
    while not done(value := await probe()):
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: still {value!r} after {timeout} s")
        await asyncio.sleep(0.05)
    return value


async def test_a_thousand_long_polls_and_a_thousand_sockets_all_get_their_own_answer(
        portal: PortalProcess) -> None:
    started = time.monotonic()
    idle = descriptors(portal)["socket"]  # the listening socket and the event loop's own
    await warm_up(portal)
    baseline = await wait_for(lambda: asyncio.sleep(0, descriptors(portal)),
                              lambda now: now["socket"] == idle, 5, "warm-up connections closed")

    replies = await on_workers(portal, [("POST", "/api/interactions", question(i))
                                        for i in range(WAITERS)])
    assert {status for status, _ in replies} == {201}
    ids = [reply["interaction_id"] for _, reply in replies]
    created_at = time.monotonic()

    greeted: list[str] = []
    async with asyncio.TaskGroup() as crowd, Http(portal) as control:  # a failure ends them all
        polls = [crowd.create_task(long_poll(portal, iid)) for iid in ids]
        sockets = [crowd.create_task(watch(portal, iid, greeted)) for iid in ids]

        async def health() -> dict[str, Any]:
            return dict((await control.request("GET", "/healthz"))[1])

        state = await wait_for(health, lambda h: h["waiting"] >= WAITERS, 20, "parked long-polls")
        assert state["pending"] == WAITERS, state
        await wait_for(lambda: asyncio.sleep(0, len(greeted)), lambda n: n >= WAITERS, 20,
                       "sockets greeted")
        assert not [task for task in polls + sockets if task.done()], "a waiter ended unanswered"
        peak, peak_rss = descriptors(portal), resident_mb(portal)
        parked_at = time.monotonic()

        statuses = await on_workers(portal, [
            ("POST", f"/api/interactions/{iid}/response", {"selected_ids": answer_for(i)})
            for i, iid in enumerate(ids)])
        answered = await asyncio.wait_for(asyncio.gather(*polls), 30)
        endings = await asyncio.wait_for(asyncio.gather(*sockets), 30)
        answered_at = time.monotonic()

    with faults("Many waiters") as seen:
        seen.fact("waits", len(polls))
        seen.fact("sockets", len(sockets))
        seen.tries(len(polls) + len(sockets))
        # each acknowledged answer must reach its own long-poll, and its socket hear it
        seen.answers([(ids[i], *answer_for(i)) for i, (status, _) in enumerate(statuses)
                      if status == 200],
                     [(ids[i], *result["selected_ids"]) for i, (status, result)
                      in enumerate(answered) if status == 200 and result["interaction_id"] == ids[i]
                      and result["status"] == "submitted"])
        for iid, ending in zip(ids, endings, strict=True):
            if ending != "submitted":
                seen.miss(f"the socket of {iid} heard {ending!r}, not submitted")
    assert [status for status, _ in statuses] == [200] * WAITERS  # none pruned (404) at limit 10
    assert peak["socket"] - baseline["socket"] >= 2 * WAITERS, (shown(baseline), shown(peak))

    def back_to_baseline(now: Counter[str]) -> bool:
        return (now["socket"] <= baseline["socket"] and now["other"] <= baseline["other"]
                and now["database"] <= DATABASE_FDS)

    after = await wait_for(lambda: asyncio.sleep(0, descriptors(portal)), back_to_baseline, 10,
                           f"portal descriptors (baseline {shown(baseline)})")
    print(f"portal fds: baseline {shown(baseline)}, peak {shown(peak)}, after {shown(after)}; "
          f"resident memory at peak {peak_rss} MB\n"
          f"create {created_at - started:.1f} s, park {parked_at - created_at:.1f} s, "
          f"answer {answered_at - parked_at:.1f} s, in all {time.monotonic() - started:.1f} s")
