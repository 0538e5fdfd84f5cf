"""Web benchmarks of the choice portal against a real uvicorn process.

How to run (from the repository root, with the package installed with its [test] extra, and
Debian's Chromium at /usr/bin/chromium: `playwright install` cannot download browsers here):

    python bench/web_bench.py            # full: 500 renders each way, 1,000 sockets for 30 s
    python bench/web_bench.py --quick    # sanity: 100 renders each way, 100 sockets for 10 s
    python bench/web_bench.py --py-spy /tmp/prof   # also sample the server with py-spy
    python bench/web_bench.py --weights  # page weights only: the four pages with a weight budget

Needs Linux (/proc) and, beyond the project's own dependencies, playwright (the [test] extra)
and websockets (comes with uvicorn[standard]). It reuses core_bench.py's portal handling: a
fresh data dir, a free port, `python -m uvicorn server:app`, /healthz, the token file, and the
portal always killed at the end.

What it measures (see bench/README.md):
1. page weight: the first load of /choice/{id} in headless Chromium, signed in through
   /login?token=…&next=…: HTTP requests (the sign-in redirect hop and the WebSocket counted
   apart) and bytes on the wire (CDP `encodedDataLength`: compressed bodies plus headers);
   then the same page again with a warm cache.
2. render: sequential GET /choice/{id} with the session cookie on one keep-alive connection,
   with and without `Accept-Encoding: gzip`; latency measured here, server CPU per render
   from /proc/<pid>/stat (and schedstat). 20 realistic interactions in the list.
3. sockets: N countdown WebSockets (/ws/choice/{id}, cookie and the portal's own Origin,
   permessage-deflate offered as Chromium does) over 50 interactions; the server's CPU over a
   steady-state window as % of one core, its RSS, and the sync messages every socket received.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import gzip
import itertools
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from core_bench import (
    HOST,
    MS,
    ROOT,
    Meter,
    Portal,
    RawSession,
    Usage,
    loop_name,
    pct,
    raise_fd_limit,
    start_portal,
    wait_healthy,
)
from realistic import OPTIONS, TEAM, realistic_ask, realistic_questions

from choice.web.live.sockets import SYNC_SECONDS
from choice.web.security.sessions import COOKIE

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]
LIST_SIZE = 20  # interactions in the sidebar of the rendered page
COMPLETED_IN_LIST = 3  # of those, answered ones (the list shows up to 5 recent completed)
SOCKET_INTERACTIONS = 50
CONNECT_BATCH = 100
SETTLE_S = 1.0  # after the page's first socket message: late requests would show up here
KB = 1000

TARGETS = {
    # With the vendored htmx 2 in the bundle; `--weights` also loads each page again with
    # the cache the first load filled (`*_warm_kb`).
    "page_kb": 46.0,
    "questions_page_kb": 48.0,  # a 4-question interaction's first load
    "widened_page_kb": 50.0,  # the owner's page of a question widened to the team
    "list_page_kb": 44.0,
    "page_warm_kb": 10.0,
    "questions_page_warm_kb": 10.0,
    # its team panel is fetched again when the socket connects: what moved between the
    # page's render and its subscription is not missed
    "widened_page_warm_kb": 12.0,
    "list_page_warm_kb": 10.0,
    "page_requests": 5,
    "render_p50_ms": 5.0,
    "sockets_cpu_pct": 10.0,
}


async def create_interactions(portal: Portal, n: int, start: int = 0) -> list[str]:
    session = RawSession(portal.port, portal.token)
    ids = []
    try:
        for i in range(start, start + n):
            reply = await session.request("POST", "/api/interactions", realistic_ask(i))
            if reply.status != 201:
                raise RuntimeError(f"create {i}: HTTP {reply.status} {reply.body[:300]!r}")
            ids.append(reply.json()["interaction_id"])
    finally:
        await session.aclose()
    return ids


async def answer(portal: Portal, ids: list[str]) -> None:
    session = RawSession(portal.port, portal.token)
    try:
        for iid in ids:
            reply = await session.request("POST", f"/api/interactions/{iid}/response",
                                          {"selected_ids": [OPTIONS[2]["id"]]})
            if reply.status != 200:
                raise RuntimeError(f"answer {iid}: HTTP {reply.status} {reply.body[:300]!r}")
    finally:
        await session.aclose()


# -- a browser-like HTTP client for pages ------------------------------------------------------
@dataclass
class Page:
    status: int
    headers: dict[str, str]
    cookies: list[str]
    body: bytes
    t_done: int

    def text(self) -> str:
        raw = gzip.decompress(self.body) if self.headers.get("content-encoding") == "gzip" \
            else self.body
        return raw.decode()


class PageSession:
    """One keep-alive HTTP/1.1 connection asking for pages as a browser would: with the
    session cookie and, when `gzip`, `Accept-Encoding: gzip`. Bodies need a Content-Length."""

    def __init__(self, port: int, cookie: str | None, gzip: bool) -> None:
        self.head = (f"Host: {HOST}:{port}\r\nAccept: text/html\r\nUser-Agent: web-bench\r\n"
                     + (f"Cookie: {COOKIE}={cookie}\r\n" if cookie else "")
                     + ("Accept-Encoding: gzip\r\n" if gzip else ""))
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def get(self, path: str) -> Page:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
        assert self.reader is not None
        self.writer.write(f"GET {path} HTTP/1.1\r\n{self.head}\r\n".encode())
        raw_head = await self.reader.readuntil(b"\r\n\r\n")
        status_line, *lines = raw_head.decode("latin-1").rstrip("\r\n").split("\r\n")
        headers, cookies = {}, []
        for line in lines:
            name, _, value = line.partition(":")
            name, value = name.strip().lower(), value.strip()
            if name == "set-cookie":
                cookies.append(value)
            headers[name] = value
        if "content-length" not in headers:
            raise RuntimeError(f"response without Content-Length: {status_line} {headers}")
        body = await self.reader.readexactly(int(headers["content-length"]))
        t_done = time.perf_counter_ns()
        if headers.get("connection", "").lower() == "close":
            await self.aclose()
        return Page(int(status_line.split()[1]), headers, cookies, body, t_done)

    async def aclose(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(OSError):
                await self.writer.wait_closed()
        self.reader = self.writer = None


async def sign_in(portal: Portal, next_path: str) -> str:
    """`GET /login?token=…&next=…` as the browser does: 303 to `next` with the HttpOnly session
    cookie. Returns the cookie's value."""
    session = PageSession(portal.port, None, gzip=False)
    try:
        page = await session.get(f"/login?token={quote(portal.token)}&next={quote(next_path)}")
    finally:
        await session.aclose()
    if page.status != 303 or page.headers.get("location") != next_path:
        raise RuntimeError(f"/login: HTTP {page.status} {page.headers}")
    for cookie in page.cookies:
        name, _, rest = cookie.partition("=")
        if name == COOKIE:
            if "httponly" not in rest.lower():
                raise RuntimeError(f"the session cookie is not HttpOnly: {cookie}")
            return rest.split(";", 1)[0]
    raise RuntimeError(f"/login set no {COOKIE} cookie: {page.cookies}")


# -- CPU and memory of the server --------------------------------------------------------------
def stat_cpu_s(pid: int) -> float:
    """utime + stime of the whole process (every thread) from /proc/<pid>/stat, in seconds
    (clock ticks: 10 ms resolution)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class ServerCpu:
    """The server's CPU over an interval, two ways: /proc/<pid>/stat and schedstat (ns)."""

    portal: Portal
    t0: float = 0.0
    stat0: float = 0.0
    sched0: int = 0
    wall_s: float = 0.0
    stat_s: float = 0.0
    sched_s: float = 0.0

    def start(self) -> ServerCpu:
        self.t0, self.stat0 = time.perf_counter(), stat_cpu_s(self.portal.pid)
        self.sched0 = self.portal.cpu_ns()
        return self

    def stop(self) -> ServerCpu:
        self.wall_s = time.perf_counter() - self.t0
        self.stat_s = stat_cpu_s(self.portal.pid) - self.stat0
        self.sched_s = (self.portal.cpu_ns() - self.sched0) / 1e9
        return self

    @property
    def core_pct(self) -> float:
        return 100 * self.stat_s / self.wall_s

    @property
    def sched_core_pct(self) -> float:
        return 100 * self.sched_s / self.wall_s


class Profiler:
    """`py-spy record` on the server for one phase: raw collapsed stacks, only of the thread
    holding the GIL (`--gil`: Python's CPU, not threads idling in a queue). py-spy pauses the
    process for every sample: the figures of a profiled run are disturbed."""

    def __init__(self, out_dir: Path | None, portal: Portal, name: str) -> None:
        self.process: subprocess.Popen[bytes] | None = None
        self.path = out_dir / f"{name}.txt" if out_dir else None
        if out_dir is not None and self.path is not None:
            out_dir.mkdir(parents=True, exist_ok=True)
            self.process = subprocess.Popen(
                ["py-spy", "record", "--pid", str(portal.pid), "--rate", "250", "--format", "raw",
                 "--output", str(self.path), "--threads", "--gil"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    async def __aenter__(self) -> Profiler:
        if self.process is not None:
            await asyncio.sleep(1.0)  # py-spy attaches
        return self

    async def __aexit__(self, *_exc: object) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=20)
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()


PROFILE_BUCKETS = (  # a sample goes to the innermost frame that matches one of these
    ("markdown_it/", "Markdown rendering (markdown-it)"),
    ("babel/", "babel (relative ages)"),
    ("gzip", "gzip compression"),
    ("compression/", "gzip compression"),
    ("sqlalchemy/", "database (SQLAlchemy, sqlite3)"),
    ("choice/store/", "database (SQLAlchemy, sqlite3)"),
    ("pydantic", "pydantic"),
    ("jinja2/", "Jinja (template code and runtime)"),
    (".html", "Jinja (template code and runtime)"),
    ("markupsafe/", "Jinja (template code and runtime)"),
    ("choice/", "choice's own Python"),
    ("litestar/", "Litestar (routing, DI, responses)"),
    ("uvicorn/", "uvicorn, websockets, httptools"),
    ("websockets/", "uvicorn, websockets, httptools"),
    ("asyncio/", "asyncio"),
)


def profile_summary(path: Path, top: int = 22) -> list[str]:
    """From py-spy's collapsed stacks: each sample put in the bucket of its innermost known
    frame, then the inclusive share per function (frames in >= 80 % of samples left out)."""
    if not path.exists():
        return [f"  (no profile at {path})"]
    buckets: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        n = int(count)
        total += n
        frames = stack.split(";")[1:]  # the first is the thread
        where = [frame.partition(" (")[2] for frame in frames]
        buckets[next((label for w in reversed(where) for part, label in PROFILE_BUCKETS
                      if part in w), "other")] += n
        for key in {f"{frame.partition(' (')[0]} ({w.rstrip(')').rsplit(':', 1)[0]})"
                    for frame, w in zip(frames, where, strict=True)}:
            inclusive[key] += n
    lines = [f"  {total} samples holding the GIL; by innermost known frame:"]
    lines += [f"  {100 * n / max(1, total):5.1f} %  {label}" for label, n in buckets.most_common()]
    lines.append("  inclusive share per function (frames in >= 80 % of the samples left out):")
    shown = [(k, n) for k, n in inclusive.most_common() if n < 0.8 * total][:top]
    lines += [f"  {100 * n / max(1, total):5.1f} %  {key}" for key, n in shown]
    return lines


# -- 1. page weight in Chromium ----------------------------------------------------------------
@dataclass
class Resource:
    url: str
    kind: str
    t_start: float
    status: int = 0
    encoding: str = ""
    header_bytes: int = 0
    transferred: int = 0
    decoded: int = 0
    cache: str = ""
    finished: bool = False
    failed: str = ""


@dataclass
class Hop:
    url: str
    status: int
    transferred: int


@dataclass
class SocketSeen:
    url: str
    status: int = 0
    frames: int = 0
    bytes: int = 0
    t_first: float = 0.0


class NetworkLog:
    """What the page fetched, from the CDP Network domain (`encodedDataLength`: bytes received
    over the network for a request, headers included, compressed as on the wire)."""

    def __init__(self) -> None:
        self.resources: dict[str, Resource] = {}
        self.hops: list[Hop] = []
        self.sockets: dict[str, SocketSeen] = {}
        self.first_message = asyncio.Event()
        self.t_navigation = 0.0

    HANDLERS = (("requestWillBeSent", "on_request"), ("responseReceived", "on_response"),
                ("dataReceived", "on_data"), ("loadingFinished", "on_finished"),
                ("loadingFailed", "on_failed"), ("requestServedFromCache", "on_cache"),
                ("webSocketCreated", "on_ws"), ("webSocketFrameReceived", "on_frame"),
                ("webSocketHandshakeResponseReceived", "on_handshake"))

    def on_request(self, e: dict[str, Any]) -> None:
        url, rid = e["request"]["url"], e["requestId"]
        if url.startswith("data:"):
            return
        if "redirectResponse" in e and rid in self.resources:
            previous, r = self.resources.pop(rid), e["redirectResponse"]
            self.hops.append(Hop(previous.url, r["status"], int(r.get("encodedDataLength", 0))))
        if not self.t_navigation:
            self.t_navigation = e["timestamp"]
        self.resources[rid] = Resource(url, e.get("type", ""), e["timestamp"])

    def on_response(self, e: dict[str, Any]) -> None:
        if (r := self.resources.get(e["requestId"])) is None:
            return
        response = e["response"]
        headers = {k.lower(): v for k, v in response.get("headers", {}).items()}
        r.status, r.encoding = response["status"], headers.get("content-encoding", "")
        r.header_bytes = int(response.get("encodedDataLength", 0))
        if response.get("fromDiskCache"):
            r.cache = "disk cache"
        elif response.get("fromMemoryCache"):
            r.cache = "memory cache"

    def on_data(self, e: dict[str, Any]) -> None:
        if (r := self.resources.get(e["requestId"])) is not None:
            r.decoded += e["dataLength"]

    def on_finished(self, e: dict[str, Any]) -> None:
        if (r := self.resources.get(e["requestId"])) is not None:
            r.transferred, r.finished = int(e["encodedDataLength"]), True

    def on_failed(self, e: dict[str, Any]) -> None:
        if (r := self.resources.get(e["requestId"])) is not None:
            r.failed = e.get("errorText", "failed")

    def on_cache(self, e: dict[str, Any]) -> None:
        if (r := self.resources.get(e["requestId"])) is not None:
            r.cache = r.cache or "cache"

    def on_ws(self, e: dict[str, Any]) -> None:
        self.sockets[e["requestId"]] = SocketSeen(e["url"])

    def on_handshake(self, e: dict[str, Any]) -> None:
        if (s := self.sockets.get(e["requestId"])) is not None:
            s.status = e["response"]["status"]

    def on_frame(self, e: dict[str, Any]) -> None:
        if (s := self.sockets.get(e["requestId"])) is not None:
            s.frames += 1
            s.bytes += len(e["response"].get("payloadData", ""))
            if not s.t_first:
                s.t_first = e["timestamp"]
                self.first_message.set()

    # -- summaries
    @property
    def network(self) -> list[Resource]:
        return [r for r in self.resources.values() if not r.cache]

    @property
    def transferred(self) -> int:
        return sum(r.transferred for r in self.resources.values())

    @property
    def first_message_ms(self) -> float:
        firsts = [s.t_first for s in self.sockets.values() if s.t_first]
        return (min(firsts) - self.t_navigation) * 1000 if firsts else float("nan")


@dataclass
class Load:
    log: NetworkLog
    timing: dict[str, float]
    console_errors: list[str]
    checks: list[str]


@dataclass
class Browser:
    version: str
    cold: Load
    warm: Load


async def load_page(page: Any, cdp_log: NetworkLog, url: str, errors: list[str]) -> Load:
    """A question's page is loaded once its socket spoke (the list's says nothing at first)."""
    errors.clear()
    await page.goto(url, wait_until="load", timeout=30_000)
    try:
        if "/choice/" in url:
            await asyncio.wait_for(cdp_log.first_message.wait(), 15)
    except TimeoutError:
        errors.append("no WebSocket message within 15 s of the load event")
    await asyncio.sleep(SETTLE_S)
    timing = await page.evaluate(
        """() => { const n = performance.getEntriesByType("navigation")[0];
                   return {dom: n.domContentLoadedEventEnd, load: n.loadEventEnd,
                           redirect: n.redirectEnd - n.redirectStart}; }""")
    checks = await page.evaluate(
        """() => [location.pathname,
                  document.querySelector('[data-testid="interaction"]') ? "page" : "no page",
                  typeof window.ChoicePortal === "object" ? "js" : "no js",
                  document.documentElement.getAttribute("data-js") || "",
                  (document.querySelector('[data-testid="countdown-text"]') || {}).textContent
                    || "no countdown",
                  String(document.querySelectorAll('[data-testid="list-item"]').length)]""")
    return Load(cdp_log, timing, list(errors), checks)


async def bench_browser(portal: Portal, path: str, chromium: str) -> Browser:
    from playwright.async_api import async_playwright

    base = f"http://{HOST}:{portal.port}"
    errors: list[str] = []
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            context = await browser.new_context()
            page = await context.new_page()
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            cdp = await context.new_cdp_session(page)
            await cdp.send("Network.enable")
            logs: list[NetworkLog] = []  # events go to the newest log, one per load
            for event, handler in NetworkLog.HANDLERS:
                cdp.on(f"Network.{event}",
                       lambda e, handler=handler: getattr(logs[-1], handler)(e) if logs else None)
            loads = []
            for url in (f"{base}/login?token={quote(portal.token)}&next={path}", base + path):
                logs.append(NetworkLog())
                loads.append(await load_page(page, logs[-1], url, errors))
            return Browser(browser.version, loads[0], loads[1])
        finally:
            await browser.close()


async def bench_weights(args: argparse.Namespace, portal: Portal, single_id: str) -> str:
    """`--weights`: the first load of the four pages with a weight budget: one question, N
    questions (`--questions`, 4 by default), a question widened to the team (its owner's
    page), and the list."""
    session = RawSession(portal.port, portal.token)
    try:
        await session.request("PUT", "/api/settings", {"team": TEAM})
        created = []
        for body in (realistic_questions(args.questions or 4), realistic_ask(LIST_SIZE)):
            reply = await session.request("POST", "/api/interactions", body)
            if reply.status != 201:
                raise RuntimeError(f"create: HTTP {reply.status} {reply.body[:300]!r}")
            created.append(reply.json()["interaction_id"])
        several_id, widened_id = created
        reply = await session.request("POST", f"/api/interactions/{widened_id}/widen", {})
        if reply.status != 201:
            raise RuntimeError(f"widen: HTTP {reply.status} {reply.body[:300]!r}")
    finally:
        await session.aclose()
    t = Table()
    base = f"http://{HOST}:{portal.port}"
    lines: list[str] = []
    pages = (("1 question", f"/choice/{single_id}", "page_kb"),
             (f"{args.questions or 4} questions", f"/choice/{several_id}", "questions_page_kb"),
             ("widened, the owner's page", f"/choice/{widened_id}", "widened_page_kb"),
             ("the list", "/", "list_page_kb"))
    for label, path, target in pages:
        print(f"first load of {label} in headless Chromium ...", flush=True)
        loaded = await bench_browser(portal, path, args.chromium)
        cold = loaded.cold
        kb = cold.log.transferred / KB
        t.row(f"{label}: first load, bytes on the wire, headers included (KB)", f"{kb:.1f}",
              f"<= {TARGETS[target]:.0f}", kb <= TARGETS[target])
        t.row("  bodies only, compressed (KB) / decoded (KB)",
              f"{sum(r.transferred - r.header_bytes for r in cold.log.resources.values()) / KB:.1f}"
              f" / {sum(r.decoded for r in cold.log.resources.values()) / KB:.1f}")
        t.row("  HTTP requests (sign-in hop and socket apart)", str(len(cold.log.resources)))
        warm_kb, warm_target = loaded.warm.log.transferred / KB, TARGETS[f"{target[:-3]}_warm_kb"]
        t.row("  the same page again, warm cache, bytes on the wire (KB)", f"{warm_kb:.1f}",
              f"<= {warm_target:.0f}", warm_kb <= warm_target)
        lines += ["", *resource_lines(f"{label}, first load (cold cache):", cold, base)]
    return "\n".join([*t.render(), *lines, "", "KB = 1,000 bytes; gzip as Chromium asks for it"])


# -- 2. server render time ---------------------------------------------------------------------
@dataclass
class Render:
    label: str
    n: int
    latencies_ms: list[float]
    cpu: ServerCpu
    usage: Usage
    size: int
    decoded_size: int
    first_ms: float


async def bench_render(portal: Portal, cookie: str, iid: str, n: int, use_gzip: bool,
                       profile_dir: Path | None, warmup: int = 20) -> Render:
    session = PageSession(portal.port, cookie, use_gzip)
    path = f"/choice/{iid}"
    try:
        t0 = time.perf_counter_ns()
        first = await session.get(path)
        first_ms = (first.t_done - t0) / MS
        text = first.text()
        if first.status != 200 or 'data-testid="interaction"' not in text or \
                (first.headers.get("content-encoding") == "gzip") != use_gzip:
            raise RuntimeError(f"{path}: HTTP {first.status} {first.headers} {text[:300]!r}")
        items = text.count('data-testid="list-item"')
        if items != LIST_SIZE:
            raise RuntimeError(f"expected {LIST_SIZE} list items on the page, got {items}")
        for _ in range(warmup):
            await session.get(path)
        latencies: list[float] = []
        async with Profiler(profile_dir, portal, "render"):
            gc.collect()
            gc.disable()  # no collector pause inside the client's timed loop
            meter, cpu = Meter(portal), ServerCpu(portal).start()
            try:
                for _ in range(n):
                    t_sent = time.perf_counter_ns()
                    reply = await session.get(path)
                    if reply.status != 200:
                        raise RuntimeError(f"{path}: HTTP {reply.status}")
                    latencies.append((reply.t_done - t_sent) / MS)
            finally:
                cpu.stop()
                usage = meter.stop()
                gc.enable()
    finally:
        await session.aclose()
    label = "gzip" if use_gzip else "identity"
    return Render(label, n, latencies, cpu, usage, len(first.body), len(text.encode()), first_ms)


# -- 3. open countdown sockets -----------------------------------------------------------------
@dataclass
class Sockets:
    n: int
    window_s: float
    idle_cpu: ServerCpu
    cpu: ServerCpu
    usage: Usage
    rss_before_mb: float
    rss_mb: float
    connect_s: float
    per_socket: list[int]
    """deadline messages each socket received inside the window"""
    gaps_ms: list[float]
    lags_ms: list[float]
    closed: int
    other_messages: int
    errors: list[str] = field(default_factory=list)


class SocketClient:
    """One countdown socket on the `websockets` asyncio client: counts the sync messages."""

    def __init__(self, iid: str) -> None:
        self.iid = iid
        self.count = 0
        self.others = 0
        self.times: list[float] = []
        self.lags_ms: list[float] = []
        self.closed: str = ""
        self.connection: Any = None
        self.task: asyncio.Task[None] | None = None

    async def open(self, uri: str, origin: str, cookie: str, compression: str | None) -> None:
        from websockets.asyncio.client import connect
        from websockets.typing import Origin

        self.connection = await connect(
            uri, origin=Origin(origin), additional_headers={"Cookie": f"{COOKIE}={cookie}"},
            compression=compression, proxy=None, ping_interval=None, open_timeout=60,
            close_timeout=5, user_agent_header="web-bench")
        self.task = asyncio.create_task(self.read())

    async def read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for raw in self.connection:
                received = time.time()
                message = json.loads(raw)
                if message.get("type") == "deadline" and message.get("interaction_id") == self.iid:
                    self.count += 1
                    self.times.append(time.perf_counter())
                    self.lags_ms.append(received * 1000 - message["server_now_ms"])
                else:
                    self.others += 1
        except ConnectionClosed as exc:
            self.closed = f"closed {exc.rcvd.code if exc.rcvd else '?'}"
            return
        self.closed = f"closed {self.connection.close_code}"


async def bench_sockets(portal: Portal, cookie: str, ids: list[str], n: int, window_s: float,
                        compression: str | None, profile_dir: Path | None) -> Sockets:
    base, origin = f"ws://{HOST}:{portal.port}", f"http://{HOST}:{portal.port}"
    idle = ServerCpu(portal).start()
    await asyncio.sleep(min(5.0, window_s / 2))
    idle.stop()
    rss_before = portal.status_mb("VmRSS")
    clients = [SocketClient(ids[i % len(ids)]) for i in range(n)]
    errors: list[str] = []
    t0 = time.perf_counter()
    try:
        for start in range(0, n, CONNECT_BATCH):
            batch = clients[start:start + CONNECT_BATCH]
            results = await asyncio.gather(
                *(c.open(f"{base}/ws/choice/{c.iid}", origin, cookie, compression) for c in batch),
                return_exceptions=True)
            errors += [f"connect: {r!r}" for r in results if isinstance(r, BaseException)]
        connect_s = time.perf_counter() - t0
        if errors:
            raise RuntimeError(f"{len(errors)} sockets failed to connect: {errors[:3]}")
        # steady state: every socket has had its on-connect message and one periodic sync
        await asyncio.sleep(SYNC_SECONDS + 1.5)
        no_first = sum(1 for c in clients if c.count == 0)
        if no_first:
            errors.append(f"{no_first} sockets never got their on-connect deadline message")
        async with Profiler(profile_dir, portal, "sockets"):
            before = [c.count for c in clients]
            meter, cpu = Meter(portal), ServerCpu(portal).start()
            t_window = time.perf_counter()
            await asyncio.sleep(window_s)
            cpu.stop()
            usage = meter.stop()
            t_end = time.perf_counter()
        rss = portal.status_mb("VmRSS")
        per_socket = [c.count - b for c, b in zip(clients, before, strict=True)]
        gaps = [(b - a) * 1000 for c in clients
                for a, b in itertools.pairwise(c.times) if t_window <= b <= t_end]
        lags = [lag for c in clients for t, lag in zip(c.times, c.lags_ms, strict=True)
                if t_window <= t <= t_end]
        closed = sum(1 for c in clients if c.closed)
        others = sum(c.others for c in clients)
    finally:
        opened = [c for c in clients if c.connection is not None]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*(c.connection.close() for c in opened),
                                                  return_exceptions=True), 30)
        tasks = [c.task for c in clients if c.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return Sockets(n, window_s, idle, cpu, usage, rss_before, rss, connect_s, per_socket, gaps,
                   lags, closed, others, errors)


# -- the report --------------------------------------------------------------------------------
SERVED = ("choice", "server.py", "templates", "static", "manifest.toml")


def revision() -> str:
    """HEAD, plus which of the served paths (code, templates, assets) have uncommitted changes."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                              capture_output=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", *SERVED], cwd=ROOT,
                               text=True, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    changed = sorted({line[3:].split("/", 1)[0] for line in dirty.splitlines() if line.strip()})
    return head + (f" + uncommitted changes in {', '.join(changed)}" if changed else "")


class Table:
    def __init__(self) -> None:
        self.rows: list[tuple[str, str, str, str]] = []

    def row(self, name: str, value: str, target: str = "", ok: bool | None = None) -> None:
        self.rows.append((name, value, target, "" if ok is None else ("yes" if ok else "MISSED")))

    def render(self) -> list[str]:
        width = max(len(r[0]) for r in self.rows)
        vw = max(len(r[1]) for r in self.rows)
        tw = max(6, *(len(r[2]) for r in self.rows))
        lines = [f"{'metric':<{width}}  {'value':>{vw}}  {'target':>{tw}}  ok",
                 "-" * (width + vw + tw + 10)]
        lines += [f"{n:<{width}}  {v:>{vw}}  {t:>{tw}}  {o}".rstrip() for n, v, t, o in self.rows]
        return lines


def resource_lines(title: str, load: Load, base: str) -> list[str]:
    lines = [title]
    for hop in load.log.hops:
        lines.append(f"  {'(sign-in hop)':<14} {hop.status:>3}  {hop.transferred:>7,} B on the wire"
                     f"{'':>45}{hop.url.removeprefix(base).split('?')[0]}?token=…")
    for r in load.log.resources.values():
        where = f"from {r.cache}" if r.cache else (r.encoding or "identity")
        headers = "   -" if r.cache else f"{r.header_bytes:>4}"
        lines.append(f"  {r.kind:<14} {r.status:>3}  {r.transferred:>7,} B on the wire "
                     f"({headers} B headers)  {r.decoded:>7,} B decoded  {where:<17} "
                     f"{r.url.removeprefix(base)}" + (f"  FAILED {r.failed}" if r.failed else "")
                     + ("" if r.finished or r.failed else "  (unfinished)"))
    for s in load.log.sockets.values():
        lines.append(f"  {'WebSocket':<14} {s.status:>3}  {s.frames} frames received "
                     f"({s.bytes} B of payload)  {s.url.removeprefix(base.replace('http', 'ws'))}")
    t = load.timing
    lines.append(f"  DOMContentLoaded {t['dom']:.0f} ms, load {t['load']:.0f} ms after navigation "
                 f"start (sign-in redirect {t['redirect']:.0f} ms); first socket message "
                 f"{load.log.first_message_ms:.0f} ms; checks: {', '.join(load.checks)}")
    if load.console_errors:
        lines.append(f"  CONSOLE ERRORS: {load.console_errors[:5]}")
    return lines


def report(args: argparse.Namespace, portal: Portal, b: Browser | None, renders: list[Render],
           s: Sockets, rss_idle: float) -> str:
    t = Table()
    base = f"http://{HOST}:{portal.port}"
    if b is not None:
        cold, warm = b.cold.log, b.warm.log
        kb, requests = cold.transferred / KB, len(cold.resources)
        t.row("first load: HTTP requests (sign-in hop and socket apart)", str(requests),
              f"<= {TARGETS['page_requests']}", requests <= TARGETS["page_requests"])
        t.row("first load: bytes on the wire, headers included (KB)",
              f"{kb:.1f}", f"<= {TARGETS['page_kb']:.0f}", kb <= TARGETS["page_kb"])
        t.row("  bodies only, compressed (KB)",
              f"{sum(r.transferred - r.header_bytes for r in cold.resources.values()) / KB:.1f}")
        t.row("  decoded, uncompressed (KB)",
              f"{sum(r.decoded for r in cold.resources.values()) / KB:.1f}")
        t.row("  sign-in redirect hop (not counted): requests, bytes",
              f"{len(cold.hops)}, {sum(h.transferred for h in cold.hops)}")
        t.row("  WebSockets opened (not counted)", str(len(cold.sockets)))
        t.row("  load event / first socket message (ms)",
              f"{b.cold.timing['load']:.0f} / {cold.first_message_ms:.0f}")
        t.row("warm cache: HTTP requests (to the network / from cache)",
              f"{len(warm.network)} / {len(warm.resources) - len(warm.network)}")
        t.row("warm cache: bytes on the wire (KB)", f"{warm.transferred / KB:.1f}")
        t.row("  load event / first socket message (ms)",
              f"{b.warm.timing['load']:.0f} / {warm.first_message_ms:.0f}")
    for r in renders:
        p50, p99 = pct(r.latencies_ms, 50), pct(r.latencies_ms, 99)
        target = r.label == "gzip"
        t.row(f"render /choice/{{id}} {r.label}: p50 (ms, n={r.n}, keep-alive)", f"{p50:.2f}",
              f"<= {TARGETS['render_p50_ms']:.0f}" if target else "",
              p50 <= TARGETS["render_p50_ms"] if target else None)
        t.row("  p99 / max (ms)", f"{p99:.2f} / {pct(r.latencies_ms, 100):.2f}")
        t.row("  server CPU per render, /proc/pid/stat (schedstat) (ms)",
              f"{r.cpu.stat_s / r.n * 1000:.2f} ({r.cpu.sched_s / r.n * 1000:.2f})")
        t.row("  client CPU per render (ms)", f"{r.usage.client_s / r.n * 1000:.2f}")
        t.row("  page size on the wire, body (B) / decoded (B)", f"{r.size:,} / {r.decoded_size:,}")
        t.row("  first request of the phase, before the warm-up (ms)", f"{r.first_ms:.1f}")
    expected = s.window_s / SYNC_SECONDS
    t.row(f"{s.n} sockets: server CPU over {s.window_s:.0f} s, /proc/pid/stat (% of a core)",
          f"{s.cpu.core_pct:.1f}", f"< {TARGETS['sockets_cpu_pct']:.0f}",
          s.cpu.core_pct < TARGETS["sockets_cpu_pct"])
    t.row("  same, schedstat (% of a core)", f"{s.cpu.sched_core_pct:.1f}")
    t.row("  server idle before the sockets (% of a core)", f"{s.idle_cpu.core_pct:.1f}")
    t.row("  server CPU per sync message sent (µs)",
          f"{s.cpu.sched_s / max(1, sum(s.per_socket)) * 1e6:.0f}")
    t.row("  server RSS with the sockets open (MB)", f"{s.rss_mb:.1f}")
    t.row("  RSS before the sockets (MB) / per socket (KB)",
          f"{s.rss_before_mb:.1f} / {(s.rss_mb - s.rss_before_mb) * 1000 / s.n:.0f}")
    t.row(f"  deadline messages per socket in the window (min / median / max; "
          f"expect ~{expected:.0f})",
          f"{min(s.per_socket)} / {statistics.median(s.per_socket):.0f} / {max(s.per_socket)}")
    total = sum(s.per_socket)
    t.row("  messages received in the window (total; % of expected)",
          f"{total:,}; {100 * total / (s.n * expected):.0f} %")
    t.row("  sockets with no message in the window / closed / other messages",
          f"{sum(1 for c in s.per_socket if c == 0)} / {s.closed} / {s.other_messages}")
    t.row("  interval between syncs p50 / p99 (ms)",
          f"{pct(s.gaps_ms, 50):.0f} / {pct(s.gaps_ms, 99):.0f}")
    t.row("  sync age on arrival p50 / p99 (ms)", f"{pct(s.lags_ms, 50):.1f} / {pct(s.lags_ms, 99):.1f}")
    t.row("  time to open all sockets (s)", f"{s.connect_s:.1f}")
    t.row("  client CPU over the window (% of a core)", f"{100 * s.usage.client_s / s.usage.wall_s:.1f}")

    lines = t.render()
    if b is not None:
        lines += ["", *resource_lines("first load (cold cache), as Chromium saw it:", b.cold, base),
                  *resource_lines("second load (warm cache):", b.warm, base)]
    others = [("render " + r.label, r.usage) for r in renders] + [("sockets", s.usage)]
    busy = any(u.others_share > 0.1 for _, u in others)
    lines += [
        "",
        f"client on {loop_name()}; Chromium {b.version if b else '(skipped)'}; server pid "
        f"{portal.pid}, port {portal.port}, RSS at idle after start {rss_idle:.1f} MB; "
        f"{os.cpu_count()} CPUs; code: {revision()}",
        f"sockets: permessage-deflate {'on' if args.ws_compression == 'deflate' else 'off'}, "
        f"{SOCKET_INTERACTIONS} interactions; the list on the page: {LIST_SIZE} interactions "
        f"({COMPLETED_IN_LIST} answered); KB = 1,000 bytes",
        "other processes' CPU (share of one core): "
        + ", ".join(f"{name} {100 * u.others_share:.0f} %" for name, u in others)
        + ("  <- busy machine: figures disturbed" if busy else ""),
    ]
    if args.py_spy:
        lines.append("py-spy was sampling the server: these figures are disturbed by it")
    if s.errors:
        lines += [f"ERRORS ({len(s.errors)}):", *(f"  {e}" for e in s.errors[:10])]
    return "\n".join(lines)


# -- the run -----------------------------------------------------------------------------------
async def run(args: argparse.Namespace) -> int:
    n_renders, n_sockets, window_s = (100, 100, 10.0) if args.quick else (500, 1_000, 30.0)
    raise_fd_limit(2 * n_sockets + 512)
    profile_dir = Path(args.py_spy) if args.py_spy else None
    with tempfile.TemporaryDirectory(prefix="choice-web-bench-") as tmp:
        portal = start_portal(Path(tmp) / "data", max_sessions=100_000)
        try:
            started = await wait_healthy(portal)
            portal.token = (portal.data_dir / "token").read_text().strip()
            rss_idle = portal.status_mb("VmRSS")
            print(f"portal pid {portal.pid} up in {started:.2f} s, idle RSS {rss_idle:.1f} MB",
                  flush=True)
            ids = await create_interactions(portal, LIST_SIZE)
            await answer(portal, ids[:COMPLETED_IN_LIST])
            iid = ids[LIST_SIZE // 2]
            if args.weights or args.questions:
                print()
                print(await bench_weights(args, portal, iid))
                return 0

            browser = None
            if not args.skip_browser:
                print("[1/3] first and second load in headless Chromium ...", flush=True)
                browser = await bench_browser(portal, f"/choice/{iid}", args.chromium)

            cookie = await sign_in(portal, f"/choice/{iid}")
            renders = []
            for use_gzip in (True, False):
                print(f"[2/3] {n_renders} sequential renders ({'gzip' if use_gzip else 'identity'})"
                      " ...", flush=True)
                renders.append(await bench_render(portal, cookie, iid, n_renders, use_gzip,
                                                  profile_dir if use_gzip else None))

            print(f"[3/3] {n_sockets} countdown sockets, {window_s:.0f} s window ...", flush=True)
            socket_ids = await create_interactions(portal, SOCKET_INTERACTIONS, start=100)
            sockets = await bench_sockets(portal, cookie, socket_ids, n_sockets, window_s,
                                          None if args.ws_compression == "none" else "deflate",
                                          profile_dir)
            if portal.process.poll() is not None:
                raise RuntimeError("the portal died during the run:\n" + portal.log_tail())
            print()
            print(report(args, portal, browser, renders, sockets, rss_idle))
            if profile_dir is not None:
                for name in ("render", "sockets"):
                    print(f"\npy-spy, {name} phase ({profile_dir / name}.txt):")
                    print("\n".join(profile_summary(profile_dir / f"{name}.txt")))
        finally:
            portal.stop()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="100 renders each way, 100 sockets, a 10 s window (a sanity run)")
    parser.add_argument("--chromium", default=CHROMIUM, help=f"browser binary (default {CHROMIUM})")
    parser.add_argument("--skip-browser", action="store_true", help="leave out the Chromium phase")
    parser.add_argument("--ws-compression", choices=("deflate", "none"), default="deflate",
                        help="offer permessage-deflate on the sockets, as Chromium does (default)")
    parser.add_argument("--py-spy", metavar="DIR",
                        help="sample the server with py-spy during the gzip renders and the socket "
                             "window; raw stacks go to DIR, a summary is printed")
    parser.add_argument("--weights", action="store_true",
                        help="only the page weights: the first load of one question, of several "
                             "questions, of a widened question's owner page and of the list")
    parser.add_argument("--questions", type=int, metavar="N", default=0,
                        help="with --weights: how many questions the second page asks (4)")
    args = parser.parse_args()
    try:
        import uvloop
    except ImportError:
        return asyncio.run(run(args))
    return uvloop.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
