"""choice/web/pages/forms.py: the settings form's default time is typed in minutes."""

from __future__ import annotations

import pytest

from choice.contract.field_errors import InvalidInput
from choice.web.pages.forms import preferences_from, seconds_of


@pytest.mark.parametrize(("typed", "seconds"), [
    ("30", 1800), ("1.5", 90), ("2,5", 150), ("1440", 86400), (" 5 ", 300)])
def test_minutes_become_whole_seconds(typed: str, seconds: int) -> None:
    assert seconds_of(typed.strip()) == seconds


@pytest.mark.parametrize("typed", ["soon", "nan", "inf", "1e12"])
def test_what_is_not_a_number_of_minutes_stays_as_typed(typed: str) -> None:
    assert seconds_of(typed) == typed


def test_the_form_saves_minutes_and_still_reads_an_older_pages_seconds() -> None:
    assert preferences_from({"timeout_minutes": ["45"]}).timeout_seconds == 2700
    assert preferences_from({"timeout_seconds": ["120"]}).timeout_seconds == 120


def test_a_time_out_of_range_is_refused_on_its_field() -> None:
    with pytest.raises(InvalidInput) as refused:
        preferences_from({"timeout_minutes": ["0"]})
    assert [error.field for error in refused.value.errors] == ["timeout_seconds"]
