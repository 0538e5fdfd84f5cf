"""The hardening tally counts what happened (a failure shows in its row, recorded before the
test fails), and the docs' tables come only from a whole, green run's figures."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

import pytest

from docs.gen import hardening
from tests import tally
from tests.tally import attacks, faults, figures
from tests.tally_areas import AREAS
from tests.tally_publish import Refused, begin, checked, end, updated


@pytest.fixture(autouse=True)
def empty_tally(monkeypatch: pytest.MonkeyPatch) -> None:
    """A table of this test's own: the run's real one is left alone."""
    monkeypatch.setattr(tally, "TALLY", {})


def test_an_attempt_that_got_through_shows_in_the_row_and_fails_the_test() -> None:
    with pytest.raises(AssertionError, match="got through"), attacks("Host allowlist") as seen:
        for status in (421, 200, 421):
            seen.refused_if(status == 421, status)
    row = tally.TALLY["Host allowlist"]
    assert (row.tried, row.refused) == (3, 2)


def test_a_test_that_fails_half_way_still_records_what_it_saw() -> None:
    with pytest.raises(RuntimeError), attacks("Media type") as seen:
        seen.refused_if(True)
        raise RuntimeError("the portal went away")
    assert (tally.TALLY["Media type"].tried, tally.TALLY["Media type"].refused) == (1, 1)


def test_a_moved_state_counts_no_attempt_as_refused() -> None:
    with pytest.raises(AssertionError, match="state changed"), attacks("Credentials") as seen:
        seen.refused_if(True)
        seen.refused_if(True)
        seen.unchanged({"status": "pending"}, {"status": "submitted"})
    assert (tally.TALLY["Credentials"].tried, tally.TALLY["Credentials"].refused) == (2, 0)


def test_an_acknowledged_answer_missing_from_the_store_is_lost() -> None:
    with pytest.raises(AssertionError, match="lost"), faults("Concurrent submits") as seen:
        seen.answers([("q1", "a"), ("q2", "b")], [("q1", "a"), ("q2", "a")])
    row = tally.TALLY["Concurrent submits"]
    assert (row.acknowledged, row.lost) == (2, 1)


def test_the_description_quotes_the_counted_facts() -> None:
    with faults("First start race") as seen:
        seen.fact("bridges", 10)
        for _ in range(3):
            seen.fact("rounds")
            seen.checked(30, [])
    line = next(line for line in tally.table("reliability") if "First start race" in line)
    assert "10 `choice mcp` bridges" in line and "3 rounds" in line and "| 90 | 0 |" in line


def test_an_area_without_a_description_cannot_be_recorded() -> None:
    with pytest.raises(AssertionError, match="describe"):
        tally.record("security", "Something new", tried=1, refused=1)


def every_area_recorded() -> None:
    for area, described in AREAS.items():
        tally.record(described.suite, area, tried=1, refused=int(described.suite == "security"),
                     acknowledged=1)


def published(exit_status: int = 0) -> dict[str, Any]:
    """Figures as the suite writes them and `scripts/hardening-tables` reads them."""
    return checked(json.dumps(figures(exit_status, {"passed": 12, "failed": 0},
                                      datetime(2026, 11, 27, 9, 30, tzinfo=UTC))))


def test_the_figures_are_json_with_every_row_of_the_run() -> None:
    every_area_recorded()
    data = published()
    for suite in ("security", "reliability"):
        assert [row["area"] for row in data[suite]] == [
            area for area, d in AREAS.items() if d.suite == suite]
    rows = {row["area"]: row for row in data["reliability"]}
    assert rows["Schemathesis (OpenAPI)"]["acknowledged"] is None  # no answers given there
    assert rows["Concurrent submits"]["acknowledged"] == 1
    assert data["finished"] == "2026-11-27T09:30:00Z" and data["tests"]["passed"] == 12


def test_only_a_whole_green_run_is_published() -> None:
    every_area_recorded()
    with pytest.raises(Refused, match="failed"):
        published(1)
    del tally.TALLY["Many waiters"]
    with pytest.raises(Refused, match="did not reach Many waiters"):
        published(0)
    with pytest.raises(Refused, match="not a hardening figures file"):
        checked("<!-- the old markdown report -->")


def test_the_docs_render_each_suite_from_the_figures() -> None:
    every_area_recorded()
    tally.record("reliability", "First start race", facts={"bridges": 10, "rounds": 3})
    data = published()
    security = hardening.rows(data, "security")
    reliability = hardening.rows(data, "reliability")
    assert len(security) == 2 + sum(d.suite == "security" for d in AREAS.values())
    assert "| Schemathesis (OpenAPI) |" in next(r for r in reliability if "Schemathesis" in r)
    assert next(r for r in reliability if "Schemathesis" in r).endswith("| 1 | – | 0 |")
    assert "10 `choice mcp` bridges" in next(r for r in reliability if "First start" in r)
    assert hardening.provenance(data) == (
        "Figures from the whole test run of 27 Nov 2026 (12 passed), as the suite counted them.")
    with pytest.raises(ValueError, match="not one of"):
        hardening.rows(data, "speed")


def test_a_readme_with_the_markers_takes_the_same_tables() -> None:
    every_area_recorded()
    data = published()
    readme = f"# x\n{begin('security')}\nSTALE\n{end('security')}\ntail\n"
    text = updated(readme, data)
    assert "STALE" not in text and "| Host allowlist |" in text and text.endswith("tail\n")
    assert updated(text, data) == text  # the same run again changes nothing
    assert updated("# no markers\n", data) == "# no markers\n"


def test_the_published_figures_have_a_row_for_every_area() -> None:
    """Added an area? Run the whole suite, then `scripts/hardening-tables`."""
    data = hardening.load()
    assert data["exit_status"] == 0 and data["not_run"] == []
    for suite in ("security", "reliability"):
        assert [row["area"] for row in data[suite]] == [
            area for area, d in AREAS.items() if d.suite == suite]
        for row in data[suite]:
            assert "?" not in re.sub(r"`[^`]*`", "", row["what"]), row  # every fact counted


def test_figures_carried_over_say_where_they_come_from() -> None:
    every_area_recorded()
    data = {**published(), "source": "the run of 1 Dec 2026 (9 tests)"}
    assert hardening.provenance(data) == "Figures from the run of 1 Dec 2026 (9 tests)."
