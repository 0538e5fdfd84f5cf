"""Several portal instances on one database: cross-instance wake-ups and creates/s.

    python bench/instances_bench.py            # 300 wake-ups, 1,500 creates per setup (~1 min)
    python bench/instances_bench.py --quick    # 60 wake-ups, 300 creates per setup

Starts a throwaway PostgreSQL cluster (Debian's server, as `tests/pg_cluster.py` does), then
for PostgreSQL and for SQLite side by side:
- **wake-up**: an agent waits on instance A (`GET /api/interactions/{id}?wait=60`); the
  human's answer goes to instance B (`POST .../response`). Measured from the moment the
  answer is sent to the moment A's waiter has its result (p50, p99; target p99 <= 20 ms on
  PostgreSQL). SQLite has no channel between processes, so its row is the same wake-up
  with A and B the same instance (what one process gives), for comparison.
- **creates/s**: `POST /api/interactions` from 16 keep-alive connections, against one
  instance, then split across two.
Each waiter is checked to be registered in A (`/healthz` `waiting`) before its answer is sent.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.pg_cluster import Cluster, server_binaries  # noqa: E402
from tests.portal_process import PortalProcess  # noqa: E402

REQUEST = {"title": "bench", "prompt": "Which one? (benchmark)", "timeout_seconds": 3600,
           "options": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}]}
CONNECTIONS = 16


class Http:
    """One keep-alive connection to a portal, with its token."""

    def __init__(self, portal: PortalProcess) -> None:
        self._connection = http.client.HTTPConnection("127.0.0.1", portal.port, timeout=90)
        self._headers = {"Authorization": f"Bearer {portal.token}",
                         "Content-Type": "application/json"}

    def call(self, method: str, path: str, body: Any = None) -> Any:
        payload = None if body is None else json.dumps(body)
        self._connection.request(method, path, payload, self._headers)
        response = self._connection.getresponse()
        data = response.read()
        if response.status >= 300:
            raise RuntimeError(f"{method} {path}: {response.status} {data[:200]!r}")
        return json.loads(data)


def wake_ups(a: PortalProcess, b: PortalProcess, rounds: int) -> list[float]:
    """Milliseconds from sending the answer to B until A's waiter has its result."""
    agent, human, probe = Http(a), Http(b), Http(a)
    woke: list[float] = []
    for _ in range(rounds):
        iid = agent.call("POST", "/api/interactions", REQUEST)["interaction_id"]
        done = threading.Event()
        returned: list[float] = []

        def wait(iid: str = iid, done: threading.Event = done,
                 returned: list[float] = returned) -> None:
            result = agent.call("GET", f"/api/interactions/{iid}?wait=60")
            returned.append(time.perf_counter())
            assert result["status"] == "submitted", result
            done.set()

        waiter = threading.Thread(target=wait)
        waiter.start()
        while probe.call("GET", "/healthz")["waiting"] < 1:
            time.sleep(0.0005)  # polling another process's state: nothing to wait on here
        sent = time.perf_counter()
        human.call("POST", f"/api/interactions/{iid}/response", {"selected_ids": ["a"]})
        if not done.wait(30):
            raise RuntimeError("a waiter was never woken")
        waiter.join()
        woke.append((returned[0] - sent) * 1000)
    return woke


def creates_per_second(portals: list[PortalProcess], total: int) -> float:
    per_connection = total // CONNECTIONS

    def run(index: int) -> None:
        client = Http(portals[index % len(portals)])
        for _ in range(per_connection):
            client.call("POST", "/api/interactions", REQUEST)

    started = time.perf_counter()
    with ThreadPoolExecutor(CONNECTIONS) as pool:
        list(pool.map(run, range(CONNECTIONS)))
    return per_connection * CONNECTIONS / (time.perf_counter() - started)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def measure(name: str, db_url: str | None, root: Path, rounds: int,
            creates: int) -> dict[str, str]:
    data = root / name
    env = {"CHOICE_DB_URL": db_url} if db_url else {}
    env["CHOICE_MAX_SESSIONS"] = "100000"
    a = PortalProcess(data, **env).start()
    b = PortalProcess(data, **env).start()
    try:
        waker = b if db_url else a  # SQLite: no channel between processes
        Http(a).call("POST", "/api/interactions", REQUEST)  # warm both paths up
        wake_ups(a, waker, 5)
        woke = wake_ups(a, waker, rounds)
        one = creates_per_second([a], creates)
        two = creates_per_second([a, b], creates)
    finally:
        a.stop()
        b.stop()
    return {"wake": f"{statistics.median(woke):.2f} / {percentile(woke, 0.99):.2f}",
            "one": f"{one:.0f}", "two": f"{two:.0f}"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    rounds, creates = (60, 300) if args.quick else (300, 1500)
    binaries = server_binaries()
    if binaries is None:
        print("no PostgreSQL server: sudo apt-get install -y postgresql", file=sys.stderr)
        return 1
    cluster = Cluster(binaries).start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            pg = measure("pg", cluster.new_database(), Path(tmp), rounds, creates)
            lite = measure("sqlite", None, Path(tmp), rounds, creates)
    finally:
        cluster.stop()
    rows = [("", "PostgreSQL", "SQLite", "target"),
            (f"answer on B -> waiter on A wakes, p50 / p99 (ms, n={rounds})", pg["wake"],
             lite["wake"] + " *", "p99 <= 20"),
            ("creates/s, one instance (16 connections)", pg["one"], lite["one"], ""),
            ("creates/s, two instances (16 connections split)", pg["two"], lite["two"], "")]
    for label, on_pg, on_lite, target in rows:
        print(f"{label:56}{on_pg:>18}{on_lite:>18}{target:>12}")
    print("* SQLite: A and B are the same instance (it has no channel between processes).")
    with open("/proc/loadavg") as load:
        print("load average 1/5/15 min at the end:", " / ".join(load.read().split()[:3]),
              "on 2 CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
