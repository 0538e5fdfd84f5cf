"""kill -9 benchmark of the choice portal: many kill/restart cycles on one data dir.

How to run (from the repository root, with the package installed: `pip install -e .`):

    python bench/kill9_bench.py               # 100 cycles (~4 min on 2 cores)
    python bench/kill9_bench.py --cycles 20   # a quicker run
    python bench/kill9_bench.py --seed 7      # another sequence of kill points

Each cycle is the one `tests/reliability/test_kill9.py` runs (`tests/reliability/kill_cycle.py`):
one question whose deadline is moved to 1.3 s away, then four client threads create
interactions and answer them over HTTP; after a random 0.05-0.5 s the portal gets SIGKILL.
The database file must pass `PRAGMA integrity_check` and hold every acknowledged create and
answer (a change whose reply was lost must be absent or whole); the portal restarts, the
question that came due must time out, and the API must show the pending interactions with
their deadlines.

Prints one table: cycles, creates and answers acknowledged, lost (must be 0), integrity
failures, other inconsistencies, and the restart time (mean, p50, max). Exits 1 if anything
was lost or inconsistent.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script: make `tests` importable

from tests.portal_process import PortalProcess  # noqa: E402
from tests.reliability.kill_cycle import KILL9_ENV, Ledger, kill9_cycle  # noqa: E402


def run(cycles: int, seed: int) -> int:
    rng, ledger = random.Random(seed), Ledger()
    restarts: list[float] = []
    lost: list[str] = []
    problems: list[str] = []
    integrity_failures = 0
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="choice-kill9-") as tmp:
        portal = PortalProcess(Path(tmp) / "data", **KILL9_ENV).start()
        try:
            for cycle in range(cycles):
                outcome = kill9_cycle(portal, ledger, rng, cycle)
                restarts.append(outcome.restart_s)
                integrity_failures += outcome.integrity != "ok"
                lost += [f"cycle {cycle}: {item}" for item in outcome.lost]
                problems += [f"cycle {cycle}: {item}" for item in outcome.problems]
                if (cycle + 1) % 10 == 0:
                    print(f"  {cycle + 1} cycles, {len(ledger.answered)} answers acknowledged",
                          file=sys.stderr)
        finally:
            portal.stop()
    elapsed = time.perf_counter() - began
    rows = [
        ("cycles (kill -9 + restart)", f"{cycles}"),
        ("seed", f"{seed}"),
        ("creates acknowledged", f"{len(ledger.created)}"),
        ("answers acknowledged", f"{len(ledger.answered)}"),
        ("lost", f"{len(lost)}"),
        ("integrity failures", f"{integrity_failures}"),
        ("other inconsistencies", f"{len(problems)}"),
        ("restart time mean", f"{statistics.fmean(restarts):.2f} s"),
        ("restart time p50 / max", f"{statistics.median(restarts):.2f} / {max(restarts):.2f} s"),
        ("wall time", f"{elapsed:.1f} s"),
    ]
    width = max(len(name) for name, _ in rows)
    print(f"\nkill -9 bench ({cycles} cycles)")
    for name, value in rows:
        print(f"  {name:<{width}}  {value}")
    for item in (lost + problems)[:20]:
        print(f"  ! {item}")
    return 1 if lost or problems or integrity_failures else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cycles", type=int, default=100, help="kill/restart cycles (100)")
    parser.add_argument("--seed", type=int, default=9090, help="random seed of the kill points (9090)")
    args = parser.parse_args()
    return run(args.cycles, args.seed)


if __name__ == "__main__":
    sys.exit(main())
