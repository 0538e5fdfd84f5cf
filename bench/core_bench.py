"""Core benchmarks of the choice portal against a real uvicorn process.

How to run (from the repository root, with the package installed: `pip install -e .`):

    python bench/core_bench.py          # 1,000 waiters, 1,000 answers, 2,000 creates, 10,000 pending
    python bench/core_bench.py --quick  # 100 waiters, 200 answers, 200 creates, 1,000 pending
    python bench/core_bench.py --client httpx   # the same with httpx.AsyncClient as the client

Needs Linux (it reads /proc for RSS, socket queues and CPU time) and nothing beyond the
project's own dependencies (uvloop comes with uvicorn[standard] and is used when present;
httpx, from the [test] extra, only for `--client httpx`). No psutil needed.

What it measures (see bench/README.md):
1. waiters: N interactions, N concurrent blocked `GET ?wait=60`, then N sequential submits;
   per interaction, when the waiter got its answer relative to the submit's 200.
2. answers: POST .../response against GET /healthz in the same run (`answer_path.py`).
3. creates: creates/s at concurrency 16.
4. memory: server RSS at idle, with N waiters blocked, and with 10,000 pending interactions.

Timestamps are `time.perf_counter_ns()` in this one client process, taken when a response's
body has been read completely (before JSON decoding).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import itertools
import json
import math
import os
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from answer_path import AnswerPath, bench_answer_path

from choice.client.portal_client import PortalClient

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
CREATE_CONCURRENCY = 16
IDLE_RECONNECT_S = 3.0  # uvicorn closes keep-alive connections idle for 5 s
SETTLE_TIMEOUT_S = 30.0
START_TIMEOUT_S = 30.0
MS = 1e6  # ns per ms

TARGETS = {
    "response_over_healthz": 1.5,
    "waiter_minus_submit_p50": 2.0,
    "waiter_minus_submit_p99": 10.0,
    "creates_per_s": 500.0,
    "rss_pending_mb": 300.0,
}


def ask(i: int) -> dict[str, Any]:
    """A valid single-choice request. A day's timeout: nothing may expire during the run."""
    return {"title": f"bench {i}", "prompt": "Which one? (benchmark)", "timeout_seconds": 86_400,
            "options": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}]}


# -- HTTP clients ------------------------------------------------------------------------------
@dataclass
class Reply:
    status: int
    body: bytes
    t_done: int
    """perf_counter_ns() when the whole body had been read."""

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


class Session(Protocol):
    async def request(self, method: str, path: str, body: Any = None,
                      sent: Callable[[], None] | None = None) -> Reply: ...

    async def aclose(self) -> None: ...


class RawSession:
    """One keep-alive HTTP/1.1 connection on asyncio streams: a request, then its response.
    `sent` is called once the request bytes have been handed to the kernel."""

    def __init__(self, port: int, token: str) -> None:
        self.port = port
        self.auth = f"Authorization: Bearer {token}\r\nHost: {HOST}:{port}\r\n"
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.last_used = 0.0

    async def connect(self) -> None:
        await self.aclose()
        self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
        self.last_used = time.monotonic()

    async def request(self, method: str, path: str, body: Any = None,
                      sent: Callable[[], None] | None = None) -> Reply:
        if self.writer is None or time.monotonic() - self.last_used > IDLE_RECONNECT_S:
            await self.connect()
        assert self.reader is not None and self.writer is not None
        head = f"{method} {path} HTTP/1.1\r\n{self.auth}Accept: application/json\r\n"
        payload = b""
        if body is not None:
            payload = json.dumps(body).encode()
            head += f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n"
        self.writer.write(head.encode() + b"\r\n" + payload)
        await self.writer.drain()
        if sent is not None:
            sent()
        raw_head = await self.reader.readuntil(b"\r\n\r\n")
        status_line, *header_lines = raw_head.decode("latin-1").split("\r\n")
        headers = {}
        for line in header_lines:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        if "content-length" not in headers:
            raise RuntimeError(f"response without Content-Length: {status_line} {headers}")
        data = await self.reader.readexactly(int(headers["content-length"]))
        t_done = time.perf_counter_ns()
        self.last_used = time.monotonic()
        if headers.get("connection", "").lower() == "close":
            await self.aclose()
        return Reply(int(status_line.split()[1]), data, t_done)

    async def aclose(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(OSError):
                await self.writer.wait_closed()
        self.reader = self.writer = None


class HttpxSession:
    """A view on one shared httpx.AsyncClient (its pool opens a connection per concurrent
    request). `sent` fires on httpcore's `http11.send_request_body.complete` trace event."""

    def __init__(self, client: Any) -> None:
        self.client = client

    async def connect(self) -> None:
        return None

    async def request(self, method: str, path: str, body: Any = None,
                      sent: Callable[[], None] | None = None) -> Reply:
        extensions: dict[str, Any] = {}
        if sent is not None:
            async def trace(name: str, _info: dict[str, Any]) -> None:
                if name == "http11.send_request_body.complete":
                    sent()
            extensions["trace"] = trace
        response = await self.client.request(method, path, json=body, extensions=extensions)
        t_done = time.perf_counter_ns()
        return Reply(response.status_code, response.content, t_done)

    async def aclose(self) -> None:
        return None


class Clients:
    """Makes sessions of the chosen kind: `raw` (default) or `httpx`."""

    def __init__(self, kind: str, port: int, token: str, max_connections: int) -> None:
        self.kind, self.port, self.token = kind, port, token
        self.httpx_client: Any = None
        if kind == "httpx":
            import httpx

            limits = httpx.Limits(max_connections=max_connections,
                                  max_keepalive_connections=max_connections)
            self.httpx_client = httpx.AsyncClient(
                base_url=f"http://{HOST}:{port}", limits=limits, timeout=httpx.Timeout(90.0),
                headers={"Authorization": f"Bearer {token}", "Accept": "application/json"})

    def session(self) -> RawSession | HttpxSession:
        if self.httpx_client is not None:
            return HttpxSession(self.httpx_client)
        return RawSession(self.port, self.token)

    async def aclose(self) -> None:
        if self.httpx_client is not None:
            await self.httpx_client.aclose()


# -- the portal process and what /proc says about it --------------------------------------------
def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


@dataclass
class Portal:
    process: subprocess.Popen[bytes]
    port: int
    data_dir: Path
    log_path: Path
    token: str = ""

    @property
    def pid(self) -> int:
        return self.process.pid

    def status_mb(self, key: str) -> float:
        """VmRSS / VmHWM from /proc/<pid>/status, in MB (10^6 bytes)."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024 / 1e6
        raise RuntimeError(f"{key} not in /proc/{self.pid}/status")

    def cpu_ns(self) -> int:
        """CPU time run by every thread of the server so far (schedstat: ns, not ticks)."""
        total = 0
        for tid in os.listdir(f"/proc/{self.pid}/task"):
            with contextlib.suppress(FileNotFoundError):
                total += int(Path(f"/proc/{self.pid}/task/{tid}/schedstat").read_text().split()[0])
        return total

    def server_sockets(self) -> list[int]:
        """Receive-queue bytes of every established connection the server accepted on its port:
        0 means the server has read everything sent on that connection."""
        port_hex = f"{self.port:04X}"
        queues = []
        for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
            fields = line.split()
            if fields[1].endswith(":" + port_hex) and fields[3] == "01":  # 01 = ESTABLISHED
                queues.append(int(fields[4].split(":")[1], 16))
        return queues

    def log_tail(self) -> str:
        try:
            return self.log_path.read_text()[-3000:]
        except FileNotFoundError:
            return ""

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)


def start_portal(data_dir: Path, max_sessions: int) -> Portal:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CHOICE_")}
    env.update(CHOICE_DATA_DIR=str(data_dir), CHOICE_PORT=str(port), CHOICE_OPEN_BROWSER="0",
               CHOICE_MAX_SESSIONS=str(max_sessions))
    log_path = data_dir.parent / "server.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "server:app", "--host", HOST, "--port", str(port),
             "--log-level", "warning", "--ws-per-message-deflate", "false"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    return Portal(process, port, data_dir, log_path)


async def wait_healthy(portal: Portal) -> float:
    """Poll /healthz (no token) until it answers 200, at most START_TIMEOUT_S; returns seconds."""
    started = time.monotonic()
    probe = RawSession(portal.port, "")
    try:
        while time.monotonic() - started < START_TIMEOUT_S:
            if portal.process.poll() is not None:
                raise RuntimeError(f"the portal exited ({portal.process.returncode}):\n"
                                   + portal.log_tail())
            try:
                reply = await probe.request("GET", "/healthz")
                if reply.status == 200 and reply.json().get("portal") == "choice":
                    return time.monotonic() - started
            except (OSError, asyncio.IncompleteReadError):
                await probe.aclose()
            await asyncio.sleep(0.05)  # polling another process's start: nothing to await instead
    finally:
        await probe.aclose()
    raise RuntimeError(f"no /healthz after {START_TIMEOUT_S} s:\n" + portal.log_tail())


async def healthz(clients: Clients) -> dict[str, Any]:
    """The portal's health with the token (pid, pending count): without it, only `ok`."""
    probe = RawSession(clients.port, clients.token)
    try:
        reply = await probe.request("GET", "/healthz")
    finally:
        await probe.aclose()
    data: dict[str, Any] = reply.json()
    return data


@dataclass
class Usage:
    """CPU used over a phase: by the server, by this client, and by every other process."""

    wall_s: float
    server_s: float
    client_s: float
    others_s: float

    @property
    def others_share(self) -> float:
        return self.others_s / self.wall_s


class Meter:
    def __init__(self, portal: Portal) -> None:
        self.portal = portal
        self.start = self.sample()

    def sample(self) -> tuple[float, float, float, float]:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
        user, nice, system, _idle, _iowait, irq, softirq, steal = fields
        busy = (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")
        own = resource.getrusage(resource.RUSAGE_SELF)
        return (time.perf_counter(), self.portal.cpu_ns() / 1e9, own.ru_utime + own.ru_stime, busy)

    def stop(self) -> Usage:
        wall, server, client, busy = (b - a for a, b in zip(self.start, self.sample(), strict=True))
        return Usage(wall, server, client, max(0.0, busy - server - client))


# -- statistics ------------------------------------------------------------------------------
def pct(values: list[float], p: float) -> float:
    """Nearest-rank percentile (p99 of 1,000 samples is the 990th smallest; p0 is the minimum,
    p100 the maximum); NaN when there are no samples."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


# -- 1. creates ------------------------------------------------------------------------------
@dataclass
class Creates:
    ids: list[str]
    seconds: float
    latencies_ms: list[float]

    @property
    def per_second(self) -> float:
        return len(self.ids) / self.seconds


async def create_many(clients: Clients, n: int, concurrency: int, start: int = 0) -> Creates:
    """n creates from `concurrency` keep-alive connections, each sending its next create as soon
    as the previous one answered."""
    counter = itertools.count(start)
    ids: list[str] = []
    latencies: list[float] = []

    async def worker() -> None:
        session = clients.session()
        try:
            while (i := next(counter)) < start + n:
                t0 = time.perf_counter_ns()
                reply = await session.request("POST", "/api/interactions", ask(i))
                if reply.status != 201:
                    raise RuntimeError(f"create {i}: HTTP {reply.status} {reply.body[:300]!r}")
                latencies.append((reply.t_done - t0) / MS)
                ids.append(reply.json()["interaction_id"])
        finally:
            await session.aclose()

    t0 = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(min(concurrency, n))))
    return Creates(ids, time.perf_counter() - t0, latencies)


async def pending_ids(clients: Clients, n: int) -> list[str]:
    return (await create_many(clients, n, CREATE_CONCURRENCY, start=5 * 10**6)).ids


# -- 2. waiters ------------------------------------------------------------------------------
@dataclass
class Settle:
    sockets: int = 0
    to_bytes_read_ms: float = 0.0
    barrier_ms: float = 0.0
    to_idle_ms: float = 0.0
    idle_cpu_us: float = 0.0


@dataclass
class Waiters:
    n: int
    settle: Settle
    minus_response_ms: list[float] = field(default_factory=list)
    minus_sent_ms: list[float] = field(default_factory=list)
    submit_rtt_ms: list[float] = field(default_factory=list)
    negative: int = 0
    errors: list[str] = field(default_factory=list)
    rss_blocked_mb: float = 0.0


async def until(condition: Callable[[], bool], what: str, timeout: float,
                every: float = 0.005) -> float:
    """Poll a condition that lives outside this process (the kernel, the server) until it holds;
    bounded. Returns the milliseconds it took."""
    t0 = time.monotonic()
    while not condition():
        if time.monotonic() - t0 > timeout:
            raise RuntimeError(f"timed out after {timeout} s waiting for {what}")
        await asyncio.sleep(every)
    return (time.monotonic() - t0) * 1000


async def wait_server_idle(portal: Portal, window: float = 0.05, max_cpu_ns: int = 300_000,
                           windows: int = 2, timeout: float = SETTLE_TIMEOUT_S) -> tuple[float, float]:
    """Until the server's threads together ran < max_cpu_ns in `windows` consecutive windows.
    Returns (ms it took, CPU µs in the last window)."""
    t0, quiet = time.monotonic(), 0
    last = portal.cpu_ns()
    while quiet < windows:
        if time.monotonic() - t0 > timeout:
            raise RuntimeError("the server never went idle")
        await asyncio.sleep(window)
        current = portal.cpu_ns()
        used, last = current - last, current
        quiet = quiet + 1 if used < max_cpu_ns else 0
    return (time.monotonic() - t0) * 1000, used / 1000


async def settle_waiters(portal: Portal, n: int, barrier: Callable[[], Awaitable[Reply]]) -> Settle:
    """Make sure the n waiters are blocked inside the server, not merely sent:
    1. the kernel: >= n established connections on the server's port, each with an empty
       receive queue, i.e. the server has read every request byte (uvicorn starts the ASGI task
       for a request as soon as its headers are parsed);
    2. a FIFO barrier: one more poll (wait=0) through the same route and the same database
       read pool answers; tasks created before it got there first;
    3. the server goes idle: all its threads together use < 0.3 ms of CPU in two consecutive
       50 ms windows, which cannot hold while requests are still being routed or read.
    A waiter that was not blocked would show up as returning before its submit was sent:
    that is checked afterwards and reported as an error."""
    s = Settle()

    def all_read() -> bool:
        queues = portal.server_sockets()
        s.sockets = len(queues)
        return len(queues) >= n and not any(queues)

    s.to_bytes_read_ms = await until(all_read, "the server to read every waiter's request",
                                     SETTLE_TIMEOUT_S)
    t0 = time.perf_counter_ns()
    reply = await barrier()
    if reply.status != 200:
        raise RuntimeError(f"barrier poll: HTTP {reply.status} {reply.body[:300]!r}")
    s.barrier_ms = (time.perf_counter_ns() - t0) / MS
    s.to_idle_ms, s.idle_cpu_us = await wait_server_idle(portal)
    return s


async def bench_waiters(portal: Portal, clients: Clients, n: int) -> Waiters:
    ids = (await create_many(clients, n, CREATE_CONCURRENCY)).ids
    sessions = [clients.session() for _ in ids]
    for start in range(0, n, 200):  # connect in batches: stays well inside the listen backlog
        await asyncio.gather(*(s.connect() for s in sessions[start:start + 200]))

    sent, all_sent = 0, asyncio.Event()
    returned: dict[str, Reply | BaseException] = {}
    done = {iid: asyncio.Event() for iid in ids}

    def on_sent() -> None:
        nonlocal sent
        sent += 1
        if sent == n:
            all_sent.set()

    async def waiter(session: Session, iid: str) -> None:
        try:
            returned[iid] = await session.request("GET", f"/api/interactions/{iid}?wait=60",
                                                  sent=on_sent)
        except Exception as exc:
            returned[iid] = exc
        done[iid].set()

    tasks = [asyncio.create_task(waiter(s, iid)) for s, iid in zip(sessions, ids, strict=True)]
    submitter = clients.session()
    result = Waiters(n, Settle())
    try:
        await asyncio.wait_for(all_sent.wait(), SETTLE_TIMEOUT_S)
        result.settle = await settle_waiters(
            portal, n, lambda: submitter.request("GET", f"/api/interactions/{ids[0]}"))
        result.rss_blocked_mb = portal.status_mb("VmRSS")
        early = [iid for iid in ids if done[iid].is_set()]
        if early:
            result.errors.append(f"{len(early)} waiters returned before any submit")

        gc.collect()
        gc.disable()  # no collector pause inside the client's timed loop
        try:
            for iid in ids:
                t_sent = time.perf_counter_ns()
                reply = await submitter.request("POST", f"/api/interactions/{iid}/response",
                                                {"selected_ids": ["a"]})
                if reply.status != 200:
                    result.errors.append(f"submit {iid}: HTTP {reply.status} {reply.body[:200]!r}")
                    continue
                # one at a time: the next submit goes only once this waiter has its answer
                await asyncio.wait_for(done[iid].wait(), 10)
                got = returned[iid]
                if isinstance(got, BaseException):
                    result.errors.append(f"waiter {iid}: {got!r}")
                    continue
                body = got.json()
                if got.status != 200 or body.get("status") == "pending" or \
                        body.get("selected_ids") != ["a"]:
                    result.errors.append(f"waiter {iid}: HTTP {got.status} {got.body[:200]!r}")
                    continue
                if got.t_done < t_sent:
                    result.errors.append(f"waiter {iid} returned before its submit was sent")
                delta = (got.t_done - reply.t_done) / MS
                result.minus_response_ms.append(delta)
                result.minus_sent_ms.append((got.t_done - t_sent) / MS)
                result.submit_rtt_ms.append((reply.t_done - t_sent) / MS)
                result.negative += delta < 0
        finally:
            gc.enable()
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(*(s.aclose() for s in sessions), submitter.aclose(),
                             return_exceptions=True)
    return result


# -- 3. memory -------------------------------------------------------------------------------
@dataclass
class Memory:
    pending: int
    rss_mb: float
    peak_mb: float
    fill: Creates | None


async def bench_memory(portal: Portal, clients: Clients, target: int) -> Memory:
    pending = int((await healthz(clients))["pending"])
    fill = None
    if pending < target:
        fill = await create_many(clients, target - pending, CREATE_CONCURRENCY, start=10**7)
        pending = int((await healthz(clients))["pending"])
    if pending < target:
        raise RuntimeError(f"only {pending} pending interactions, wanted {target}")
    return Memory(pending, portal.status_mb("VmRSS"), portal.status_mb("VmHWM"), fill)


# -- the run ---------------------------------------------------------------------------------
def ms(value: float) -> str:
    return f"{value:.3f}"


def report(args: argparse.Namespace, portal: Portal, rss_idle: float, w: Waiters,
           a: AnswerPath, c: Creates, m: Memory, usage: dict[str, Usage]) -> str:
    rows: list[tuple[str, str, str, str]] = []

    def row(name: str, value: str, target: str = "", ok: bool | None = None) -> None:
        rows.append((name, value, target, "" if ok is None else ("yes" if ok else "MISSED")))

    for client, healthz, response in (("one keep-alive connection", a.healthz_ms, a.response_ms),
                                      ("a connection per request", a.fresh_healthz_ms,
                                       a.fresh_response_ms)):
        h50, r50 = pct(healthz, 50), pct(response, 50)
        row(f"POST .../response / GET /healthz, p50, {client}", f"{r50 / h50:.2f}", "<= 1.5",
            r50 / h50 <= TARGETS["response_over_healthz"])
        row(f"  GET /healthz p50 / p99 (ms, n={len(healthz)})", f"{ms(h50)} / {ms(pct(healthz, 99))}")
        row("  POST .../response p50 / p99 (ms)", f"{ms(r50)} / {ms(pct(response, 99))}")
    row("  server CPU per request, /healthz / response (µs)",
        f"{a.healthz_cpu_us:.0f} / {a.response_cpu_us:.0f}")

    p50, p99 = pct(w.minus_response_ms, 50), pct(w.minus_response_ms, 99)
    row(f"waiter return - submit response, p50 (ms, n={len(w.minus_response_ms)})", ms(p50),
        "<= 2", p50 <= TARGETS["waiter_minus_submit_p50"])
    row("waiter return - submit response, p99 (ms)", ms(p99), "<= 10",
        p99 <= TARGETS["waiter_minus_submit_p99"])
    row("waiter return - submit response, max (ms)", ms(pct(w.minus_response_ms, 100)))
    row("waiter return - submit response, min (ms)", ms(pct(w.minus_response_ms, 0)))
    row("  share negative (waiter before submit's 200)",
        f"{100 * w.negative / max(1, len(w.minus_response_ms)):.1f} %")
    row("waiter return - submit sent, p50 (ms)", ms(pct(w.minus_sent_ms, 50)))
    row("waiter return - submit sent, p99 (ms)", ms(pct(w.minus_sent_ms, 99)))
    row("submit round trip, p50 / p99 (ms)",
        f"{ms(pct(w.submit_rtt_ms, 50))} / {ms(pct(w.submit_rtt_ms, 99))}")
    row(f"creates/s (n={len(c.ids)}, concurrency {CREATE_CONCURRENCY})", f"{c.per_second:.0f}",
        ">= 500", c.per_second >= TARGETS["creates_per_s"])
    row("  create latency p50 / p99 (ms)",
        f"{ms(pct(c.latencies_ms, 50))} / {ms(pct(c.latencies_ms, 99))}")
    u = usage["creates"]
    row("  server CPU per create, all threads (ms)", ms(u.server_s / len(c.ids) * 1000))
    row("  client CPU per create (ms)", ms(u.client_s / len(c.ids) * 1000))
    row("  server CPU use while creating (cores)", f"{u.server_s / u.wall_s:.2f}")
    if m.fill is not None:
        row(f"  creates/s while filling to {m.pending} pending (n={len(m.fill.ids)})",
            f"{m.fill.per_second:.0f}")
    row("RSS at idle after start (MB)", f"{rss_idle:.1f}")
    row(f"RSS with {w.n} waiters blocked (MB)", f"{w.rss_blocked_mb:.1f}")
    row(f"RSS with {m.pending} pending (MB)", f"{m.rss_mb:.1f}", "<= 300",
        m.rss_mb <= TARGETS["rss_pending_mb"])
    row("  peak RSS over the run, VmHWM (MB)", f"{m.peak_mb:.1f}")

    width, vw = max(len(r[0]) for r in rows), max(len(r[1]) for r in rows)
    lines = [f"{'metric':<{width}}  {'value':>{vw}}  {'target':>7}  ok", "-" * (width + vw + 17)]
    lines += [f"{n:<{width}}  {v:>{vw}}  {t:>7}  {o}".rstrip() for n, v, t, o in rows]
    s = w.settle
    others = ", ".join(f"{name} {100 * u.others_share:.0f} %" for name, u in usage.items())
    lines += [
        "",
        f"client: {args.client} on {loop_name()}; server pid {portal.pid}, port {portal.port}; "
        f"{os.cpu_count()} CPUs; code: {revision()}",
        f"other processes' CPU during each phase (share of one core): {others}"
        + ("  <- busy machine: figures disturbed" if any(u.others_share > 0.1
                                                          for u in usage.values()) else ""),
        f"settle: {s.sockets} server sockets with empty receive queues after "
        f"{s.to_bytes_read_ms:.0f} ms; barrier poll {s.barrier_ms:.1f} ms; server idle "
        f"({s.idle_cpu_us:.0f} µs CPU in the last 50 ms) after {s.to_idle_ms:.0f} ms",
    ]
    if w.errors:
        lines += [f"ERRORS ({len(w.errors)}):", *(f"  {e}" for e in w.errors[:10])]
    return "\n".join(lines)


def revision() -> str:
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                              capture_output=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "choice", "server.py"],
                               cwd=ROOT, text=True, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + (" + uncommitted changes in choice/" if dirty.strip() else "")


def loop_name() -> str:
    return type(asyncio.get_running_loop()).__module__.split(".")[0]


def raise_fd_limit(needed: int) -> None:
    """One socket per waiter, on both sides: lift the soft limit (the portal inherits it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        limit = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))


async def run(args: argparse.Namespace) -> int:
    n_waiters, n_creates, n_pending = ((100, 200, 1_000) if args.quick else (1_000, 2_000, 10_000))
    n_answers = 200 if args.quick else 1_000
    raise_fd_limit(2 * n_waiters + 512)
    with tempfile.TemporaryDirectory(prefix="choice-bench-") as tmp:
        portal = start_portal(Path(tmp) / "data", max_sessions=100_000)
        clients: Clients | None = None
        try:
            started = await wait_healthy(portal)
            portal.token = (portal.data_dir / "token").read_text().strip()
            clients = Clients(args.client, portal.port, portal.token, n_waiters + 64)
            rss_idle = portal.status_mb("VmRSS")
            print(f"portal pid {portal.pid} up in {started:.2f} s, idle RSS {rss_idle:.1f} MB",
                  flush=True)

            usage: dict[str, Usage] = {}
            print(f"[1/4] {n_waiters} blocked waiters, sequential submits ...", flush=True)
            meter = Meter(portal)
            waiters = await bench_waiters(portal, clients, n_waiters)
            usage["waiters"] = meter.stop()
            print(f"[2/4] {n_answers} answers against /healthz, two clients ...", flush=True)
            meter = Meter(portal)
            answers = await bench_answer_path(
                RawSession(portal.port, portal.token),
                PortalClient(f"http://{HOST}:{portal.port}", portal.token), portal.cpu_ns,
                lambda k: pending_ids(clients, k), n_answers)
            usage["answers"] = meter.stop()
            print(f"[3/4] {n_creates} creates at concurrency {CREATE_CONCURRENCY} ...", flush=True)
            meter = Meter(portal)
            creates = await create_many(clients, n_creates, CREATE_CONCURRENCY, start=10**6)
            usage["creates"] = meter.stop()
            print(f"[4/4] filling to {n_pending} pending ...", flush=True)
            meter = Meter(portal)
            memory = await bench_memory(portal, clients, n_pending)
            usage["fill"] = meter.stop()
            if portal.process.poll() is not None:
                raise RuntimeError("the portal died during the run:\n" + portal.log_tail())
            print()
            print(report(args, portal, rss_idle, waiters, answers, creates, memory, usage))
        finally:
            if clients is not None:
                await clients.aclose()
            portal.stop()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="100 waiters, 200 creates, 1,000 pending (a sanity run)")
    parser.add_argument("--client", choices=("raw", "httpx"), default="raw",
                        help="raw asyncio streams (default) or httpx.AsyncClient")
    args = parser.parse_args()
    try:
        import uvloop
    except ImportError:
        return asyncio.run(run(args))
    return uvloop.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
