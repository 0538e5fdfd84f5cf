"""Copies a run's hardening tables into the README: the Security and Reliability tables sit
between `<!-- hardening-tables:<suite> -->` and `<!-- /hardening-tables:<suite> -->`, and
only a report of a whole, green run may replace them (`scripts/hardening-tables`).

The report is what `pytest_terminal_summary` writes (`tests/tally.py`'s `report`): a header
line with the exit status and the areas the run did not reach, then one `## <suite>` section
per table. Nothing here counts or runs a test.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
REPORT = ROOT / "tests" / "artifacts" / "hardening.md"
SUITES = ("security", "reliability")
HEADER = re.compile(r"<!-- hardening tally: exit status (\d+); not run: (.*) -->")


class Refused(Exception):
    """The report cannot go into the README; the message says why and what to run."""


def begin(suite: str) -> str:
    return f"<!-- hardening-tables:{suite} -->"


def end(suite: str) -> str:
    return f"<!-- /hardening-tables:{suite} -->"


def tables(report: str) -> dict[str, list[str]]:
    """Each suite's table lines from a complete, green run's report."""
    header = HEADER.match(report)
    if header is None:
        raise Refused("not a hardening report (it starts with the tally's header line)")
    status, missing = int(header.group(1)), header.group(2)
    if status != 0:
        raise Refused(f"that run failed (exit status {status}): the README shows a green run")
    if missing != "none":
        raise Refused(f"that run did not reach {missing}: run the whole suite (scripts/test)")
    found: dict[str, list[str]] = {}
    suite = None
    for line in report.splitlines()[1:]:
        if line.startswith("## "):
            suite = line[3:].strip()
            found[suite] = []
        elif suite is not None and line.startswith("|"):
            found[suite].append(line)
    return {name: found.get(name, []) for name in SUITES}


def updated(readme: str, report: str) -> str:
    """The README with each suite's table replaced by the report's."""
    for suite, lines in tables(report).items():
        first, last = readme.find(begin(suite)), readme.find(end(suite))
        if first < 0 or last < first:
            raise Refused(f"the README has no {begin(suite)} ... {end(suite)} markers")
        head = readme[:first + len(begin(suite))]
        readme = head + "\n" + "\n".join(lines) + "\n" + readme[last:]
    return readme


def main(argv: list[str]) -> int:
    report = Path(argv[0]) if argv else REPORT
    if not report.is_file():
        print(f"no report at {report}: run the suite first (scripts/test)", file=sys.stderr)
        return 1
    try:
        text = updated(README.read_text(), report.read_text())
    except Refused as why:
        print(f"README not changed: {why}", file=sys.stderr)
        return 1
    README.write_text(text)
    print(f"README.md: the security and reliability tables from {report}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
