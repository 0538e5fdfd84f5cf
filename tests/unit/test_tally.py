"""The hardening tally counts what happened (a failure shows in its row, recorded before the
test fails) and the README's tables come only from a whole, green run's report."""

from __future__ import annotations

import pytest

from tests import tally
from tests.tally import attacks, faults, report
from tests.tally_areas import AREAS
from tests.tally_readme import README, Refused, begin, end, tables, updated


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


def a_page_with_the_markers() -> str:
    """The tables left README.md for the docs' Security and Reliability pages, which the
    docs build fills from the run's figures; a text with the old markers still takes them."""
    return "".join(f"# {suite}\n{begin(suite)}\n| stale |\n{end(suite)}\n"
                   for suite in ("security", "reliability"))


def test_the_readme_takes_a_whole_green_run() -> None:
    every_area_recorded()
    text = updated(a_page_with_the_markers(), report(0))
    for suite in ("security", "reliability"):
        section = text[text.index(begin(suite)):text.index(end(suite))]
        assert all(f"| {area} |" in section for area, d in AREAS.items() if d.suite == suite)
    assert updated(text, report(0)) == text  # the same run again changes nothing


def test_the_readme_refuses_a_failed_or_partial_run() -> None:
    every_area_recorded()
    with pytest.raises(Refused, match="failed"):
        tables(report(1))
    del tally.TALLY["Many waiters"]
    with pytest.raises(Refused, match="did not reach Many waiters"):
        tables(report(0))


def test_the_docs_pages_hold_the_generated_tables() -> None:
    """The Security and Reliability tables moved from README.md to the docs, where the
    build renders them from the run's figures."""
    assert begin("security") not in README.read_text()
    for suite in ("security", "reliability"):
        page = (README.parent / "docs" / f"{suite}.md").read_text()
        assert f"<!-- generated: hardening {suite} -->" in page
