"""Import cost of the commands that must start fast: `choice ask`, `choice answer`, `choice mcp`.

How to run (from the repository root; PYTHONPATH=. when the editable install points
elsewhere):

    python bench/client_imports_bench.py            # 9 runs of each entry point
    python bench/client_imports_bench.py --runs 21

For each entry point's module, a fresh interpreter imports it under `python -X importtime`;
the figure is the sum of the "self" column (every module imported, counted once), median
and minimum over the runs, beside the interpreter's own start (`-c pass`). Also printed: the
wall time of `python -c "import <module>"` (median), how many modules end up loaded, and
which of the heavy packages (httpx, pydantic, litestar, sqlalchemy, mcp, msgspec) are among them.
Figures, not a pass/fail: a heavy package in the last column is a regression to look at,
since these commands run on every prompt.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENTRIES = {
    "choice ask": "choice.cli.ask",
    "choice answer": "choice.terminal.answer_command",
    "choice mcp": "choice.mcp.bridge",
    "choice (cli.main)": "choice.cli",
    "Python API (choice.client.blocking)": "choice.client.blocking",
}
HEAVY = ("httpx", "pydantic", "litestar", "sqlalchemy", "mcp", "msgspec")


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def import_self_ms(statement: str) -> float:
    """The sum of `-X importtime`'s self column for one fresh interpreter, in ms."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", statement],
                          capture_output=True, text=True, env=_env(), check=True)
    total_us = 0
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            self_us = line.split(":", 1)[1].split("|")[0].strip()
            if self_us.isdigit():
                total_us += int(self_us)
    return total_us / 1000


def wall_ms(statement: str) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", statement], env=_env(), check=True)
    return (time.perf_counter() - started) * 1000


def loaded(module: str) -> tuple[int, list[str]]:
    probe = f"import json, sys, {module}; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          env=_env(), check=True)
    names = json.loads(done.stdout)
    heavy = [h for h in HEAVY if h in names]
    return len(names), heavy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=9)
    runs = parser.parse_args().runs
    base = [import_self_ms("pass") for _ in range(runs)]
    base_wall = [wall_ms("pass") for _ in range(runs)]
    print(f"interpreter alone: imports {statistics.median(base):.1f} ms (self sum), "
          f"wall {statistics.median(base_wall):.0f} ms; {runs} runs each, median (min)")
    print(f"{'entry':38} {'import ms':>14} {'wall ms':>9} {'modules':>8}  heavy")
    for label, module in ENTRIES.items():
        sums = [import_self_ms(f"import {module}") for _ in range(runs)]
        walls = [wall_ms(f"import {module}") for _ in range(runs)]
        count, heavy = loaded(module)
        print(f"{label:38} {statistics.median(sums):7.1f} ({min(sums):5.1f}) "
              f"{statistics.median(walls):9.0f} {count:8d}  {', '.join(heavy) or '-'}")


if __name__ == "__main__":
    main()
