"""Who a widened question goes to (docs/guides/team-mode.md#widening): the whole team by
default, trimmed by comma-separated names matched case-insensitively; unknown names invited
with a warning."""

from __future__ import annotations

import pytest

from choice.contract import PreferencesPatch, TeamMember
from choice.contract.field_errors import InvalidInput
from choice.team.audience import choose_audience, is_cancel, split_names

TEAM = [TeamMember(name="Alice Johnson"), TeamMember(name="Bob Smith"),
        TeamMember(name="Carol Lee", handle="@carol")]


def names(members: list[TeamMember]) -> list[str]:
    return [m.name for m in members]


def test_no_names_means_the_whole_team() -> None:
    assert names(choose_audience(TEAM, None).members) == names(TEAM)
    assert names(choose_audience(TEAM, []).members) == names(TEAM)


def test_names_trim_the_team_case_insensitively_keeping_the_lists_spelling() -> None:
    chosen = choose_audience(TEAM, split_names(" carol LEE,alice johnson "))
    assert names(chosen.members) == ["Carol Lee", "Alice Johnson"]
    assert chosen.members[0].handle == "@carol"
    assert chosen.warnings == []


def test_an_unknown_name_is_invited_with_a_warning() -> None:
    chosen = choose_audience(TEAM, ["Bob  Smith", "Dana   Park", "dana park"])
    assert names(chosen.members) == ["Bob Smith", "Dana Park"]
    assert chosen.warnings == ["not on the team list, invited anyway: Dana Park"]


def test_an_empty_team_with_no_names_says_how_to_fix_it() -> None:
    with pytest.raises(InvalidInput) as refused:
        choose_audience([], None)
    assert (refused.value.errors[0].field, refused.value.errors[0].code) == ("audience", "empty")


@pytest.mark.parametrize(("given", "field", "code"), [
    (["   "], "audience", "empty"),
    (["ok", "x" * 101], "audience[1]", "too_long"),
    (["Eve\u202e"], "audience[0]", "invalid_characters"),
    (["a\x00b"], "audience[0]", "invalid_characters"),
    (["a,b"], "audience[0]", "invalid_characters"),
])
def test_malformed_names_are_refused_by_field(given: list[str], field: str, code: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        choose_audience(TEAM, given)
    assert (field, code) in {(e.field, e.code) for e in refused.value.errors}


def test_cancel_and_splitting_follow_the_prompt() -> None:
    assert is_cancel(" Cancel ") and is_cancel("CANCEL") and not is_cancel("cancelled")
    assert split_names("a, ,b,,") == ["a", "b"]


def test_the_team_list_refuses_duplicate_and_comma_names() -> None:
    with pytest.raises(ValueError, match="twice"):
        PreferencesPatch(team=[TeamMember(name="Ann"), TeamMember(name="ANN")])
    with pytest.raises(ValueError, match="has a comma"):
        TeamMember(name="Lee, Carol")
    assert TeamMember(name="  Carol   Lee ").name == "Carol Lee"
