"""choice/web/views/time_left.py: a far deadline reads as a date and time, the last ten
minutes as a clock, a list line as "in 25 min"; in English and in Chinese."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from choice.core.i18n import translator
from choice.web.views.time_left import (
    clock,
    due_words,
    relative_words,
    seconds_left,
    ticking,
    urgent,
)

EN, ZH = translator("en"), translator("zh")
TUESDAY_MORNING = datetime(2026, 12, 1, 9, 30, 12)  # local time, as the page says it


def at(moment: datetime) -> float:
    return moment.timestamp()


@pytest.mark.parametrize(("seconds", "shown"), [
    (0, "0:00"), (-5, "0:00"), (59.4, "0:59"), (600, "10:00"), (3599, "59:59"),
    (3600, "1:00:00"), (86390, "23:59:50"), (86400, "24:00:00"),
])
def test_the_clock_reads_h_mm_ss_from_an_hour_up(seconds: float, shown: str) -> None:
    assert clock(seconds) == shown


def test_seconds_left_round_up_and_never_go_below_zero() -> None:
    assert seconds_left(100.2, 40.0) == 61
    assert seconds_left(100.0, 40.0) == 60
    assert seconds_left(10.0, 40.0) == 0


def test_only_the_last_ten_minutes_tick_and_only_the_last_minute_is_urgent() -> None:
    assert [ticking(s) for s in (601, 600, 1, 0)] == [False, True, True, True]
    assert [urgent(s) for s in (61, 60, 1, 0)] == [False, True, True, False]


@pytest.mark.parametrize(("later", "english", "chinese"), [
    (timedelta(hours=4, minutes=35), "due 14:05", "14:05 截止"),
    (timedelta(days=1, hours=4, minutes=35), "due tomorrow 14:05", "明天 14:05 截止"),
    (timedelta(hours=14, minutes=29, seconds=48), "due tomorrow 00:00", "明天 00:00 截止"),
    (timedelta(days=2, hours=4, minutes=35), "due Thu 3 Dec 14:05", "12月3日 周四 14:05 截止"),
    (timedelta(days=6), "due Mon 7 Dec 09:30", "12月7日 周一 09:30 截止"),
])
def test_a_far_deadline_reads_as_its_local_date_and_time(later: timedelta, english: str,
                                                        chinese: str) -> None:
    due = at(TUESDAY_MORNING + later)
    assert due_words(due, at(TUESDAY_MORNING), EN) == english
    assert due_words(due, at(TUESDAY_MORNING), ZH) == chinese


def test_the_minute_of_a_deadline_is_cut_not_rounded() -> None:
    due = at(datetime(2026, 12, 1, 14, 5, 59))
    assert due_words(due, at(TUESDAY_MORNING), EN) == "due 14:05"


@pytest.mark.parametrize(("seconds", "english", "chinese"), [
    (1, "in 1 min", "1 分钟后"),
    (60, "in 1 min", "1 分钟后"),
    (61, "in 2 min", "2 分钟后"),
    (25 * 60, "in 25 min", "25 分钟后"),
    (59 * 60 + 1, "in 1 h", "1 小时后"),
    (89 * 60, "in 1 h", "1 小时后"),
    (90 * 60, "in 2 h", "2 小时后"),
    (3 * 3600 + 600, "in 3 h", "3 小时后"),
    (86_400, "in 24 h", "24 小时后"),
    (0, "in 1 min", "1 分钟后"),
])
def test_a_list_line_says_the_time_left_in_its_largest_unit(seconds: float, english: str,
                                                            chinese: str) -> None:
    assert relative_words(seconds, EN) == english
    assert relative_words(seconds, ZH) == chinese
