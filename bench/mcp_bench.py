"""MCP benchmark: `choice mcp` cold start to a `tools/list` reply, and the overhead of a
tool call when the answer is already there.

    python bench/mcp_bench.py            # 10 cold starts, 200 calls
    python bench/mcp_bench.py --quick    # 3 cold starts, 50 calls

Targets (issue 4): cold start median <= 1.0 s, call overhead <= 5 ms. It starts its own
portal (fresh data dir, free port) and stops it at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.portal_process import PortalProcess  # noqa: E402

INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "bench", "version": "1"}}}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
REQUEST = {"title": "t", "prompt": "p", "options": [{"id": "a", "label": "A"}]}


def line(message: dict[str, object]) -> bytes:
    return json.dumps(message).encode() + b"\n"


class Bridge:
    """A `choice mcp` process driven over its stdin/stdout like an MCP client would."""

    def __init__(self, env: dict[str, str]) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "choice.cli", "mcp"], env=env,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 10

    def send(self, message: dict[str, object]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line(message))
        self.process.stdin.flush()

    def answer(self, request_id: int) -> dict[str, object]:
        assert self.process.stdout is not None
        while True:
            message = json.loads(self.process.stdout.readline())
            if message.get("id") == request_id:
                return dict(message)

    def request(self, method: str, params: dict[str, object]) -> dict[str, object]:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.answer(self.next_id)

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=10)


def cold_start(env: dict[str, str]) -> float:
    started = time.perf_counter()
    bridge = Bridge(env)
    bridge.send(INITIALIZE)
    bridge.answer(1)
    bridge.send(INITIALIZED)
    tools = bridge.request("tools/list", {})
    elapsed = time.perf_counter() - started
    assert len(tools["result"]["tools"]) == 3  # type: ignore[index]
    bridge.close()
    return elapsed


def call_overhead(env: dict[str, str], portal: PortalProcess, calls: int) -> list[float]:
    client = portal.client()
    iid = client.create(REQUEST)["interaction_id"]
    client.call("POST", f"/api/interactions/{iid}/response", {"selected_ids": ["a"]})
    bridge = Bridge(env)
    bridge.send(INITIALIZE)
    bridge.answer(1)
    bridge.send(INITIALIZED)
    times = []
    for _ in range(calls):
        started = time.perf_counter()
        reply = bridge.request("tools/call", {"name": "provide_choice",
                                              "arguments": {"session_id": iid}})
        times.append(time.perf_counter() - started)
        assert reply["result"]["structuredContent"]["status"] == "submitted"  # type: ignore[index]
    bridge.close()
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    starts, calls = (3, 50) if args.quick else (10, 200)
    with tempfile.TemporaryDirectory(prefix="choice-mcp-bench-") as tmp:
        portal = PortalProcess(Path(tmp) / "data").start()
        env = {**os.environ, "CHOICE_DATA_DIR": str(portal.data_dir),
               "CHOICE_PORT": str(portal.port), "CHOICE_OPEN_BROWSER": "0"}
        try:
            cold = [cold_start(env) for _ in range(starts)]
            overhead = call_overhead(env, portal, calls)
        finally:
            portal.stop()
        fresh = Path(tmp) / "auto"
        auto_env = {**env, "CHOICE_DATA_DIR": str(fresh),
                    "CHOICE_PORT": str(portal.port + 1 if portal.port < 65535 else 20000)}
        auto = cold_start(auto_env)
        subprocess.run([sys.executable, "-c", "import os,signal,json,urllib.request;"
                        f"p=json.load(urllib.request.urlopen('http://127.0.0.1:{auto_env['CHOICE_PORT']}/healthz'))['pid'];"
                        "os.kill(p, signal.SIGINT)"], check=False)
    ms = [t * 1000 for t in overhead]
    print(f"{'metric':<58}{'value':>10}{'target':>10}")
    print("-" * 78)
    print(f"{f'choice mcp cold start to tools/list, median (s, n={starts})':<58}"
          f"{statistics.median(cold):>10.3f}{'<= 1.0':>10}")
    print(f"{'  min / max (s)':<58}{min(cold):>5.3f} / {max(cold):.3f}")
    print(f"{'  same, with no portal running (auto-start) (s)':<58}{auto:>10.3f}")
    print(f"{f'tool call round trip, answer already there, p50 (ms, n={calls})':<58}"
          f"{statistics.median(ms):>10.2f}{'<= 5':>10}")
    print(f"{'  p99 (ms)':<58}{sorted(ms)[int(len(ms) * 0.99) - 1]:>10.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
