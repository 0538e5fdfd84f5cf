"""What the hardening suites count: attacks tried and refused, answers acknowledged and lost,
each counted as it happens, and the docs' tables made from those counts (`docs/data/hardening.json`,
rendered by `docs/gen/hardening.py`).

A test in `tests/security/` opens `with attacks("Host allowlist") as seen:` and calls
`seen.refused_if(<what it just observed>, <what was tried>)` once per attempt; one in
`tests/reliability/` opens `with faults(area)` and hands `seen.answers(acknowledged, stored)`
the answers the portal acknowledged and what it then finds stored. The row is recorded when
the block ends, before anything is asserted and also when the test fails half way, so a
failure shows in the table (tried > refused, lost > 0); the block then fails the test with
every miss it saw. A figure is never written from what the asserts already implied.

`seen.fact("rounds")` counts what the area's description quotes (rounds, cycles, bridges):
the descriptions live in `tests/tally_areas.py`, with those facts as `{fields}`.

Under pytest-xdist each worker hands its rows to the controller (`rows()` / `merge()`);
`pytest_terminal_summary` (in `tests/conftest.py`) prints the tables and writes the figures
as JSON (`figures()`) to `tests/artifacts/hardening.json` when the run reached every area
(else to `hardening-partial.json`). `scripts/hardening-tables` copies a whole, green run's
file to `docs/data/hardening.json`, from which `docs/gen/hardening.py` renders the tables
of the Security and Reliability pages.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

from tests.tally_areas import AREAS


@dataclass
class Row:
    suite: str
    tried: int = 0
    refused: int = 0
    acknowledged: int = 0
    lost: int = 0
    facts: dict[str, int] = field(default_factory=dict)


TALLY: dict[str, Row] = {}


def record(suite: str, area: str, *, tried: int = 0, refused: int = 0, acknowledged: int = 0,
           lost: int = 0, facts: dict[str, int] | None = None) -> None:
    """Add to one row of the table. `suite` is "security" or "reliability"; `area` is one of
    `AREAS` (a new area gets its description there first)."""
    assert area in AREAS and AREAS[area].suite == suite, f"describe {area!r} in tests/tally_areas.py"
    row = TALLY.setdefault(area, Row(suite))
    row.tried += tried
    row.refused += refused
    row.acknowledged += acknowledged
    row.lost += lost
    for name, value in (facts or {}).items():
        row.facts[name] = row.facts.get(name, 0) + value


@dataclass
class Seen:
    """What one test observed, counted as it happened."""

    tried: int = 0
    refused: int = 0
    acknowledged: int = 0
    lost: int = 0
    facts: dict[str, int] = field(default_factory=dict)
    misses: list[str] = field(default_factory=list)
    moved: bool = False
    """The state the attempts had to leave alone changed: no attempt counts as refused,
    since which one got through cannot be told."""

    def refused_if(self, refused: bool, attempt: object = None) -> bool:
        """One attempt, refused or not as the test just observed it; returns `refused`."""
        self.tried += 1
        if refused:
            self.refused += 1
        else:
            self.misses.append(f"got through: {attempt!r}"[:500])
        return refused

    def unchanged(self, before: object, after: object) -> bool:
        """The state every attempt had to leave alone, read before and after them."""
        if before != after:
            self.moved = True
            self.misses.append(f"the state changed:\n  before {before!r}\n  after  {after!r}"[:2000])
        return before == after

    def answers(self, acknowledged: Iterable[Hashable], stored: Iterable[Hashable]) -> int:
        """The answers the portal acknowledged (whatever identifies each: an id, or an id
        and the choice) against what is stored: each acknowledged one not stored is lost.
        Returns how many were lost."""
        told, kept = list(acknowledged), set(stored)
        lost = [answer for answer in told if answer not in kept]
        self.acknowledged += len(told)
        self.lost += len(lost)
        self.misses += [f"lost: {answer!r}" for answer in lost]
        return len(lost)

    def checked(self, acknowledged: int, lost: Iterable[str]) -> None:
        """Answers acknowledged and checked elsewhere (the kill -9 ledger, a state
        machine's model): how many, and a line for each one lost."""
        missing = list(lost)
        self.acknowledged += acknowledged
        self.lost += len(missing)
        self.misses += [f"lost: {line}" for line in missing]

    def tries(self, count: int = 1) -> None:
        """Attempts whose outcome is an acknowledged answer, not a refusal (reliability)."""
        self.tried += count

    def miss(self, what: str) -> None:
        """Something else went wrong that the row cannot show (the test fails with it)."""
        self.misses.append(what)

    def fact(self, name: str, count: int = 1) -> None:
        """Count something the area's description quotes (`{name}` in `AREAS`)."""
        self.facts[name] = self.facts.get(name, 0) + count


@contextmanager
def counted(suite: str, area: str) -> Iterator[Seen]:
    seen = Seen()
    try:
        yield seen
    finally:
        if seen.tried or seen.acknowledged or seen.misses or seen.facts:  # not a bare skip
            record(suite, area, tried=seen.tried, refused=0 if seen.moved else seen.refused,
                   acknowledged=seen.acknowledged, lost=seen.lost, facts=seen.facts)
    assert not seen.misses, f"{area}: {len(seen.misses)} misses\n" + "\n".join(seen.misses[:20])


def attacks(area: str) -> AbstractContextManager[Seen]:
    """`with attacks(area) as seen:` for a security test (see the module docstring)."""
    return counted("security", area)


def faults(area: str) -> AbstractContextManager[Seen]:
    """`with faults(area) as seen:` for a reliability test (see the module docstring)."""
    return counted("reliability", area)


def rows() -> dict[str, dict[str, Any]]:
    """This process's rows, as plain data a pytest-xdist worker can send."""
    return {area: asdict(row) for area, row in TALLY.items()}


def merge(worker_rows: dict[str, dict[str, Any]]) -> None:
    for area, row in worker_rows.items():
        suite = row.pop("suite")
        record(suite, area, **row)


class _Uncounted:
    """A fact the description quotes but this run did not count: shown as "?"."""

    def __format__(self, spec: str) -> str:
        return "?"


class _Facts(dict[str, int]):
    def __missing__(self, name: str) -> _Uncounted:
        return _Uncounted()


SUITES = ("security", "reliability")

SCHEMA_VERSION = 1
"""Of the JSON `figures()` writes; `docs/gen/hardening.py` reads it."""


def entries(suite: str) -> list[dict[str, Any]]:
    """This run's rows of one suite, in the order of `AREAS`, each with its description
    filled in from the facts counted (a fact not counted shows as "?")."""
    found: list[dict[str, Any]] = []
    for area, described in AREAS.items():
        row = TALLY.get(area)
        if described.suite != suite or row is None:
            continue
        entry: dict[str, Any] = {"area": area,
                                 "what": described.what.format_map(_Facts(row.facts)),
                                 "tried": row.tried}
        if suite == "security":
            entry["refused"] = row.refused
        else:
            entry["acknowledged"] = row.acknowledged if described.answers else None
            entry["lost"] = row.lost
        entry["facts"] = dict(sorted(row.facts.items()))
        found.append(entry)
    return found


def table(suite: str) -> list[str]:
    """This run's rows of one suite as markdown lines, as pytest prints them."""
    if suite == "security":
        lines = ["| area | what the suite tries | tried | refused |", "|---|---|---:|---:|"]
        lines += [f"| {e['area']} | {e['what']} | {e['tried']} | {e['refused']} |"
                  for e in entries(suite)]
        return lines
    lines = ["| fault | what the suite does | tried | answers acknowledged | lost |",
             "|---|---|---:|---:|---:|"]
    for e in entries(suite):
        acknowledged = "–" if e["acknowledged"] is None else e["acknowledged"]
        lines.append(f"| {e['area']} | {e['what']} | {e['tried']} | {acknowledged} | {e['lost']} |")
    return lines


def not_run() -> list[str]:
    return [area for area in AREAS if area not in TALLY]


def figures(exit_status: int, outcomes: dict[str, int] | None = None,
            finished: datetime | None = None) -> dict[str, Any]:
    """The JSON `scripts/hardening-tables` publishes: how the run ended (its exit status,
    the areas it did not reach, how many tests passed, failed, were skipped), then each
    suite's rows."""
    return {
        "schema_version": SCHEMA_VERSION,
        "finished": (finished or datetime.now(UTC)).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "exit_status": exit_status,
        "not_run": not_run(),
        "tests": dict(sorted((outcomes or {}).items())),
        **{suite: entries(suite) for suite in SUITES},
    }
