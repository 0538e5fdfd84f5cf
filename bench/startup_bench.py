"""Start-up benchmark of the choice portal: from spawning the process to `/healthz` 200.

How to run (from the repository root, with the package installed: `pip install -e .`):

    python bench/startup_bench.py              # 10 starts of each command
    python bench/startup_bench.py --runs 20

Each run starts a new portal on a new data dir and a free port (`python server.py`, what the
tests and a deployment run, and `choice serve`, what a person types), polls `/healthz` every
10 ms until it answers 200, then stops it with SIGINT. The first start of each command is
reported apart (a new data dir and a cold page cache), the rest as median and max. Also
prints the CPU the process spent by then (user + system), since on a loaded machine that,
not the wall time, is what a start costs the others.
"""

from __future__ import annotations

import argparse
import os
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
POLL_SECONDS = 0.01
LIMIT_SECONDS = 60.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1) as reply:
            return bool(reply.status == 200)
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def start_once(command: list[str], data_dir: Path) -> tuple[float, float]:
    """Seconds from spawn to the first `/healthz` 200, and the CPU seconds of the process
    (measured once it has exited, so the SDK's background import is counted too)."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CHOICE_")}
    env |= {"CHOICE_DATA_DIR": str(data_dir), "CHOICE_PORT": str(port),
            "CHOICE_HOST": "127.0.0.1", "CHOICE_OPEN_BROWSER": "0"}
    url = f"http://127.0.0.1:{port}/healthz"
    cpu_before = _children_cpu()
    began = time.perf_counter()
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        while not _healthy(url):
            if process.poll() is not None:
                raise SystemExit(f"{' '.join(command)} exited with {process.returncode}")
            if time.perf_counter() - began > LIMIT_SECONDS:
                raise SystemExit(f"{' '.join(command)} did not answer in {LIMIT_SECONDS:.0f} s")
            time.sleep(POLL_SECONDS)  # polling another process's socket: nothing to wait on
        ready = time.perf_counter() - began
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=15)
    return ready, _children_cpu() - cpu_before


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    commands = {"python server.py": [sys.executable, "server.py"],
                "choice serve": [sys.executable, "-m", "choice.cli", "serve"]}
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"{'command':<18} {'first s':>8} {'median s':>9} {'max s':>7} {'cpu s':>7}")
    with tempfile.TemporaryDirectory(prefix="choice-startup-") as tmp:
        for name, command in commands.items():
            runs = [start_once(command, Path(tmp) / f"{name.split()[0]}-{n}")
                    for n in range(args.runs)]
            ready = [r for r, _ in runs[1:]] or [runs[0][0]]
            cpu = statistics.median(c for _, c in runs)
            print(f"{name:<18} {runs[0][0]:>8.3f} {statistics.median(ready):>9.3f} "
                  f"{max(ready):>7.3f} {cpu:>7.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
