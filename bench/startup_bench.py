"""Start-up benchmark: how fast the portal starts and how small it idles.

How to run (from the repository root, with the package installed):

    python bench/startup_bench.py            # 7 rounds, 10,000 pending (~2.5 min)
    python bench/startup_bench.py --quick    # 3 rounds, 1,000 pending (~45 s)
    python bench/startup_bench.py --runs 15
    python bench/startup_bench.py --as-found # without compiling choice/ first (see below)

`choice/`'s bytecode is compiled first, as `pip install` does: an editable checkout under
`PYTHONDONTWRITEBYTECODE=1` (as `.ci/run` sets) has no `.pyc` for it, and each start would
compile every module (~100 ms more than an installed portal's start).

Each round runs, one after the other (so a change in the machine's load hits every row alike):
1. the framework-import baseline: a new `python -c "import litestar, sqlmodel, uvicorn"`
   (the stack's own imports: SQLModel brings SQLAlchemy, its ORM and pydantic), spawn -> exit;
2. `choice serve` (the console script next to `sys.executable`, else `python -m choice.cli
   serve`) on a new data dir, spawn -> the first `/healthz` 200 (polled every 10 ms), then
   stopped with SIGINT and started again on that same data dir (an existing one);
3. `choice mcp` with no portal running, on a new data dir and then again on that one once the
   portal it started is stopped: the bridge is driven with raw JSON-RPC lines (`initialize`,
   then a `tools/call` of `provide_choice` with a tiny question, `CHOICE_MCP_WAIT_SECONDS=1`);
   spawn -> the question is listed by `GET /api/interactions` -> its page `/choice/<id>`
   answers 200 (signed in with `/login?token=...`, as a browser does).
Memory (`VmRSS` from /proc): the portal once it answers `/healthz`; idle after start, once a
second `/healthz` and an API read (`GET /api/interactions`) were answered; then with the MCP
SDK loaded: a `POST /mcp/` with the token, the first request to `/mcp`, makes the portal import
it (on a worker thread) and waits for it; the portal a bridge started, once its first call
has returned and the page was shown (the SDK included); a `choice serve` with the SDK loaded
and 10,000 pending questions (created over 16 keep-alive connections, as `core_bench.py`
does). Last, `python -X importtime` of a
`choice serve` on a new data dir and on an existing one: the heaviest modules it imports
before it serves, and each package's own import time. Nothing is asserted: it prints.

Linux only (/proc); no packages beyond the project's own. `CHOICE_*` variables of the caller
are not passed on. Every process started is stopped at the end, and any process whose
environment names one of this run's data dirs (a portal a bridge started) is killed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import os
import queue
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from core_bench import CREATE_CONCURRENCY, Clients, create_many, free_port, revision
from importtime import Imported, import_tree, walk

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
POLL_SECONDS = 0.01
LIMIT_SECONDS = 60.0
BASELINE = "import litestar, sqlmodel, uvicorn"
TARGETS = {"ratio": 1.5, "mcp_page_s": 1.5, "rss_idle_mb": 100.0, "rss_mcp_mb": 110.0,
           "rss_pending_mb": 170.0}
INITIALIZE = {"protocolVersion": "2025-06-18", "capabilities": {},
              "clientInfo": {"name": "startup-bench", "version": "1"}}


def choice_command() -> list[str]:
    script = Path(sys.executable).with_name("choice")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "choice.cli"]


def env_for(data_dir: Path, port: int, **extra: str) -> dict[str, str]:
    inherited = {k: v for k, v in os.environ.items() if not k.startswith("CHOICE_")}
    return {**inherited, "CHOICE_DATA_DIR": str(data_dir), "CHOICE_PORT": str(port),
            "CHOICE_HOST": HOST, "CHOICE_OPEN_BROWSER": "0", **extra}


# -- HTTP ---------------------------------------------------------------------------------------
@dataclass
class Reply:
    status: int
    body: bytes
    cookies: list[str]

    def json(self) -> Any:
        return json.loads(self.body)


def call(port: int, method: str, path: str, token: str | None = None, body: Any = None,
         headers: dict[str, str] | None = None, timeout: float = 30.0) -> Reply:
    """One request on a connection of its own."""
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        sent = dict(headers or {})
        if token:
            sent["Authorization"] = f"Bearer {token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        conn.request(method, path, body=data, headers=sent)
        response = conn.getresponse()
        payload = response.read()
        return Reply(response.status, payload, response.msg.get_all("set-cookie") or [])
    finally:
        conn.close()


def is_up(port: int) -> bool:
    try:
        reply = call(port, "GET", "/healthz", timeout=1.0)
        return reply.status == 200 and reply.json().get("portal") == "choice"
    except (OSError, http.client.HTTPException, ValueError):
        return False


def wait_up(port: int, began: float, process: subprocess.Popen[bytes] | None, what: str) -> float:
    """Seconds from `began` to the first `/healthz` 200 (polled: another process's socket is
    all there is to wait on)."""
    while not is_up(port):
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"{what} exited with {process.returncode}")
        if time.perf_counter() - began > LIMIT_SECONDS:
            raise RuntimeError(f"{what}: no /healthz within {LIMIT_SECONDS:.0f} s")
        time.sleep(POLL_SECONDS)
    return time.perf_counter() - began


def idle(port: int, token: str) -> None:
    """Requests that leave the portal as it idles after its start: one more `/healthz` and
    one API read (the MCP SDK is not loaded: nothing asked for `/mcp`)."""
    call(port, "GET", "/healthz", token)
    reply = call(port, "GET", "/api/interactions?status=active&limit=1", token)
    if reply.status != 200:
        raise RuntimeError(f"GET /api/interactions: HTTP {reply.status} {reply.body[:200]!r}")


def settle(port: int, token: str) -> None:
    """Return once the portal has loaded the MCP SDK: the first request to `/mcp/` makes it
    import the SDK (on a worker thread) and waits for it, then answers a malformed message
    with 400 (no session opened); then one more `/healthz`."""
    reply = call(port, "POST", "/mcp/", token, {},
                 {"Accept": "application/json, text/event-stream"}, timeout=60)
    if reply.status != 400:
        raise RuntimeError(f"POST /mcp/ to settle: HTTP {reply.status} {reply.body[:200]!r}")
    call(port, "GET", "/healthz", token)


# -- processes ----------------------------------------------------------------------------------
def mb(pid: int, key: str = "VmRSS") -> float:
    """VmRSS / VmHWM of a process in MB (10^6 bytes)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) * 1024 / 1e6
    raise RuntimeError(f"{key} not in /proc/{pid}/status")


def gone(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def stop_pid(pid: int, timeout: float = 15.0) -> None:
    """SIGINT a portal this run started (a bridge started it: not our child), wait until it
    is gone, SIGKILL it if it is not."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGINT)
    deadline = time.monotonic() + timeout
    while not gone(pid):
        if time.monotonic() > deadline:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            return
        time.sleep(0.02)  # another process's exit: nothing to wait on but its /proc entry


def stop_child(process: subprocess.Popen[bytes]) -> None:
    """SIGINT a process this run spawned (in a session of its own); its group is killed if it
    does not exit."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=5)


def kill_strays(tmp: Path) -> int:
    """Kill every process whose environment names a data dir under `tmp` (only this run made
    those): a portal a failed run's bridge started."""
    marker = f"CHOICE_DATA_DIR={tmp}".encode()
    killed = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        if any(item.startswith(marker) for item in environ.split(b"\0")):
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(entry.name), signal.SIGKILL)
                killed += 1
    return killed


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


# -- 1. the baseline ----------------------------------------------------------------------------
def baseline_once() -> float:
    began = time.perf_counter()
    subprocess.run([sys.executable, "-c", BASELINE], check=True)
    return time.perf_counter() - began


# -- 2. choice serve ----------------------------------------------------------------------------
@dataclass
class ServeRun:
    ready_s: float
    settled_s: float
    """spawn -> `/mcp/` answered, asked right after the idle figure: the MCP SDK loaded"""
    rss_ready_mb: float
    rss_idle_mb: float
    rss_sdk_mb: float
    """idle with the MCP SDK loaded (one malformed `/mcp/` request, no session)"""
    cpu_s: float


def serve_once(data_dir: Path, extra: dict[str, str] | None = None,
               python_flags: tuple[str, ...] = ()) -> ServeRun:
    """`choice serve`: spawn -> /healthz 200, RSS then, idle, and with the MCP SDK loaded;
    CPU until it exited."""
    port = free_port()
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    command = choice_command()
    if python_flags:
        command = [sys.executable, *python_flags, *command] if command[0] != sys.executable \
            else [sys.executable, *python_flags, *command[1:]]
    cpu_before = children_cpu()
    log = data_dir.parent / f"{data_dir.name}.serve.log"
    errors = data_dir.parent / f"{data_dir.name}.serve.err"
    with log.open("ab") as out, errors.open("wb") as err:
        began = time.perf_counter()
        process = subprocess.Popen([*command, "serve"], env=env_for(data_dir, port, **(extra or {})),
                                   stdout=out, stderr=err, start_new_session=True)
    try:
        ready = wait_up(port, began, process, "choice serve")
        rss_ready = mb(process.pid)
        token = (data_dir / "token").read_text().strip()
        idle(port, token)
        rss_idle = mb(process.pid)
        settle(port, token)
        settled = time.perf_counter() - began
        rss_sdk = mb(process.pid)
    finally:
        stop_child(process)
    return ServeRun(ready, settled, rss_ready, rss_idle, rss_sdk, children_cpu() - cpu_before)


# -- 3. choice mcp ------------------------------------------------------------------------------
class Bridge:
    """`choice mcp` driven with raw JSON-RPC lines; each reply timestamped as it is read."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        with log.open("ab") as err:
            self.process = subprocess.Popen([*choice_command(), "mcp"], env=env,
                                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=err, start_new_session=True)
        self.replies: queue.Queue[tuple[float, dict[str, Any]] | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            message = json.loads(raw)
            if "id" in message:
                self.replies.put((time.perf_counter(), message))
        self.replies.put(None)

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def reply(self, request_id: int, timeout: float = 30.0) -> tuple[float, dict[str, Any]]:
        while True:
            item = self.replies.get(timeout=timeout)
            if item is None:
                raise RuntimeError(f"the bridge exited before answering {request_id}")
            if item[1].get("id") == request_id:
                return item

    def close(self) -> None:
        """Close stdin, as a client does when it is done; kill the bridge if it lingers."""
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=5)


@dataclass
class McpRun:
    up_s: float
    """spawn -> the portal the bridge started answers /healthz"""
    listed_s: float
    """spawn -> the question is in GET /api/interactions"""
    page_s: float
    """spawn -> its page answered 200"""
    returned_s: float
    """spawn -> the tools/call returned (pending, after CHOICE_MCP_WAIT_SECONDS=1)"""
    rss_mb: float


def shown(port: int, token: str, interaction_id: str, title: str) -> None:
    """Sign in as a browser does and load the question's page: 200 with its title."""
    path = f"/choice/{interaction_id}"
    login = call(port, "GET", f"/login?token={quote(token)}&next={quote(path)}")
    if login.status != 303 or not login.cookies:
        raise RuntimeError(f"/login: HTTP {login.status}, cookies {login.cookies}")
    cookie = "; ".join(c.split(";", 1)[0] for c in login.cookies)
    page = call(port, "GET", path, headers={"Cookie": cookie})
    if page.status != 200 or title.encode() not in page.body:
        raise RuntimeError(f"{path}: HTTP {page.status} {page.body[:200]!r}")


def mcp_once(data_dir: Path) -> McpRun:
    port = free_port()
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    title = f"Startup bench {uuid.uuid4().hex[:8]}"
    question = {"title": title, "prompt": "Which one?",
                "options": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}]}
    env = env_for(data_dir, port, CHOICE_MCP_WAIT_SECONDS="1")
    began = time.perf_counter()
    bridge = Bridge(env, data_dir.parent / f"{data_dir.name}.bridge.err")
    pid = None
    try:
        bridge.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": INITIALIZE})
        bridge.reply(1)
        bridge.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        bridge.send({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                     "params": {"name": "provide_choice", "arguments": question}})
        up = wait_up(port, began, bridge.process, "choice mcp (its portal)")
        token = (data_dir / "token").read_text().strip()
        pid = int(call(port, "GET", "/healthz", token).json()["pid"])
        interaction_id = None
        while interaction_id is None:
            listed = call(port, "GET", "/api/interactions?status=active&limit=10", token).json()
            interaction_id = next((row["interaction_id"] for row in listed["interactions"]
                                   if row["title"] == title), None)
            if interaction_id is None:
                if time.perf_counter() - began > LIMIT_SECONDS:
                    raise RuntimeError("the bridge's question never showed up")
                time.sleep(POLL_SECONDS)  # the portal's list: polled, as a page would be
        listed_s = time.perf_counter() - began
        shown(port, token, interaction_id, title)
        page_s = time.perf_counter() - began
        returned, result = bridge.reply(2, timeout=60)
        status = result.get("result", {}).get("structuredContent", {}).get("status")
        if status != "pending":
            raise RuntimeError(f"tools/call: {result}")
        call(port, "GET", "/healthz", token)
        rss = mb(pid)
    finally:
        bridge.close()
        if pid is not None:
            stop_pid(pid)
    return McpRun(up, listed_s, page_s, returned - began, rss)


# -- 5. 10,000 pending --------------------------------------------------------------------------
@dataclass
class Pending:
    pending: int
    rss_idle_mb: float
    rss_mb: float
    peak_mb: float
    per_second: float


def pending_rss(data_dir: Path, n: int) -> Pending:
    """A `choice serve` on an existing data dir, the MCP SDK loaded (`settle`), then n
    questions created through the API from 16 keep-alive connections
    (`core_bench.create_many`)."""
    port = free_port()
    env = env_for(data_dir, port, CHOICE_MAX_SESSIONS="100000")
    with (data_dir.parent / f"{data_dir.name}.fill.log").open("ab") as log:
        process = subprocess.Popen([*choice_command(), "serve"], env=env, stdout=log,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_up(port, time.perf_counter(), process, "choice serve")
        token = (data_dir / "token").read_text().strip()
        settle(port, token)
        idle = mb(process.pid)

        async def fill() -> float:
            clients = Clients("raw", port, token, CREATE_CONCURRENCY)
            try:
                return (await create_many(clients, n, CREATE_CONCURRENCY, start=10**7)).per_second
            finally:
                await clients.aclose()

        per_second = asyncio.run(fill())
        pending = int(call(port, "GET", "/healthz", token).json()["pending"])
        return Pending(pending, idle, mb(process.pid), mb(process.pid, "VmHWM"), per_second)
    finally:
        stop_child(process)


# -- 6. -X importtime ---------------------------------------------------------------------------
@dataclass
class Imports:
    start: list[Imported]
    """imported before the portal serves: from `choice.cli` on, before the MCP SDK's root"""
    later: list[Imported]
    """from `choice.mcp.server` on: the SDK on its worker thread (the first `/mcp` request),
    and what requests import"""


def importtime(data_dir: Path) -> Imports:
    """`python -X importtime` of `choice serve` until it has loaded the MCP SDK (`serve_once`
    asks `/mcp` once it idles). `-X importtime` nests by
    one counter for every thread: the SDK's import on its worker thread is its own root
    (`choice.mcp.server`), which holds as long as nothing else imports meanwhile."""
    serve_once(data_dir, python_flags=("-X", "importtime"))
    stderr = (data_dir.parent / f"{data_dir.name}.serve.err").read_text()
    roots = import_tree(stderr)
    first = next(i for i, r in enumerate(roots) if r.name.startswith("choice"))
    sdk = next((i for i, r in enumerate(roots) if r.name == "choice.mcp.server"), len(roots))
    return Imports(roots[first:sdk], roots[sdk:])


def package_times(entries: list[Imported]) -> dict[str, int]:
    """Own import time (µs) summed per top-level package."""
    totals: dict[str, int] = {}
    for entry in walk(entries):
        package = entry.name.split(".")[0]
        totals[package] = totals.get(package, 0) + entry.self_us
    return totals


def import_report(fresh: Imports, existing: Imports) -> list[str]:
    ms = 1000.0
    start_total = sum(r.cumulative_us for r in fresh.start) / ms
    later_total = sum(r.cumulative_us for r in fresh.later) / ms
    every = walk(fresh.start)
    lines = [f"python -X importtime of `choice serve`, new data dir: {start_total:.0f} ms of "
             f"imports before it serves ({len(every)} modules), {later_total:.0f} ms after "
             f"(the MCP SDK, on the first /mcp request: {len(walk(fresh.later))} modules); an existing "
             f"data dir: {sum(r.cumulative_us for r in existing.start) / ms:.0f} ms before "
             f"({len(walk(existing.start))} modules)",
             "top 15 modules by cumulative time before it serves (new data dir; ms cumulative / "
             "own, imported by):"]
    for entry in sorted(every, key=lambda e: -e.cumulative_us)[:15]:
        lines.append(f"  {entry.cumulative_us / ms:7.1f} / {entry.self_us / ms:5.1f}  "
                     f"{'  ' * min(entry.depth, 6)}{entry.name}  <- {entry.parent or '(top)'}")
    lines.append("heaviest by own time before it serves (ms; a garbage collection that runs "
                 "during an import is counted as that module's own time):")
    lines += [f"  {e.self_us / ms:7.1f}  {e.name}  <- {e.parent or '(top)'}"
              for e in sorted(every, key=lambda e: -e.self_us)[:10]]
    fresh_pkg, existing_pkg = package_times(fresh.start), package_times(existing.start)
    later_pkg = package_times(fresh.later)
    names = sorted(set(fresh_pkg) | set(later_pkg),
                   key=lambda n: -(fresh_pkg.get(n, 0) + later_pkg.get(n, 0)))[:16]
    lines.append("own import time per package (ms): before serving, new data dir / existing "
                 "data dir / after it serves (the MCP SDK, on the first /mcp request)")
    lines += [f"  {name:<22} {fresh_pkg.get(name, 0) / ms:7.1f} {existing_pkg.get(name, 0) / ms:7.1f} "
              f"{later_pkg.get(name, 0) / ms:7.1f}" for name in names]
    watch = ("mcp", "alembic", "babel", "markdown_it", "psycopg", "jinja2", "pydantic", "rich",
             "httpx", "choice.webhooks", "choice.mcp", "choice.instances", "email", "sqlite3")
    present = []
    for name in watch:
        before = [e for e in every if e.name == name or e.name.startswith(name + ".")]
        if before:
            top = max(before, key=lambda e: e.cumulative_us)
            present.append(f"{name} ({len(before)} modules, {top.cumulative_us / ms:.0f} ms "
                           f"from {top.parent or 'top'})")
    lines.append("imported before serving: " + ("; ".join(present) or "none of " + ", ".join(watch)))
    return lines


# -- the run ------------------------------------------------------------------------------------
def row_of(name: str, values: list[float], unit: str, target: float | None = None,
           digits: int = 3) -> tuple[str, str, str, str]:
    median = statistics.median(values)
    value = f"{median:.{digits}f} ({min(values):.{digits}f}-{max(values):.{digits}f})"
    if target is None:
        return (f"{name} ({unit})", value, "", "")
    return (f"{name} ({unit})", value, f"<= {target:g}", "yes" if median <= target else "MISSED")


def compile_package() -> str:
    """Write `choice/`'s bytecode caches first, as `pip install` does for an installed
    package: with `PYTHONDONTWRITEBYTECODE=1` (as in `.ci/run`) an editable checkout has
    none, and every start would compile ~150 modules (~100 ms more than a user's start)."""
    import compileall

    import choice

    folder = Path(choice.__file__).parent
    compileall.compile_dir(folder, quiet=1)
    return f"choice/ compiled first ({folder})"


def run(args: argparse.Namespace, tmp: Path) -> list[str]:
    rounds, n_pending = (3, 1_000) if args.quick else (args.runs, 10_000)
    bytecode = "choice/ as found (--as-found)" if args.as_found else compile_package()
    load_before = os.getloadavg()
    print(f"warm-up (not counted): one baseline, one choice serve ({' '.join(choice_command())})",
          flush=True)
    baseline_once()
    serve_once(tmp / "warm" / "data")
    baseline: list[float] = []
    fresh: list[ServeRun] = []
    existing: list[ServeRun] = []
    mcp_fresh: list[McpRun] = []
    mcp_existing: list[McpRun] = []
    for n in range(rounds):
        print(f"round {n + 1}/{rounds}: baseline, serve new / existing, mcp new / existing",
              flush=True)
        baseline.append(baseline_once())
        serve_dir, mcp_dir = tmp / f"serve-{n}" / "data", tmp / f"mcp-{n}" / "data"
        fresh.append(serve_once(serve_dir))
        existing.append(serve_once(serve_dir))
        mcp_fresh.append(mcp_once(mcp_dir))
        mcp_existing.append(mcp_once(mcp_dir))
    print(f"{n_pending} pending on an existing data dir ...", flush=True)
    pending = pending_rss(tmp / "serve-0" / "data", n_pending)
    print("python -X importtime of choice serve ...", flush=True)
    imports_fresh = importtime(tmp / "imports-new" / "data")
    imports_existing = importtime(tmp / "imports-new" / "data")
    load_after = os.getloadavg()

    med = statistics.median
    rows = [
        row_of(f"baseline: python -c \"{BASELINE}\", spawn -> exit", baseline, "s"),
        row_of("choice serve, new data dir: spawn -> /healthz 200", [r.ready_s for r in fresh], "s"),
        row_of("choice serve, existing data dir: spawn -> /healthz 200",
               [r.ready_s for r in existing], "s"),
        row_of("ratio new data dir / baseline (per round)",
               [f.ready_s / b for f, b in zip(fresh, baseline, strict=True)], "x", TARGETS["ratio"],
               2),
        row_of("  same, existing data dir",
               [e.ready_s / b for e, b in zip(existing, baseline, strict=True)], "x", None, 2),
        row_of("choice serve, new data dir: spawn -> idle, then /mcp/ answers (MCP SDK loaded)",
               [r.settled_s for r in fresh], "s"),
        row_of("  same, existing data dir", [r.settled_s for r in existing], "s"),
        row_of("CPU of a choice serve start, until it exited, new data dir",
               [r.cpu_s for r in fresh], "s"),
        row_of("  same, existing data dir", [r.cpu_s for r in existing], "s"),
        row_of("choice mcp, no portal, new data dir: spawn -> portal /healthz",
               [r.up_s for r in mcp_fresh], "s"),
        row_of("  spawn -> question listed by the API", [r.listed_s for r in mcp_fresh], "s"),
        row_of("  spawn -> its page /choice/<id> 200", [r.page_s for r in mcp_fresh], "s",
               TARGETS["mcp_page_s"]),
        row_of("choice mcp, no portal, existing data dir: spawn -> portal /healthz",
               [r.up_s for r in mcp_existing], "s"),
        row_of("  spawn -> question listed by the API", [r.listed_s for r in mcp_existing], "s"),
        row_of("  spawn -> its page /choice/<id> 200", [r.page_s for r in mcp_existing], "s",
               TARGETS["mcp_page_s"]),
        row_of("portal RSS at its first /healthz, new data dir",
               [r.rss_ready_mb for r in fresh], "MB", None, 1),
        row_of("  same, existing data dir", [r.rss_ready_mb for r in existing], "MB", None, 1),
        row_of("portal RSS idle after start (no MCP request yet), new data dir",
               [r.rss_idle_mb for r in fresh], "MB", TARGETS["rss_idle_mb"], 1),
        row_of("  same, existing data dir", [r.rss_idle_mb for r in existing], "MB",
               TARGETS["rss_idle_mb"], 1),
        row_of("portal RSS idle with the MCP SDK loaded (one /mcp/ request), new data dir",
               [r.rss_sdk_mb for r in fresh], "MB", None, 1),
        row_of("  same, existing data dir", [r.rss_sdk_mb for r in existing], "MB", None, 1),
        row_of("portal RSS after the first MCP call (page shown), new data dir",
               [r.rss_mb for r in mcp_fresh], "MB", TARGETS["rss_mcp_mb"], 1),
        row_of("  same, existing data dir", [r.rss_mb for r in mcp_existing], "MB",
               TARGETS["rss_mcp_mb"], 1),
        (f"portal RSS with {pending.pending} pending, MCP SDK loaded (MB; before "
         f"{pending.rss_idle_mb:.1f}, "
         f"{pending.per_second:.0f} creates/s)", f"{pending.rss_mb:.1f}",
         f"<= {TARGETS['rss_pending_mb']:g}" if n_pending >= 10_000 else "",
         ("yes" if pending.rss_mb <= TARGETS["rss_pending_mb"] else "MISSED")
         if n_pending >= 10_000 else ""),
        ("  peak, VmHWM (MB)", f"{pending.peak_mb:.1f}", "", ""),
    ]
    width = max(len(r[0]) for r in rows)
    value_width = max(len(r[1]) for r in rows)
    lines = [f"{'metric (median of ' + str(rounds) + ', min-max)':<{width}}  "
             f"{'value':>{value_width}}  {'target':>7}  ok",
             "-" * (width + value_width + 16)]
    lines += [f"{n:<{width}}  {v:>{value_width}}  {t:>7}  {o}".rstrip() for n, v, t, o in rows]
    ratio_of_medians = med(r.ready_s for r in fresh) / med(baseline)
    lines += ["", f"ratio of the medians, new data dir / baseline: {ratio_of_medians:.2f}", ""]
    lines += import_report(imports_fresh, imports_existing)
    lines += ["", f"command: {' '.join(choice_command())}; {bytecode}; {os.cpu_count()} CPUs; "
              "load average "
              f"(1/5/15 min) before {load_before[0]:.2f} / {load_before[1]:.2f} / "
              f"{load_before[2]:.2f}, after {load_after[0]:.2f} / {load_after[1]:.2f} / "
              f"{load_after[2]:.2f}; code {revision()}"]
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="3 rounds, 1,000 pending")
    parser.add_argument("--runs", type=int, default=7, help="rounds (default 7)")
    parser.add_argument("--as-found", action="store_true",
                        help="do not compile choice/ first (measure its .pyc files as they are)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="choice-startup-") as name:
        tmp = Path(name)
        try:
            lines = run(args, tmp)
        finally:
            strays = kill_strays(tmp)
            if strays:
                print(f"killed {strays} stray process(es) left by a failed run", file=sys.stderr)
    print()
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
