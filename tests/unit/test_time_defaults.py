"""`choice/core/time_defaults.py`: the time a person gave a question, read from its audit events,
and the default time it would become."""

from __future__ import annotations

from datetime import timedelta

import pytest
from babel.dates import format_timedelta

from choice.core.i18n import translator
from choice.core.time_defaults import ago, clamp, duration, last_time_given, time_default
from choice.store.records import AuditEvent


def moved(to: float, at: float, actor: str = "human:web") -> AuditEvent:
    return AuditEvent(interaction_id="q", kind="deadline_changed", actor=actor, at=at,
                      detail_json={"from": 0, "to": to})


def test_the_time_given_is_the_new_deadline_less_the_moment_it_was_set() -> None:
    assert last_time_given([moved(1000 + 1800.0004, 1000)]) == 1800


def test_the_newest_change_by_a_person_counts() -> None:
    events = [moved(1600, 1000), moved(3000, 1100, actor="human:api"),
              AuditEvent(interaction_id="q", kind="opened", actor="human:web", at=1200)]
    assert last_time_given(events) == 600  # the API's (an agent's, maybe) is not offered
    assert last_time_given([moved(1600, 1000), moved(1400, 1200)]) == 200


def test_nothing_given_before_any_change() -> None:
    assert last_time_given([]) is None
    assert time_default([], 300) is None


def test_clamping_keeps_the_default_within_its_bounds() -> None:
    assert (clamp(6), clamp(10), clamp(86_400), clamp(90_000)) == (10, 10, 86_400, 86_400)
    short = time_default([moved(1006, 1000)], 300)
    assert short is not None and (short.given, short.saved, short.clamped) == (6, 10, True)
    assert not short.is_default
    exact = time_default([moved(1300, 1000)], 300)
    assert exact is not None and exact.is_default and not exact.clamped


def test_durations_read_as_minutes_when_whole() -> None:
    _ = translator("en")
    assert (duration(1800, _), duration(60, _), duration(45, _)) == (
        "30 minutes", "1 minute", "45 seconds")


AGES = [0.4, 1, 2, 50, 51, 60, 89, 90, 3000, 3060, 3600, 7200, 80_000, 86_400, 2 * 86_400,
        6 * 86_400, 7 * 86_400, 14 * 86_400, 30 * 86_400, 60 * 86_400, 365 * 86_400,
        730 * 86_400]


@pytest.mark.parametrize("seconds", AGES)
def test_an_age_reads_as_babels_relative_time_did(seconds: float) -> None:
    expected = format_timedelta(timedelta(seconds=-seconds), add_direction=True, locale="en")
    assert ago(seconds, translator("en")) == expected


def test_an_age_in_chinese_and_a_time_to_come() -> None:
    assert ago(200, translator("zh")) == "3 分钟前"
    assert ago(2 * 86_400, translator("zh")) == "2 天前"
    assert ago(-5, translator("en")) == "1 second ago"  # a clock a little ahead: not "in ..."
