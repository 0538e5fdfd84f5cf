"""`choice hook` benchmark: a real hook process from spawn to its question in the portal, from
the person's answer to its exit, and its memory.

    python bench/hook_bench.py                   # 30 spawns with a portal, 5 with none (~20 s)
    python bench/hook_bench.py --quick           # 8 and 2 (a sanity run)
    python bench/hook_bench.py --bytecode-cache  # spawned processes keep .pyc in a temporary prefix

Every hook is the real console script (`choice` next to sys.executable; else
`python -m choice.cli`) run as `choice hook claude`, with a Claude Code Bash
`PermissionRequest` payload on stdin. The portal is `core_bench.start_portal` (uvicorn, fresh
data dir, free port, `CHOICE_OPEN_BROWSER=0`).

1. spawn -> question visible, portal running: from `Popen` to the moment `GET /api/stream`
   (held open by this process, a reader thread) delivers the question's `interaction.created`
   event; each run's payload has its own `session_id`, which the event carries as
   `context.conversation_id`. The question is then checked in `GET
   /api/interactions?status=active` (not timed). Target p50/p95 <= 0.15 s.
2. the same with no portal running: the hook starts a detached portal (fresh data dir and port
   each run); polled every 5 ms (no stream to hold before the portal exists). Reported, no
   target. Every process started with that data dir is killed after the run.
3. answer -> hook exits: once `/healthz` counts the hook's long-poll as waiting, `POST
   .../response {"selected_ids": ["allow"]}` on an open connection, then `wait4()` on the hook.
   Also when its decision line was read from its stdout, and the POST's round trip, so the
   time splits into the portal's wake-up, the hook's own work and the interpreter's exit.
   Target p50/p95 <= 5 ms.
4. peak RSS of the hook: `VmHWM` while it waits, and `ru_maxrss` from `wait4()`. Target <= 30 MB.
Then baselines (spawn -> exit of `python -c pass`, and of `choice hook` with a payload it
rejects, which imports everything and asks nothing) and `python -X importtime` of the hook.
Nothing is asserted: it prints.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core_bench import HOST, free_port, pct, start_portal, wait_healthy
from importtime import Imported, import_tree, walk

ROOT = Path(__file__).resolve().parents[1]
MS = 1e6  # ns per ms
TARGETS = {"visible_s": 0.15, "exit_ms": 5.0, "rss_mb": 30.0}
WARMUP = 2
WHAT_IF = {
    "the same hook, then os._exit() once its output is flushed":
        "import os, sys\nfrom choice.cli import main\nrc = main(sys.argv[1:])\n"
        "sys.stdout.flush()\nsys.stderr.flush()\nos._exit(rc)",
    "the same hook with gc.freeze() before it returns":
        "import gc, sys\nfrom choice.cli import main\nrc = main(sys.argv[1:])\n"
        "gc.freeze()\nsys.exit(rc)",
}
"""Not the project's code: the console script's `main` run under another ending, to show what
the interpreter's exit costs (module teardown and its last garbage collections)."""
Row = tuple[str, str, str, str]


def hook_command() -> list[str]:
    script = Path(sys.executable).parent / "choice"
    if script.exists():
        return [str(script), "hook", "claude"]
    return [sys.executable, "-m", "choice.cli", "hook", "claude"]


def payload(session_id: str) -> bytes:
    """A Claude Code Bash PermissionRequest, as its hook documentation shows it."""
    return json.dumps({
        "session_id": session_id, "transcript_path": "/tmp/bench-transcript.jsonl",
        "cwd": str(ROOT), "permission_mode": "default", "hook_event_name": "PermissionRequest",
        "tool_name": "Bash",
        "tool_input": {"command": "npm test -- --watch=false", "description": "Run the tests"},
        "permission_suggestions": [{"type": "addRules", "behavior": "allow",
                                    "destination": "localSettings",
                                    "rules": [{"toolName": "Bash", "ruleContent": "npm test:*"}]}],
    }).encode()


def hook_env(data_dir: Path, port: int, **extra: str) -> dict[str, str]:
    inherited = {k: v for k, v in os.environ.items() if not k.startswith("CHOICE_")}
    return {**inherited, "CHOICE_DATA_DIR": str(data_dir), "CHOICE_PORT": str(port),
            "CHOICE_OPEN_BROWSER": "0", **extra}


def status_mb(pid: int, key: str) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) * 1024 / 1e6
    raise RuntimeError(f"{key} not in /proc/{pid}/status")


class Api:
    """Requests to the portal as the owner, each on a connection of its own."""

    def __init__(self, port: int, token: str) -> None:
        self.port, self.token = port, token

    def get(self, path: str, timeout: float = 5.0) -> tuple[int, Any]:
        conn = http.client.HTTPConnection(HOST, self.port, timeout=timeout)
        try:
            conn.request("GET", path, headers={"Authorization": f"Bearer {self.token}"})
            response = conn.getresponse()
            raw = response.read()
            return response.status, json.loads(raw) if raw else None
        finally:
            conn.close()


class Stream:
    """`GET /api/stream` held open on a thread: when each live `interaction.created` arrived
    (perf_counter_ns), by the context's conversation_id."""

    def __init__(self, port: int, token: str) -> None:
        self.created: dict[str, tuple[int, str]] = {}
        self.cond = threading.Condition()
        self.connected = threading.Event()
        self.conn = http.client.HTTPConnection(HOST, port, timeout=120)
        self.conn.request("GET", "/api/stream", headers={
            "Authorization": f"Bearer {token}", "Accept": "text/event-stream"})
        self.response = self.conn.getresponse()
        if self.response.status != 200:
            raise RuntimeError(f"/api/stream: HTTP {self.response.status}")
        threading.Thread(target=self._read, name="stream", daemon=True).start()

    def _read(self) -> None:
        kind = ""
        # AttributeError: http.client's own, when `close` pulls the socket out from under a
        # read in progress (the reader is done then either way)
        with contextlib.suppress(OSError, ValueError, AttributeError, http.client.HTTPException):
            for raw in iter(self.response.readline, b""):
                arrived = time.perf_counter_ns()
                line = raw.decode(errors="replace").rstrip("\r\n")
                if line.startswith("event:"):
                    kind = line[6:].strip()
                elif line.startswith("data:") and kind == "interaction.created":
                    data = json.loads(line[5:])
                    conversation = (data.get("context") or {}).get("conversation_id")
                    if not data.get("replay") and conversation:
                        with self.cond:
                            self.created[conversation] = (arrived, data["interaction_id"])
                            self.cond.notify_all()

    def wait_for(self, conversation: str, timeout: float) -> tuple[int, str]:
        with self.cond:
            if not self.cond.wait_for(lambda: conversation in self.created, timeout):
                raise RuntimeError(f"no interaction.created for {conversation} in {timeout} s")
            return self.created[conversation]

    def close(self) -> None:
        if self.conn.sock is not None:
            with contextlib.suppress(OSError):
                self.conn.sock.shutdown(socket.SHUT_RDWR)  # wakes the reader thread
        self.conn.close()


class Hook:
    """A `choice hook` process: its payload written, its stdout read on a thread (when the
    decision line arrived)."""

    def __init__(self, env: dict[str, str], data: bytes, command: list[str] | None = None) -> None:
        self.t_spawn = time.perf_counter_ns()
        self.process = subprocess.Popen(command or hook_command(), env=env, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.close()
        self.t_printed = 0
        self.out = b""
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        first = self.process.stdout.readline()
        self.t_printed = time.perf_counter_ns()
        self.out = first + self.process.stdout.read()

    def wait4(self) -> tuple[int, float]:
        """Reap it: (perf_counter_ns at exit, its ru_maxrss in MB)."""
        _, status, usage = os.wait4(self.process.pid, 0)
        t_exit = time.perf_counter_ns()
        self.process.returncode = os.waitstatus_to_exitcode(status)
        self.reader.join(5)
        return t_exit, usage.ru_maxrss * 1024 / 1e6

    def stderr(self) -> str:
        assert self.process.stderr is not None
        return self.process.stderr.read().decode(errors="replace").strip()

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(5)
        self.reader.join(5)
        for pipe in (self.process.stdout, self.process.stderr):
            if pipe is not None:
                pipe.close()


@dataclass
class Figures:
    visible_s: list[float] = field(default_factory=list)
    exit_ms: list[float] = field(default_factory=list)
    printed_ms: list[float] = field(default_factory=list)
    """answer sent -> decision line read from the hook's stdout"""
    teardown_ms: list[float] = field(default_factory=list)
    """decision line read -> process reaped"""
    post_ms: list[float] = field(default_factory=list)
    hwm_mb: list[float] = field(default_factory=list)
    rss_mb: list[float] = field(default_factory=list)
    maxrss_mb: list[float] = field(default_factory=list)
    """ru_maxrss from wait4: Linux carries the parent's RSS over fork and exec into it"""
    hwm_exit_mb: list[float] = field(default_factory=list)
    bench_rss_mb: float = 0.0
    what_if_ms: dict[str, list[float]] = field(default_factory=dict)
    fresh_s: list[float] = field(default_factory=list)
    fresh_portal_s: list[float] = field(default_factory=list)
    """no portal: spawn -> the started portal's /healthz answers"""
    floor_pass_s: list[float] = field(default_factory=list)
    floor_reject_s: list[float] = field(default_factory=list)
    fresh_conn_ms: dict[str, list[float]] = field(default_factory=dict)
    create_ms: list[float] = field(default_factory=list)
    create_event_ms: list[float] = field(default_factory=list)


# -- 1, 3, 4: a portal running ------------------------------------------------------------------
def until(condition: Any, what: str, timeout: float = 10.0, every: float = 0.001) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not happen within {timeout} s")
        time.sleep(every)  # another process's state: nothing to wait on but asking again


def one_round(env: dict[str, str], api: Api, stream: Stream, port: int, token: str,
              figures: Figures | None, command: list[str] | None = None,
              exit_ms: list[float] | None = None, hwm_to_exit: list[float] | None = None) -> None:
    """One hook, spawned, answered and reaped; its figures go to `figures` (all of them) or
    `exit_ms` (answer -> exit only). `hwm_to_exit`: instead of timing the exit, read VmHWM
    until the process is gone (its peak after the answer too)."""
    session = f"bench-{uuid.uuid4().hex[:12]}"
    hook = Hook(env, payload(session), command)
    try:
        t_visible, iid = stream.wait_for(session, 30)
        status, listed = api.get("/api/interactions?status=active&limit=20")
        if status != 200 or iid not in {row["interaction_id"] for row in listed["interactions"]}:
            raise RuntimeError(f"{iid} announced but not listed: HTTP {status} {listed}")
        until(lambda: api.get("/healthz")[1]["waiting"] >= 1, "the hook's long-poll")
        hwm, rss = status_mb(hook.process.pid, "VmHWM"), status_mb(hook.process.pid, "VmRSS")
        conn = http.client.HTTPConnection(HOST, port, timeout=10)
        conn.connect()
        body = json.dumps({"selected_ids": ["allow"]})
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        try:
            t_sent = time.perf_counter_ns()
            conn.request("POST", f"/api/interactions/{iid}/response", body, headers)
            response = conn.getresponse()
            response.read()
            t_answered = time.perf_counter_ns()
        finally:
            conn.close()
        if hwm_to_exit is not None:
            hwm_to_exit.append(hwm_until_exit(hook.process.pid))
        t_exit, maxrss = hook.wait4()
        if response.status != 200:
            raise RuntimeError(f"answer {iid}: HTTP {response.status}")
        decision = json.loads(hook.out)["hookSpecificOutput"]["decision"]
        if hook.process.returncode != 0 or decision != {"behavior": "allow"}:
            raise RuntimeError(f"hook: exit {hook.process.returncode}, {hook.out!r}, "
                               f"{hook.stderr()!r}")
        if exit_ms is not None:
            exit_ms.append((t_exit - t_sent) / MS)
        if figures is not None:
            figures.visible_s.append((t_visible - hook.t_spawn) / 1e9)
            figures.exit_ms.append((t_exit - t_sent) / MS)
            figures.printed_ms.append((hook.t_printed - t_sent) / MS)
            figures.teardown_ms.append((t_exit - hook.t_printed) / MS)
            figures.post_ms.append((t_answered - t_sent) / MS)
            figures.hwm_mb.append(hwm)
            figures.rss_mb.append(rss)
            figures.maxrss_mb.append(maxrss)
    finally:
        hook.kill()


def hwm_until_exit(pid: int) -> float:
    """VmHWM of a process read until it has exited (a zombie's status has no Vm lines)."""
    last = 0.0
    while True:
        try:
            last = status_mb(pid, "VmHWM")
        except (OSError, RuntimeError):
            return last


def fresh_connections(api: Api, figures: Figures, n: int = 30) -> None:
    """What each of the hook's requests costs on a connection of its own, as PortalClient
    sends them: /healthz (is_portal), /api/settings (the language)."""
    for path in ("/healthz", "/api/settings"):
        times = []
        for _ in range(n + 3):
            t0 = time.perf_counter_ns()
            status, _ = api.get(path)
            times.append((time.perf_counter_ns() - t0) / MS)
            assert status == 200, (path, status)
        figures.fresh_conn_ms[path] = times[3:]


def create_to_event(port: int, token: str, stream: Stream, figures: Figures, n: int = 20) -> None:
    """The portal's share of spawn -> visible: a create POSTed by this process (a fresh
    connection, as the hook's) -> its 201, and -> its interaction.created on the stream."""
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    for i in range(n + 3):
        session = f"bench-create-{uuid.uuid4().hex[:12]}"
        body = json.dumps({"title": "Allow Bash: Run the tests", "prompt": "```sh\nnpm test\n```",
                           "options": [{"id": "allow", "label": "Allow once"},
                                       {"id": "deny", "label": "Deny"}],
                           "selection_mode": "single", "default_selection_ids": [],
                           "allow_annotations": True, "timeout_seconds": 60,
                           "context": {"conversation_id": session, "agent": "Claude Code"}})
        conn = http.client.HTTPConnection(HOST, port, timeout=10)
        try:
            t0 = time.perf_counter_ns()
            conn.request("POST", "/api/interactions", body, headers)
            response = conn.getresponse()
            reply = json.loads(response.read())
            t_created = time.perf_counter_ns()
        finally:
            conn.close()
        if response.status != 201:
            raise RuntimeError(f"create: HTTP {response.status} {reply}")
        t_event, iid = stream.wait_for(session, 10)
        conn = http.client.HTTPConnection(HOST, port, timeout=10)
        try:
            conn.request("POST", f"/api/interactions/{iid}/cancel", "{}", headers)
            conn.getresponse().read()
        finally:
            conn.close()
        if i >= 3:
            figures.create_ms.append((t_created - t0) / MS)
            figures.create_event_ms.append((t_event - t0) / MS)


def with_portal(tmp: Path, runs: int, extra: dict[str, str], figures: Figures) -> None:
    (tmp / "running").mkdir()
    portal = start_portal(tmp / "running" / "data", max_sessions=1000)
    stream: Stream | None = None
    try:
        asyncio.run(wait_healthy(portal))
        token = (portal.data_dir / "token").read_text().strip()
        api = Api(portal.port, token)
        stream = Stream(portal.port, token)
        env = hook_env(portal.data_dir, portal.port, CHOICE_HOOK_START_PORTAL="0", **extra)
        for i in range(WARMUP + runs):
            one_round(env, api, stream, portal.port, token, figures if i >= WARMUP else None)
        for _ in range(3):
            one_round(env, api, stream, portal.port, token, None, hwm_to_exit=figures.hwm_exit_mb)
        for name, code in WHAT_IF.items():
            times = figures.what_if_ms.setdefault(name, [])
            for i in range(WARMUP + max(10, runs // 3)):
                one_round(env, api, stream, portal.port, token, None,
                          [sys.executable, "-c", code, "hook", "claude"],
                          exit_ms=times if i >= WARMUP else None)
        fresh_connections(api, figures)
        create_to_event(portal.port, token, stream, figures)
    finally:
        if stream is not None:
            stream.close()
        portal.stop()


# -- 2: no portal running -----------------------------------------------------------------------
def started_with(data_dir: Path) -> list[int]:
    """Pids of the processes whose environment names this data dir: the hook and the portal
    it started (detached, in a session of its own)."""
    wanted = f"CHOICE_DATA_DIR={data_dir}".encode()
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            with contextlib.suppress(OSError):
                if wanted in (entry / "environ").read_bytes().split(b"\0"):
                    pids.append(int(entry.name))
    return pids


def stop_started(data_dir: Path) -> None:
    pids = started_with(data_dir)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + 10
    for pid in pids:
        while alive(pid) and time.monotonic() < deadline:
            time.sleep(0.02)  # another process's exit: nothing to wait on but /proc
        if alive(pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def no_portal(tmp: Path, runs: int, extra: dict[str, str], figures: Figures) -> None:
    for run in range(runs):
        data_dir, port = tmp / f"fresh-{run}" / "data", free_port()
        session = f"bench-fresh-{run}"
        hook: Hook | None = None
        try:
            hook = Hook(hook_env(data_dir, port, **extra), payload(session))
            up, listed_at = 0, 0
            deadline = time.monotonic() + 60
            while not listed_at:
                if time.monotonic() > deadline:
                    raise RuntimeError("no question 60 s after spawn, no portal running")
                token_file = data_dir / "token"
                with contextlib.suppress(OSError, ValueError, http.client.HTTPException):
                    token = token_file.read_text().strip()
                    api = Api(port, token)
                    status, body = api.get("/api/interactions?status=active", timeout=1)
                    now = time.perf_counter_ns()
                    up = up or now
                    if status == 200 and body["interactions"]:
                        listed_at = now
                        break
                if hook.process.poll() is not None:
                    raise RuntimeError(f"the hook exited: {hook.stderr()}")
                time.sleep(0.005)
            figures.fresh_s.append((listed_at - hook.t_spawn) / 1e9)
            figures.fresh_portal_s.append((up - hook.t_spawn) / 1e9)
        finally:
            if hook is not None:
                hook.kill()
            stop_started(data_dir)


# -- baselines and import time ------------------------------------------------------------------
def floors(tmp: Path, extra: dict[str, str], figures: Figures, n: int = 10) -> None:
    """spawn -> exit: the interpreter alone, and `choice hook` rejecting its payload (every
    import done, no request made)."""
    env = hook_env(tmp / "floor", free_port(), CHOICE_HOOK_START_PORTAL="0", **extra)
    for command, out, data in (([sys.executable, "-c", "pass"], figures.floor_pass_s, b""),
                               (hook_command(), figures.floor_reject_s, b"{}")):
        for i in range(n + 2):
            hook = Hook(env, data, command)
            hook.wait4()
            if i >= 2:
                out.append((time.perf_counter_ns() - hook.t_spawn) / 1e9)
            hook.kill()


def import_times(tmp: Path, extra: dict[str, str]) -> list[Imported]:
    """`python -X importtime` of `choice hook` rejecting its payload (the third of three runs:
    the OS file cache warm), as a tree."""
    env = hook_env(tmp / "floor", free_port(), CHOICE_HOOK_START_PORTAL="0", **extra)
    command = hook_command()
    if command[0] != sys.executable:
        command = [sys.executable, *command]  # the script under this same interpreter
    command[1:1] = ["-X", "importtime"]
    stderr = ""
    for _ in range(3):
        stderr = subprocess.run(command, env=env, input=b"{}", capture_output=True,
                                check=True).stderr.decode()
    return import_tree(stderr)


def import_report(roots: list[Imported]) -> list[str]:
    every = walk(roots)
    total = sum(entry.cumulative_us for entry in roots)
    lines = [f"python -X importtime of `choice hook` (rejecting its payload): {total / 1000:.1f} ms "
             f"for {len(every)} modules, top level:"]
    for entry in sorted(roots, key=lambda e: -e.cumulative_us)[:5]:
        lines.append(f"  {entry.cumulative_us / 1000:7.1f} ms  {entry.name}" + inside(entry))
    hooks = next((e for e in every if e.name == "choice.hooks.command"), None)
    if hooks is not None:
        lines.append(f"choice.hooks.command cumulative {hooks.cumulative_us / 1000:.1f} ms; "
                     "its imports (cumulative, as first imported under it):")
        for entry in sorted(hooks.children, key=lambda e: -e.cumulative_us)[:10]:
            lines.append(f"  {entry.cumulative_us / 1000:7.1f} ms  {entry.name}" + inside(entry))
    lines.append("heaviest modules by own time:")
    for entry in sorted(every, key=lambda e: -e.self_us)[:8]:
        lines.append(f"  {entry.self_us / 1000:7.1f} ms  {entry.name}")
    loaded = {entry.name.split(".")[0] for entry in every if entry.cumulative_us >= 20}
    notable = sorted(loaded & {"pydantic", "babel", "litestar", "httpx", "sqlalchemy", "ssl",
                               "jinja2", "markdown_it", "asyncio", "email", "uuid", "typing",
                               "logging", "inspect", "argparse", "_hashlib"})
    lines.append(f"loaded among the usual heavy ones: {', '.join(notable) or 'none'} "
                 "(a name imported in under 20 µs, such as the `ssl` the hook blocks, is left out)")
    return lines


def inside(entry: Imported, n: int = 3) -> str:
    heavy = sorted(entry.children, key=lambda e: -e.cumulative_us)[:n]
    inner = ", ".join(f"{c.name} {c.cumulative_us / 1000:.1f}" for c in heavy)
    return f"  ({inner})" if inner else ""


# -- the run ------------------------------------------------------------------------------------
def bytecode_state(extra: dict[str, str]) -> str:
    if extra.get("PYTHONPYCACHEPREFIX"):
        return f"kept in {extra['PYTHONPYCACHEPREFIX']} (--bytecode-cache, warmed by one run)"
    cached = list((ROOT / "choice" / "hooks").glob("__pycache__/*.pyc"))
    written = "not written (PYTHONDONTWRITEBYTECODE)" if os.environ.get("PYTHONDONTWRITEBYTECODE") \
        else "written on first import"
    return (f"choice/hooks .pyc {'present' if cached else 'absent'}, {written}: "
            + ("every spawn compiles what lacks one" if not cached and "not" in written else "ok"))


def report(f: Figures, runs: int, starts: int) -> list[Row]:
    rows: list[Row] = []

    def row(name: str, value: str, target: str = "", ok: bool | None = None) -> None:
        rows.append((name, value, target, "" if ok is None else ("yes" if ok else "MISSED")))

    v50, v95 = pct(f.visible_s, 50), pct(f.visible_s, 95)
    row(f"spawn -> question visible, portal running, p50 (s, n={runs})", f"{v50:.3f}",
        "<= 0.15", v50 <= TARGETS["visible_s"])
    row("  p95 / max (s)", f"{v95:.3f} / {max(f.visible_s):.3f}", "<= 0.15",
        v95 <= TARGETS["visible_s"])
    row("  floor: spawn -> exit, `python -c pass`, p50 (s)", f"{pct(f.floor_pass_s, 50):.3f}")
    row("  floor: spawn -> exit, `choice hook` rejecting {} (imports, no request), p50 (s)",
        f"{pct(f.floor_reject_s, 50):.3f}")
    for path, times in f.fresh_conn_ms.items():
        row(f"  one {path} on a connection of its own (as the hook sends), p50 (ms)",
            f"{pct(times, 50):.2f}")
    row("  a create POSTed by this bench -> its 201 / -> its event on the stream, p50 (ms)",
        f"{pct(f.create_ms, 50):.2f} / {pct(f.create_event_ms, 50):.2f}")
    if f.fresh_s:
        row(f"spawn -> question visible, no portal running, p50 (s, n={starts})",
            f"{pct(f.fresh_s, 50):.3f}", "report")
        row("  min / max (s)", f"{min(f.fresh_s):.3f} / {max(f.fresh_s):.3f}")
        row("  of which spawn -> the started portal answers, p50 (s)",
            f"{pct(f.fresh_portal_s, 50):.3f}")
    e50, e95 = pct(f.exit_ms, 50), pct(f.exit_ms, 95)
    row(f"answer sent -> hook exited, p50 (ms, n={runs})", f"{e50:.2f}", "<= 5",
        e50 <= TARGETS["exit_ms"])
    row("  p95 / max (ms)", f"{e95:.2f} / {max(f.exit_ms):.2f}", "<= 5",
        e95 <= TARGETS["exit_ms"])
    row("  answer's POST round trip, p50 (ms)", f"{pct(f.post_ms, 50):.2f}")
    row("  answer sent -> decision line on stdout, p50 (ms)", f"{pct(f.printed_ms, 50):.2f}")
    row("  decision line -> process reaped (interpreter exit), p50 (ms)",
        f"{pct(f.teardown_ms, 50):.2f}")
    for name, times in f.what_if_ms.items():
        row(f"  what if: {name}, p50 / p95 (ms, n={len(times)})",
            f"{pct(times, 50):.2f} / {pct(times, 95):.2f}")
    peak = max(max(f.hwm_mb), *f.hwm_exit_mb)
    row("hook peak RSS, VmHWM while waiting, max (MB)", f"{max(f.hwm_mb):.1f}", "<= 30",
        max(f.hwm_mb) <= TARGETS["rss_mb"])
    row(f"  VmHWM read until exit, max (MB, n={len(f.hwm_exit_mb)})",
        f"{max(f.hwm_exit_mb):.1f}", "<= 30", peak <= TARGETS["rss_mb"])
    row("  VmRSS while waiting, median (MB)", f"{statistics.median(f.rss_mb):.1f}")
    row("  ru_maxrss from wait4, max (MB; not the hook's: see below)",
        f"{max(f.maxrss_mb):.1f}")
    row("  this bench's own RSS (the floor of ru_maxrss above) (MB)", f"{f.bench_rss_mb:.1f}")
    return rows


def run(args: argparse.Namespace, tmp: Path) -> int:
    runs, starts = (8, 2) if args.quick else (30, 5)
    starts = 0 if args.no_fresh else starts
    extra: dict[str, str] = {}
    if args.bytecode_cache:
        extra["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    figures = Figures()
    print(f"hook: {' '.join(hook_command())}", flush=True)
    print("[1/4] baselines ...", flush=True)
    floors(tmp, extra, figures)
    print(f"[2/4] {WARMUP} + {runs} hooks with a portal running, each answered ...", flush=True)
    with_portal(tmp, runs, extra, figures)
    if starts:
        print(f"[3/4] {starts} hooks with no portal running ...", flush=True)
        no_portal(tmp, starts, extra, figures)
    print("[4/4] import times ...", flush=True)
    imports = import_report(import_times(tmp, extra))
    figures.bench_rss_mb = status_mb(os.getpid(), "VmRSS")
    rows = report(figures, runs, starts)
    width = max(len(r[0]) for r in rows)
    vw = max(len(r[1]) for r in rows)
    print(f"\n{'metric':<{width}}  {'value':>{vw}}  {'target':>7}  ok")
    print("-" * (width + vw + 17))
    for name, value, target, ok in rows:
        print(f"{name:<{width}}  {value:>{vw}}  {target:>7}  {ok}".rstrip())
    print()
    print("\n".join(imports))
    load = os.getloadavg()
    print("\nru_maxrss of a child counts its parent's RSS at fork (Linux keeps the high-water mark "
          "across exec), so it bounds the hook's peak only from above; VmHWM is the hook's own.")
    print(f"bytecode: {bytecode_state(extra)}")
    print(f"load average 1/5/15 min at the end: {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} "
          f"on {os.cpu_count()} CPUs")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="8 runs and 2 fresh starts")
    parser.add_argument("--no-fresh", action="store_true", help="skip the runs with no portal")
    parser.add_argument("--bytecode-cache", action="store_true",
                        help="let spawned processes write and reuse .pyc files in a temporary "
                             "PYTHONPYCACHEPREFIX (as an installed copy does after its first run)")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="choice-hook-bench-"))
    try:
        return run(args, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
