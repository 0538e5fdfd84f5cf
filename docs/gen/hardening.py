"""The Security and Reliability pages' tables, from the figures of the last whole, green
test run (`docs/data/hardening.json`).

The test suite counts every attack it tries and every answer it sees acknowledged as it
goes (`tests/tally.py`) and writes those counts to `tests/artifacts/hardening.json`;
`scripts/hardening-tables` copies a whole, green run's file here. Nothing in this module
counts or rounds: each figure and each description is the run's own.

`render("security")` or `render("reliability")` returns that suite's table as Markdown,
followed by one line saying which run it comes from.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

FIGURES = Path(__file__).resolve().parents[1] / "data" / "hardening.json"
SUITES = ("security", "reliability")
HEADERS = {
    "security": ["| Area | What the suite tries | Tried | Refused |", "|---|---|---:|---:|"],
    "reliability": ["| Fault | What the suite does | Tried | Answers acknowledged | Lost |",
                    "|---|---|---:|---:|---:|"],
}


def load(path: Path = FIGURES) -> dict[str, Any]:
    figures: dict[str, Any] = json.loads(path.read_text("utf-8"))
    if figures.get("schema_version") != 1:
        raise ValueError(f"{path}: schema_version {figures.get('schema_version')!r}, not 1")
    return figures


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _count(value: int | None) -> str:
    return "–" if value is None else f"{value:,}"


def rows(figures: dict[str, Any], suite: str) -> list[str]:
    """One suite's table as Markdown lines."""
    if suite not in SUITES:
        raise ValueError(f"hardening: {suite!r} is not one of {', '.join(SUITES)}")
    lines = list(HEADERS[suite])
    for row in figures[suite]:
        cells = [_cell(row["area"]), _cell(row["what"]), _count(row["tried"])]
        if suite == "security":
            cells.append(_count(row["refused"]))
        else:
            cells += [_count(row["acknowledged"]), _count(row["lost"])]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def provenance(figures: dict[str, Any]) -> str:
    """Which run the figures come from, in one line."""
    day = datetime.strptime(figures["finished"], "%Y-%m-%dT%H:%M:%SZ")
    tests = figures.get("tests", {})
    counted = ", ".join(f"{count:,} {kind}" for kind, count in tests.items() if count)
    if figures.get("source"):  # figures carried over from before the suite wrote JSON
        return f"Figures from {figures['source']}."
    return (f"Figures from the whole test run of {day.day} {day:%b %Y}"
            + (f" ({counted})" if counted else "") + ", as the suite counted them.")


def render(arg: str) -> str:
    figures = load()
    return "\n".join(rows(figures, arg.strip())) + "\n\n" + provenance(figures) + "\n"
