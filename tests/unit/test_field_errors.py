"""choice/contract/field_errors.py: pydantic's errors become `{field, code, message}` in our
words; a validator's own error keeps its code and its fix, without pydantic's prefixes."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, Field, field_validator

from choice.contract import FieldError, PreferencesPatch
from choice.contract.field_errors import InvalidInput, parse_model


def errors_of(model: type[BaseModel], payload: object) -> list[FieldError]:
    with pytest.raises(InvalidInput) as caught:
        parse_model(model, payload)
    return caught.value.errors


def test_a_team_name_with_a_comma_names_the_member_and_the_fix() -> None:
    [error] = errors_of(PreferencesPatch, {"team": [{"name": "Ann"}, {"name": "Lee, Carol"}]})
    assert (error.field, error.code) == ("team[1].name", "invalid_characters")
    assert error.message.startswith("team[1].name: 'Lee, Carol' has a comma"), error.message
    assert "write it without one" in error.message
    assert "Value error" not in error.message


def test_a_blank_team_name_asks_for_the_name() -> None:
    [error] = errors_of(PreferencesPatch, {"team": [{"name": "   "}]})
    assert (error.field, error.code) == ("team[0].name", "blank")
    assert "write the person's name" in error.message


def test_a_name_twice_in_the_team_names_both_members() -> None:
    [error] = errors_of(PreferencesPatch, {"team": [{"name": "Ann"}, {"name": "Bo"},
                                                    {"name": "ANN"}]})
    assert (error.field, error.code) == ("team", "duplicate")
    assert "'ANN' is in the team list twice (team[0] and team[2])" in error.message
    assert "Value error" not in error.message


class _Plain(BaseModel):
    """A model whose validator raises a plain ValueError, as any future one may."""

    size: int

    @field_validator("size")
    @classmethod
    def _even(cls, size: int) -> int:
        if size % 2:
            raise ValueError("must be even: add or remove one")
        return size


def test_a_plain_value_error_keeps_its_words_without_the_framework_prefix() -> None:
    [error] = errors_of(_Plain, {"size": 3})
    assert error == FieldError(field="size", code="invalid_value",
                               message="size: must be even: add or remove one.")


class _Listed(BaseModel):
    items: list[int] = Field(min_length=2)


def test_a_list_too_short_says_how_many_in_our_words() -> None:
    [error] = errors_of(_Listed, {"items": [1]})
    assert (error.field, error.code) == ("items", "too_few")
    assert error.message == "items has 1 entries; give at least 2."
