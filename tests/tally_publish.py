"""Publishes a run's hardening figures: `tests/artifacts/hardening.json` (what
`pytest_terminal_summary` writes, `tests/tally.py`'s `figures`) becomes
`docs/data/hardening.json`, from which the docs' Security and Reliability pages render their
tables (`docs/gen/hardening.py`). Only a whole, green run's figures may be published
(`scripts/hardening-tables`).

A README that still holds a table between `<!-- hardening-tables:<suite> -->` and
`<!-- /hardening-tables:<suite> -->` gets the same run's table there too. Nothing here counts
or runs a test.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from docs.gen.hardening import FIGURES, SUITES, rows

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
REPORT = ROOT / "tests" / "artifacts" / "hardening.json"


class Refused(Exception):
    """The figures cannot be published; the message says why and what to run."""


def begin(suite: str) -> str:
    return f"<!-- hardening-tables:{suite} -->"


def end(suite: str) -> str:
    return f"<!-- /hardening-tables:{suite} -->"


def checked(text: str) -> dict[str, Any]:
    """A complete, green run's figures, or `Refused`."""
    try:
        figures: dict[str, Any] = json.loads(text)
    except ValueError:
        figures = {}
    if not isinstance(figures, dict) or figures.get("schema_version") != 1:
        raise Refused("not a hardening figures file (the tally's JSON, schema_version 1)")
    if figures["exit_status"] != 0:
        raise Refused(f"that run failed (exit status {figures['exit_status']}): "
                      "the docs show a green run")
    if figures["not_run"]:
        raise Refused(f"that run did not reach {', '.join(figures['not_run'])}: "
                      "run the whole suite (scripts/test)")
    return figures


def updated(readme: str, figures: dict[str, Any]) -> str:
    """The README with each suite's table (where it has the markers) from `figures`."""
    for suite in SUITES:
        first, last = readme.find(begin(suite)), readme.find(end(suite))
        if first < 0 or last < first:
            continue
        head = readme[:first + len(begin(suite))]
        readme = head + "\n" + "\n".join(rows(figures, suite)) + "\n" + readme[last:]
    return readme


def main(argv: list[str]) -> int:
    report = Path(argv[0]) if argv else REPORT
    if not report.is_file():
        print(f"no figures at {report}: run the suite first (scripts/test)", file=sys.stderr)
        return 1
    try:
        figures = checked(report.read_text("utf-8"))
    except Refused as why:
        print(f"nothing published: {why}", file=sys.stderr)
        return 1
    FIGURES.parent.mkdir(parents=True, exist_ok=True)
    FIGURES.write_text(json.dumps(figures, indent=2, ensure_ascii=False) + "\n", "utf-8")
    print(f"{FIGURES.relative_to(ROOT)}: the figures of {report}")
    readme = README.read_text("utf-8")
    if (text := updated(readme, figures)) != readme:
        README.write_text(text, "utf-8")
        print("README.md: its security and reliability tables from the same run")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
