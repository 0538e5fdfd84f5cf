"""Long discussion bench: what a 500-comment thread costs the portal.

Builds two widened questions of 500 comments each through the API (25 participants x 20
comments, each at its rate limit): one with comments of everyday length (60-600
characters), one with every comment at the 4,000-character limit. Then, for each:

- render: the owner's page (`/choice/{id}`, signed in), a participant's page (`/d/<secret>`)
  and the participant's JSON (`GET /api/d/<secret>`), fetched one at a time: time to the
  last byte (p50, max) and size;
- stall: a probe fetches `GET /healthz` and the owner's list page (`/`) one after another
  for a few seconds, first on an idle portal, then while participants reload their page
  in a loop, several at once: the probe's p99 and longest wait is how long the event
  loop was kept from answering.

    python bench/discussion_bench.py                  # this checkout
    python bench/discussion_bench.py --root /tmp/old  # another checkout (say, before the change)
    python bench/discussion_bench.py --seconds 3 --reloaders 2   # quicker

Starts a real portal (`python -m uvicorn server:app` in `--root`, fresh data dir, free port)
and stops it at the end. Linux, no packages beyond the project's. Run it on a quiet
machine: the figures are wall-clock times.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HOST = "127.0.0.1"
PARTICIPANTS = 25
PER_PARTICIPANT = 20
IDLE_S = 4.0
OPTIONS = [{"id": f"o{i}", "label": f"Option {i}"} for i in range(4)]


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class Http:
    """One keep-alive HTTP/1.1 connection: a request, then its whole response."""

    def __init__(self, port: int, headers: dict[str, str] | None = None) -> None:
        self.port = port
        self.headers = {"Host": f"{HOST}:{port}", **(headers or {})}
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.last_used = 0.0

    async def request(self, method: str, path: str, body: Any = None) -> Reply:
        if self.writer is not None and time.monotonic() - self.last_used > IDLE_S:
            await self.close()  # uvicorn closes a connection idle for 5 s
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
        assert self.reader is not None
        payload = json.dumps(body).encode() if body is not None else b""
        head = [f"{method} {path} HTTP/1.1"] + [f"{k}: {v}" for k, v in self.headers.items()]
        if body is not None:
            head += ["Content-Type: application/json", f"Content-Length: {len(payload)}"]
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + payload)
        await self.writer.drain()
        status_line, *lines = (await self.reader.readuntil(b"\r\n\r\n")).decode(
            "latin-1").split("\r\n")
        headers: dict[str, str] = {}
        for line in lines:
            name, _, value = line.partition(":")
            if name:
                headers.setdefault(name.strip().lower(), value.strip())
        if headers.get("transfer-encoding") == "chunked":
            data = b""
            while size := int((await self.reader.readuntil(b"\r\n")).strip(), 16):
                data += await self.reader.readexactly(size + 2)
                data = data[:-2]
            await self.reader.readuntil(b"\r\n")
        else:
            data = await self.reader.readexactly(int(headers.get("content-length", "0")))
        self.last_used = time.monotonic()
        if headers.get("connection", "").lower() == "close":
            await self.close()
        return Reply(int(status_line.split()[1]), headers, data)

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(OSError):
                await self.writer.wait_closed()
        self.reader = self.writer = None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def start(root: Path, data_dir: Path, port: int) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CHOICE_")}
    env.update(CHOICE_DATA_DIR=str(data_dir), CHOICE_PORT=str(port), CHOICE_OPEN_BROWSER="0",
               PYTHONPATH=str(root))
    return subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "server:app", "--host", HOST, "--port", str(port),
         "--log-level", "warning"], cwd=root, env=env,
        stdout=(data_dir.parent / "server.log").open("wb"), stderr=subprocess.STDOUT)


async def healthy(port: int, process: subprocess.Popen[bytes]) -> None:
    for _ in range(600):
        if process.poll() is not None:
            raise RuntimeError("the portal exited")
        with contextlib.suppress(OSError, asyncio.IncompleteReadError):
            http = Http(port)
            reply = await http.request("GET", "/healthz")
            await http.close()
            if reply.status == 200:
                return
        await asyncio.sleep(0.05)  # another process starting: nothing to await instead
    raise RuntimeError("no /healthz after 30 s")


def text_of(n: int, long: bool) -> str:
    if long:
        return (f"Comment {n}: " + "a considered point about the trade-off, " * 120)[:4000]
    return f"Comment {n}: " + "we measured it and it holds, " * (2 + (n * 7) % 20)


async def thread(port: int, owner: Http, long: bool) -> tuple[str, list[str]]:
    """A question widened to 25 people who write 20 comments each; its id and the links."""
    created = await owner.request("POST", "/api/interactions", {
        "title": "Bench: a long discussion", "prompt": "Which one?", "options": OPTIONS,
        "timeout_seconds": 86_400})
    iid = created.json()["interaction_id"]
    widened = await owner.request("POST", f"/api/interactions/{iid}/widen", {
        "audience": [f"Person {i}" for i in range(PARTICIPANTS)], "mode": "continue"})
    secrets = [p["link"].rsplit("/d/", 1)[1] for p in widened.json()["participants"]]

    async def write(who: int) -> None:
        http = Http(port)
        for n in range(PER_PARTICIPANT):
            reply = await http.request("POST", f"/api/d/{secrets[who]}/comments",
                                       {"text": text_of(who * PER_PARTICIPANT + n, long)})
            assert reply.status == 201, reply.body[:200]
        await http.close()

    await asyncio.gather(*(write(who) for who in range(PARTICIPANTS)))
    return iid, secrets


@dataclass
class Timed:
    times_ms: list[float] = field(default_factory=list)
    size: int = 0

    def line(self, name: str) -> str:
        times = sorted(self.times_ms)
        return (f"  {name:<22} p50 {statistics.median(times):7.1f} ms   max {times[-1]:7.1f} ms"
                f"   {self.size / 1000:8.1f} KB")


async def fetched(http: Http, path: str, times: int) -> Timed:
    timed = Timed()
    for _ in range(times):
        started = time.perf_counter()
        reply = await http.request("GET", path)
        timed.times_ms.append((time.perf_counter() - started) * 1000)
        assert reply.status == 200, (path, reply.status)
        timed.size = len(reply.body)
    return timed


async def probe(port: int, cookie: dict[str, str], seconds: float) -> dict[str, list[float]]:
    """`/healthz` and the owner's list page, one after the other, for `seconds`."""
    waits: dict[str, list[float]] = {"/healthz": [], "/": []}
    http = Http(port, cookie)
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        for path in waits:
            started = time.perf_counter()
            await http.request("GET", path)
            waits[path].append((time.perf_counter() - started) * 1000)
    await http.close()
    return waits


async def reload_loop(port: int, secret: str, stop: asyncio.Event) -> int:
    http = Http(port, {"User-Agent": "Mozilla/5.0 bench"})
    count = 0
    while not stop.is_set():
        await http.request("GET", f"/d/{secret}")
        count += 1
    await http.close()
    return count


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


async def stall(port: int, cookie: dict[str, str], secrets: list[str], reloaders: int,
                seconds: float) -> list[str]:
    idle = await probe(port, cookie, seconds)
    stop = asyncio.Event()
    loops = [asyncio.create_task(reload_loop(port, s, stop)) for s in secrets[:reloaders]]
    busy = await probe(port, cookie, seconds)
    stop.set()
    reloads = sum(await asyncio.gather(*loops))
    lines = []
    for path in idle:
        lines.append(f"  probe {path:<9} idle p99 {p99(idle[path]):7.1f} max "
                     f"{max(idle[path]):7.1f} ms | while {reloaders} reload: p99 "
                     f"{p99(busy[path]):7.1f} max {max(busy[path]):7.1f} ms")
    lines.append(f"  participant reloads in {seconds:g} s: {reloads}")
    return lines


async def run(args: argparse.Namespace) -> None:
    work = Path(tempfile.mkdtemp(prefix="discussion-bench-"))
    data_dir = work / "data"
    data_dir.mkdir()
    port = free_port()
    process = start(args.root, data_dir, port)
    try:
        await healthy(port, process)
        token = (data_dir / "token").read_text().strip()
        owner = Http(port, {"Authorization": f"Bearer {token}"})
        login = await Http(port).request("GET", f"/login?token={token}&next=/")
        cookie = {"Cookie": login.headers["set-cookie"].split(";", 1)[0]}
        print(f"portal from {args.root}, {PARTICIPANTS * PER_PARTICIPANT} comments a thread")
        for long in (False, True):
            iid, secrets = await thread(port, owner, long)
            print("4,000-character comments:" if long else "everyday comments:")
            page = Http(port, cookie)
            print((await fetched(page, f"/choice/{iid}", args.renders)).line("owner page"))
            reader = Http(port, {"User-Agent": "Mozilla/5.0 bench"})
            print((await fetched(reader, f"/d/{secrets[0]}", args.renders)).line(
                "participant page"))
            print((await fetched(reader, f"/api/d/{secrets[0]}", args.renders)).line(
                "participant JSON"))
            for http in (page, reader):
                await http.close()
            for line in await stall(port, cookie, secrets, args.reloaders, args.seconds):
                print(line)
        await owner.close()
    finally:
        process.terminate()
        process.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1],
                        help="the checkout whose portal to run (default: this one)")
    parser.add_argument("--renders", type=int, default=20, help="fetches of each page")
    parser.add_argument("--reloaders", type=int, default=4, help="participants reloading at once")
    parser.add_argument("--seconds", type=float, default=5.0, help="each probe's duration")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
