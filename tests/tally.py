"""What the hardening suites count: attacks tried and refused, answers acknowledged and lost.

Tests in `tests/security/` and `tests/reliability/` call `record(area, ...)` with what they
actually did; `pytest_terminal_summary` (in `tests/conftest.py`) prints the table at the end
of the run. Under pytest-xdist each worker hands its rows to the controller (`rows()` /
`merge()`). The README's Security and Reliability tables are copied from that output.

The team mode's defences (participant links, comments, votes, widening, the public origin)
are security rows whose area starts with `Team: `, so they sort together in the table.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass
class Row:
    suite: str
    tried: int = 0
    refused: int = 0
    acknowledged: int = 0
    lost: int = 0


TALLY: dict[str, Row] = {}


def record(suite: str, area: str, *, tried: int = 0, refused: int = 0,
           acknowledged: int = 0, lost: int = 0) -> None:
    """Add to one row of the table. `suite` is "security" or "reliability"; `area` names
    the defence or fault, e.g. "Host allowlist", "Team: link scope" or "kill -9 during
    writes"."""
    row = TALLY.setdefault(area, Row(suite))
    row.tried += tried
    row.refused += refused
    row.acknowledged += acknowledged
    row.lost += lost


def rows() -> dict[str, dict[str, Any]]:
    """This process's rows, as plain data a pytest-xdist worker can send."""
    return {area: asdict(row) for area, row in TALLY.items()}


def merge(worker_rows: dict[str, dict[str, Any]]) -> None:
    for area, row in worker_rows.items():
        suite = row.pop("suite")
        record(suite, area, **row)


def table() -> list[str]:
    if not TALLY:
        return []
    lines = ["| suite | area | tried | refused | answers acknowledged | lost |",
             "|---|---|---:|---:|---:|---:|"]
    for area, row in sorted(TALLY.items(), key=lambda item: (item[1].suite, item[0])):
        lines.append(f"| {row.suite} | {area} | {row.tried} | {row.refused} | "
                     f"{row.acknowledged} | {row.lost} |")
    return lines
