"""MCP benchmark: `choice mcp` from spawn to its tool list and to its first call, its memory,
how fast an answer reaches a waiting agent, and the portal's memory.

    python bench/mcp_bench.py                   # 10 spawns, 5 fresh starts, 100 answers
    python bench/mcp_bench.py --quick           # 3 spawns, 2 fresh starts, 30 answers
    python bench/mcp_bench.py --bytecode-cache  # spawned processes keep .pyc files (see README)

Every agent is a real `choice mcp` process driven over stdio with raw JSON-RPC lines
(`tests/mcp/bridge_process.py`); the portal is a real `choice serve` on a free port with a
fresh data dir, its log in a file, as a bridge starts it. Targets: spawn ->
tools/list <= 0.25 s median with and without a running portal; first tools/call when a
portal must start <= 2.0 s; `choice mcp` RSS <= 25 MB; answer -> the agent's MCP result p50
<= 2.0 ms. Nothing is asserted: it prints.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from choice.client.portal_client import PortalClient  # noqa: E402
from choice.mcp.listing import tools_result  # noqa: E402
from tests.mcp.bridge_process import BridgeProcess, bridge_env, stop_portal_at  # noqa: E402
from tests.portal_process import free_port  # noqa: E402

REQUEST = {"title": "bench", "prompt": "Which one? (benchmark)", "timeout_seconds": 3600,
           "options": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}]}
HANDOFF = {"name": "provide_choice", "arguments": {**REQUEST, "interface": "terminal"}}
Row = tuple[str, str, str]


def mb(pid: int, key: str = "VmRSS") -> float:
    """VmRSS / VmHWM of a process in MB (10^6 bytes)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) * 1024 / 1e6
    raise RuntimeError(f"{key} not in /proc/{pid}/status")


class Portal:
    """`choice serve` in the background, its output in `<data dir>/portal.log`."""

    def __init__(self, data_dir: Path, extra: dict[str, str]) -> None:
        self.port = free_port()
        self.env = bridge_env(data_dir, self.port, **extra)
        data_dir.mkdir(parents=True)
        with open(data_dir / "portal.log", "ab") as log:
            self.process = subprocess.Popen([sys.executable, "-m", "choice.cli", "serve"],
                                            env=self.env, stdout=log, stderr=log)
        self.pid = self.process.pid
        wait_until(PortalClient(f"http://127.0.0.1:{self.port}", None).is_portal,
                   "the portal's start", timeout=30)
        self.token = (data_dir / "token").read_text().strip()

    def client(self) -> PortalClient:
        return PortalClient(f"http://127.0.0.1:{self.port}", self.token)

    def stop(self) -> None:
        self.process.send_signal(signal.SIGINT)
        self.process.wait(timeout=15)


def timed(env: dict[str, str], until_call: bool) -> tuple[float, float | None, BridgeProcess]:
    """Spawn a bridge; seconds to its tools/list answer, and to a first tools/call result
    (a terminal hand-off, answered at once) when `until_call`."""
    started = time.perf_counter()
    bridge = BridgeProcess(env)
    bridge.initialize()
    tools = bridge.request("tools/list")
    listed = time.perf_counter() - started
    assert len(tools["result"]["tools"]) == len(tools_result()["tools"]), tools
    called = None
    if until_call:
        result = bridge.request("tools/call", HANDOFF, timeout=60)
        called = time.perf_counter() - started
        assert result["result"]["structuredContent"]["status"] == "pending", result
    return listed, called, bridge


def fresh_starts(tmp: Path, runs: int, env_extra: dict[str, str]) -> tuple[list[float], list[float]]:
    """Spawn -> tools/list and spawn -> first call, each on a new data dir with no portal."""
    listed, called = [], []
    for run in range(runs):
        port = free_port()
        data_dir = tmp / f"fresh-{run}"
        env = bridge_env(data_dir, port, **env_extra)
        try:
            seconds, call_seconds, bridge = timed(env, until_call=True)
            listed.append(seconds)
            called.append(call_seconds or 0.0)
            bridge.close()
        finally:
            stop_portal_at(port, data_dir)
    return listed, called


def answer_latency(portal: Portal, env: dict[str, str], rounds: int
                   ) -> tuple[list[float], list[float]]:
    """An agent waits in a tools/call; the human answers with POST .../response on a
    keep-alive connection. Per round: answer sent -> the agent's result read from the
    bridge's stdout, and the POST's own round trip (ms)."""
    client = portal.client()
    bridge = BridgeProcess(env)
    bridge.initialize()
    conn = http.client.HTTPConnection("127.0.0.1", portal.port, timeout=30)
    headers = {"Authorization": f"Bearer {portal.token}", "Content-Type": "application/json"}
    answer = json.dumps({"selected_ids": ["a"]})
    to_agent, round_trip = [], []
    try:
        for _ in range(rounds + 5):  # the first 5 warm up
            iid = client.create(REQUEST)["interaction_id"]
            bridge.next_id += 1
            request_id = bridge.next_id
            bridge.send({"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": {
                "name": "provide_choice", "arguments": {"session_id": iid}}})
            wait_until(lambda: client.call("GET", "/healthz")["waiting"] >= 1, "a waiting call")
            sent = time.perf_counter_ns()
            conn.request("POST", f"/api/interactions/{iid}/response", body=answer, headers=headers)
            response = conn.getresponse()
            response.read()
            answered = time.perf_counter_ns()
            result = bridge.answer(request_id)
            assert response.status == 200 and result["result"]["structuredContent"]["status"] \
                == "submitted", result
            to_agent.append((bridge.arrived[request_id] - sent) / 1e6)
            round_trip.append((answered - sent) / 1e6)
    finally:
        conn.close()
        bridge.close()
    return to_agent[5:], round_trip[5:]


def wait_until(condition: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not happen within {timeout} s")
        time.sleep(0.002)  # polling the portal's /healthz: nothing else to wait on


def call_overhead(portal: Portal, env: dict[str, str], calls: int) -> list[float]:
    """A tools/call whose answer is already there: the bridge + SDK + service cost (ms)."""
    client = portal.client()
    iid = client.create(REQUEST)["interaction_id"]
    client.respond(iid, {"selected_ids": ["a"]})
    bridge = BridgeProcess(env)
    bridge.initialize()
    times = []
    for _ in range(calls + 5):  # the first 5 warm up
        started = time.perf_counter()
        reply = bridge.request("tools/call", {"name": "provide_choice",
                                              "arguments": {"session_id": iid}})
        times.append((time.perf_counter() - started) * 1000)
        assert reply["result"]["structuredContent"]["status"] == "submitted", reply
    bridge.close()
    return times[5:]


def bytecode_state(env: dict[str, str]) -> str:
    if env.get("PYTHONPYCACHEPREFIX"):
        return f"kept in {env['PYTHONPYCACHEPREFIX']} (--bytecode-cache, warmed by one start)"
    import litestar

    cached = Path(str(litestar.__file__)).parent / "__pycache__"
    written = "not written (PYTHONDONTWRITEBYTECODE)" if env.get("PYTHONDONTWRITEBYTECODE") \
        else "written on first import"
    return f"site-packages .pyc {'present' if cached.exists() else 'absent'}; choice/ .pyc {written}"


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p / 100))]


def run(args: argparse.Namespace, tmp: Path) -> list[Row]:
    spawns, starts, rounds, calls = (3, 2, 30, 50) if args.quick else (10, 5, 100, 200)
    extra: dict[str, str] = {"CHOICE_MCP_WAIT_SECONDS": "50"}
    if args.bytecode_cache:
        extra["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    rows: list[Row] = []
    print(f"[1/5] {starts} bridges with no portal running ...", flush=True)
    if args.bytecode_cache:
        fresh_starts(tmp / "warm", 1, extra)
    listed_fresh, called_fresh = fresh_starts(tmp, starts, extra)
    portal = Portal(tmp / "data", extra)
    try:
        env = portal.env
        print(f"[2/5] {spawns} bridges with the portal running ...", flush=True)
        listed, rss_listed, rss_called, rss_peak = [], [], [], []
        for _ in range(spawns):
            seconds, _, bridge = timed(env, until_call=False)
            listed.append(seconds)
            rss_listed.append(mb(bridge.pid))
            bridge.request("tools/call", HANDOFF)
            rss_called.append(mb(bridge.pid))
            rss_peak.append(mb(bridge.pid, "VmHWM"))
            bridge.close()
        print(f"[3/5] {calls} calls whose answer is there ...", flush=True)
        overhead = call_overhead(portal, env, calls)
        print(f"[4/5] {rounds} answers to a waiting agent ...", flush=True)
        to_agent, round_trip = answer_latency(portal, env, rounds)
        print("[5/5] the portal's memory ...", flush=True)
        idle = mb(portal.pid)
        client = portal.client()
        pending = int(client.call("GET", "/healthz")["pending"])
        for _ in range(max(0, 1000 - pending)):
            client.create(REQUEST)
        pending = int(client.call("GET", "/healthz")["pending"])
        loaded, peak = mb(portal.pid), mb(portal.pid, "VmHWM")
    finally:
        portal.stop()

    def row(name: str, value: str, target: str = "") -> None:
        rows.append((name, value, target))

    med = statistics.median
    row(f"spawn -> tools/list, portal running, median (s, n={spawns})", f"{med(listed):.3f}",
        "<= 0.25")
    row("  min / max (s)", f"{min(listed):.3f} / {max(listed):.3f}")
    row(f"spawn -> tools/list, no portal running, median (s, n={starts})",
        f"{med(listed_fresh):.3f}", "<= 0.25")
    row(f"spawn -> first tools/call, portal must start, median (s, n={starts})",
        f"{med(called_fresh):.3f}", "<= 2.0")
    row("  min / max (s)", f"{min(called_fresh):.3f} / {max(called_fresh):.3f}")
    row("choice mcp RSS after tools/list, median (MB)", f"{med(rss_listed):.1f}", "<= 25")
    row("choice mcp RSS after a tools/call / peak VmHWM, max (MB)",
        f"{max(rss_called):.1f} / {max(rss_peak):.1f}", "<= 25")
    row(f"tool call, answer already there, p50 / p99 (ms, n={calls})",
        f"{med(overhead):.2f} / {pct(overhead, 99):.2f}")
    row(f"answer sent -> agent's MCP result, p50 (ms, n={rounds})", f"{med(to_agent):.2f}",
        "<= 2.0")
    row("  p90 / max (ms)", f"{pct(to_agent, 90):.2f} / {max(to_agent):.2f}")
    row("  the answer's POST round trip, p50 (ms)", f"{med(round_trip):.2f}")
    row("portal RSS at idle (MCP loaded, one session used) (MB)", f"{idle:.1f}")
    row(f"portal RSS with {pending} pending interactions (MB)", f"{loaded:.1f}")
    row("  portal peak RSS, VmHWM (MB)", f"{peak:.1f}")
    rows.append(("", "", ""))
    rows.append((f"bytecode: {bytecode_state(os.environ | extra)}", "", ""))
    load = os.getloadavg()
    rows.append((f"load average 1/5/15 min at the end: {load[0]:.1f} / {load[1]:.1f} / "
                 f"{load[2]:.1f} on {os.cpu_count()} CPUs", "", ""))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds (a sanity run)")
    parser.add_argument("--bytecode-cache", action="store_true",
                        help="let spawned processes write and reuse .pyc files in a temporary "
                             "PYTHONPYCACHEPREFIX (as an installed copy does after its first run)")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="choice-mcp-bench-"))
    try:
        rows = run(args, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    width = max(len(name) for name, value, _ in rows if value)
    print(f"\n{'metric':<{width}}  {'value':>15}  {'target':>8}")
    print("-" * (width + 27))
    for name, value, target in rows:
        print(f"{name:<{width}}  {value:>15}  {target:>8}".rstrip() if value else name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
