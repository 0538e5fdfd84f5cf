"""`kill -9` at random points of a stream of creates and submits: 20 cycles on one data dir
on SQLite, 10 on PostgreSQL.

After every kill the database passes its integrity check, every acknowledged create and
answer is there exactly as acknowledged, a change whose reply was lost is absent or whole,
and after the restart the pending interactions are back with their deadlines. The cycle
itself lives in `kill_cycle.py` (shared with `bench/kill9_bench.py`).
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.portal_process import PortalProcess
from tests.reliability.kill_cycle import KILL9_ENV, Ledger, kill9_cycle
from tests.tally import faults

pytestmark = pytest.mark.slow(seconds=30)  # per backend: ~20 and ~10 restarts
CYCLES = {"sqlite": 20, "postgresql": 10}
"""PostgreSQL's own crash safety is not what is tested: the portal's write path on it is."""
SEED = int(os.environ.get("CHOICE_KILL9_SEED", "9090"))
CLIENTS = 4
"""Threads streaming creates and submits at the portal when it is killed."""


@pytest.fixture
def portal(isolated_env: Path, backend: str) -> Iterator[PortalProcess]:
    """On SQLite and on PostgreSQL (`backend`): the same cycle, the same checks."""
    database = {"CHOICE_DB_URL": os.environ["CHOICE_DB_URL"]} if backend == "postgresql" else {}
    process = PortalProcess(isolated_env, **KILL9_ENV, **database).start()
    yield process
    process.stop()


def test_kill_9_at_random_points_loses_no_acknowledged_write(portal: PortalProcess,
                                                            backend: str) -> None:
    print(f"kill -9 random seed {SEED} (set CHOICE_KILL9_SEED to replay)")
    rng, ledger = random.Random(SEED), Ledger()
    area = "kill -9 during writes" + (" (PostgreSQL)" if backend == "postgresql" else "")
    lost: dict[str, str] = {}  # each acknowledged write missing after a kill, and where
    with faults(area) as seen:
        seen.fact("threads", CLIENTS)
        try:
            for cycle in range(CYCLES[backend]):
                outcome = kill9_cycle(portal, ledger, rng, cycle, clients=CLIENTS)
                where = f"random seed {SEED}, cycle {cycle}, killed after {outcome.traffic_s:.3f} s"
                seen.tries()
                seen.fact("cycles")
                for line in outcome.lost:
                    lost.setdefault(line, where)
                if outcome.integrity != "ok":
                    seen.miss(f"{where}: integrity check says {outcome.integrity}")
                for problem in outcome.problems:
                    seen.miss(f"{where}: {problem}")
        finally:
            # every create and answer acknowledged in any cycle, checked after every kill
            seen.checked(len(ledger.created) + len(ledger.answered),
                         [f"{line} ({where})" for line, where in lost.items()])
    assert len(ledger.answered) >= CYCLES[backend], "too few answers acknowledged to mean anything"
