"""choice/contract/validation.py: every rule of the request table, and the knobs filled from
preferences."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest

from choice.contract import ChoiceRequest, FieldError, Preferences
from choice.contract.field_errors import InvalidInput
from choice.contract.validation import ValidatedRequest, validate_request

FIX_HINT = re.compile(
    r"\b(add|remove|write|use|give|lower|raise|set|shorten|keep|swap|fix|change)\b|must be"
)


def request(**fields: Any) -> dict[str, Any]:
    """A valid single-choice payload with three options; keyword arguments override it."""
    payload: dict[str, Any] = {
        "title": "Pick a database",
        "prompt": "The service needs storage; which engine should we use?",
        "options": [
            {"id": "pg", "label": "PostgreSQL"},
            {"id": "lite", "label": "SQLite"},
            {"id": "my", "label": "MySQL"},
        ],
    }
    payload.update(fields)
    return payload


def options(count: int) -> list[dict[str, str]]:
    return [{"id": f"o{i}", "label": f"Option {i}"} for i in range(count)]


def valid(payload: Any, preferences: Preferences | None = None) -> ChoiceRequest:
    return validate_request(payload, preferences).request


def errors_of(payload: Any) -> list[FieldError]:
    with pytest.raises(InvalidInput) as caught:
        validate_request(payload)
    return caught.value.errors


def the_error(payload: Any) -> FieldError:
    """The single error a payload breaking exactly one rule gets."""
    errors = errors_of(payload)
    assert len(errors) == 1, errors
    return errors[0]


def says_how_to_fix(message: str) -> bool:
    return bool(message.strip()) and FIX_HINT.search(message) is not None


def assert_error(error: FieldError, field: str, code: str) -> None:
    assert (error.field, error.code) == (field, code), error
    assert says_how_to_fix(error.message), error.message


# --- a valid request -------------------------------------------------------------------------


def test_a_minimal_request_is_valid_and_single_choice_by_default() -> None:
    result = validate_request(request())
    assert isinstance(result, ValidatedRequest)
    assert result.request.selection_mode == "single"
    assert result.warnings == []


def test_a_request_that_is_not_an_object_is_rejected_as_the_body() -> None:
    error = the_error(["not", "an", "object"])
    assert (error.field, error.code) == ("body", "invalid_type")


# --- title and prompt ------------------------------------------------------------------------


@pytest.mark.parametrize("field", ["title", "prompt"])
def test_title_and_prompt_are_required(field: str) -> None:
    payload = request()
    del payload[field]
    assert_error(the_error(payload), field, "required")


@pytest.mark.parametrize("field", ["title", "prompt"])
def test_empty_title_and_prompt_are_too_short(field: str) -> None:
    assert_error(the_error(request(**{field: ""})), field, "too_short")


@pytest.mark.parametrize("field", ["title", "prompt"])
def test_whitespace_only_title_and_prompt_are_blank(field: str) -> None:
    assert_error(the_error(request(**{field: " \n\t "})), field, "blank")


def test_title_of_200_characters_is_accepted() -> None:
    assert valid(request(title="t" * 200)).title == "t" * 200


def test_title_over_200_characters_is_too_long() -> None:
    assert_error(the_error(request(title="t" * 201)), "title", "too_long")


def test_prompt_over_its_limit_is_too_long() -> None:
    assert_error(the_error(request(prompt="p" * 20_001)), "prompt", "too_long")


def test_option_label_over_its_limit_is_too_long() -> None:
    payload = request(options=[{"id": "a", "label": "l" * 201}])
    assert_error(the_error(payload), "options[0].label", "too_long")


# --- options ---------------------------------------------------------------------------------


@pytest.mark.parametrize("bad_id", ["", "has space", "slash/no", "é", "x" * 65])
def test_option_id_must_match_the_id_pattern(bad_id: str) -> None:
    payload = request(options=[{"id": bad_id, "label": "A"}])
    assert_error(the_error(payload), "options[0].id", "invalid_format")


@pytest.mark.parametrize("good_id", ["a", "A-1", "v1.2_rc", "x" * 64])
def test_option_ids_of_letters_digits_dot_dash_underscore_are_accepted(good_id: str) -> None:
    assert valid(request(options=[{"id": good_id, "label": "A"}])).options[0].id == good_id


def test_duplicate_option_ids_are_rejected_at_the_second_occurrence() -> None:
    payload = request(options=[{"id": "a", "label": "A"}, {"id": "a", "label": "B"}])
    error = the_error(payload)
    assert_error(error, "options[1].id", "duplicate")
    assert "options[0]" in error.message


def test_blank_option_label_is_rejected() -> None:
    payload = request(options=[{"id": "a", "label": "   "}])
    assert_error(the_error(payload), "options[0].label", "blank")


def test_empty_option_label_is_too_short() -> None:
    payload = request(options=[{"id": "a", "label": ""}])
    assert_error(the_error(payload), "options[0].label", "too_short")


@pytest.mark.parametrize("mode", ["single", "multi", "hybrid"])
def test_choice_modes_need_at_least_one_option(mode: str) -> None:
    assert_error(the_error(request(selection_mode=mode, options=[])), "options", "required")


def test_text_input_takes_no_options() -> None:
    assert_error(the_error(request(selection_mode="text_input")), "options", "not_allowed")


def test_text_input_without_options_is_valid() -> None:
    req = valid(request(selection_mode="text_input", options=[]))
    assert (req.min_selections, req.max_selections) == (0, 0)


def test_fifty_options_are_accepted() -> None:
    assert len(valid(request(selection_mode="multi", options=options(50))).options) == 50


def test_more_than_fifty_options_are_too_many() -> None:
    assert_error(the_error(request(options=options(51))), "options", "too_many")


# --- default_selection_ids -------------------------------------------------------------------


def test_defaults_must_be_option_ids() -> None:
    error = the_error(request(default_selection_ids=["nope"]))
    assert_error(error, "default_selection_ids[0]", "unknown_option")


def test_defaults_must_not_repeat_an_id() -> None:
    payload = request(selection_mode="multi", default_selection_ids=["pg", "pg"])
    assert_error(the_error(payload), "default_selection_ids[1]", "duplicate")


def test_defaults_may_not_outnumber_max_selections() -> None:
    payload = request(selection_mode="multi", max_selections=1, default_selection_ids=["pg", "my"])
    assert_error(the_error(payload), "default_selection_ids", "too_many")


def test_single_choice_takes_at_most_one_default() -> None:
    payload = request(default_selection_ids=["pg", "my"])
    assert_error(the_error(payload), "default_selection_ids", "too_many")


def test_valid_defaults_are_kept_as_given() -> None:
    req = valid(request(selection_mode="multi", default_selection_ids=["my", "pg"]))
    assert req.default_selection_ids == ["my", "pg"]


# --- min / max -------------------------------------------------------------------------------


def test_min_above_max_is_inverted() -> None:
    payload = request(selection_mode="multi", min_selections=3, max_selections=2)
    assert_error(the_error(payload), "min_selections", "inverted")


def test_max_above_the_number_of_options_is_out_of_range() -> None:
    payload = request(selection_mode="multi", max_selections=4)
    assert_error(the_error(payload), "max_selections", "out_of_range")


def test_min_above_the_number_of_options_is_out_of_range() -> None:
    payload = request(selection_mode="multi", min_selections=4)
    assert_error(the_error(payload), "min_selections", "out_of_range")


def test_max_of_zero_is_out_of_range() -> None:
    payload = request(selection_mode="multi", min_selections=0, max_selections=0)
    assert_error(the_error(payload), "max_selections", "out_of_range")


@pytest.mark.parametrize("field", ["min_selections", "max_selections"])
def test_negative_bounds_are_out_of_range(field: str) -> None:
    assert_error(the_error(request(selection_mode="multi", **{field: -1})), field, "out_of_range")


def test_hybrid_min_above_its_default_max_of_one_is_inverted() -> None:
    payload = request(selection_mode="hybrid", min_selections=2)
    error = the_error(payload)
    assert_error(error, "min_selections", "inverted")
    assert "max_selections" in error.message


def test_multi_bounds_within_the_options_are_kept() -> None:
    req = valid(request(selection_mode="multi", min_selections=0, max_selections=3))
    assert (req.min_selections, req.max_selections) == (0, 3)


def test_multi_defaults_to_at_least_one_and_at_most_all_options() -> None:
    req = valid(request(selection_mode="multi"))
    assert (req.min_selections, req.max_selections) == (1, 3)


def test_single_forces_max_selections_to_one() -> None:
    req = valid(request())
    assert (req.min_selections, req.max_selections) == (1, 1)


def test_single_rejects_a_max_selections_other_than_one() -> None:
    assert_error(the_error(request(max_selections=2)), "max_selections", "out_of_range")


def test_single_rejects_a_min_selections_above_one() -> None:
    assert_error(the_error(request(min_selections=2)), "min_selections", "out_of_range")


def test_single_accepts_an_explicit_max_of_one_and_min_of_zero() -> None:
    req = valid(request(min_selections=0, max_selections=1))
    assert (req.min_selections, req.max_selections) == (0, 1)


@pytest.mark.parametrize("field", ["min_selections", "max_selections"])
def test_text_input_rejects_selection_bounds(field: str) -> None:
    payload = request(selection_mode="text_input", options=[], **{field: 1})
    assert_error(the_error(payload), field, "not_allowed")


# --- mode-specific flags ---------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["single", "multi"])
def test_placeholder_is_rejected_outside_text_input_and_hybrid(mode: str) -> None:
    payload = request(selection_mode=mode, placeholder="Type")
    assert_error(the_error(payload), "placeholder", "not_allowed")


def test_placeholder_is_accepted_for_hybrid() -> None:
    assert valid(request(selection_mode="hybrid", placeholder="Other")).placeholder == "Other"


def test_placeholder_is_accepted_for_text_input() -> None:
    payload = request(selection_mode="text_input", options=[], placeholder="Your answer")
    assert valid(payload).placeholder == "Your answer"


def test_single_submit_mode_is_rejected_for_multi() -> None:
    payload = request(selection_mode="multi", single_submit_mode=True)
    assert_error(the_error(payload), "single_submit_mode", "not_allowed")


def test_single_submit_mode_is_rejected_for_text_input() -> None:
    payload = request(selection_mode="text_input", options=[], single_submit_mode=True)
    assert_error(the_error(payload), "single_submit_mode", "not_allowed")


def test_single_submit_mode_is_rejected_for_hybrid_with_max_above_one() -> None:
    payload = request(selection_mode="hybrid", max_selections=2, single_submit_mode=True)
    assert_error(the_error(payload), "single_submit_mode", "not_allowed")


@pytest.mark.parametrize("mode", ["single", "hybrid"])
def test_single_submit_mode_is_accepted_for_one_pick_modes(mode: str) -> None:
    assert valid(request(selection_mode=mode, single_submit_mode=True)).single_submit_mode is True


def test_single_submit_mode_false_is_fine_for_any_mode() -> None:
    assert valid(request(selection_mode="multi", single_submit_mode=False)).single_submit_mode is False


# --- timeout ---------------------------------------------------------------------------------


def test_submit_defaults_on_timeout_needs_defaults() -> None:
    assert_error(the_error(request(on_timeout="submit_defaults")), "on_timeout", "needs_defaults")


def test_submit_defaults_on_timeout_needs_at_least_min_selections_defaults() -> None:
    payload = request(
        selection_mode="multi", min_selections=2, on_timeout="submit_defaults",
        default_selection_ids=["pg"],
    )
    assert_error(the_error(payload), "default_selection_ids", "too_few")


def test_submit_defaults_on_timeout_with_defaults_is_valid() -> None:
    req = valid(request(on_timeout="submit_defaults", default_selection_ids=["pg"]))
    assert req.on_timeout == "submit_defaults"


@pytest.mark.parametrize("seconds", [10, 86_400])
def test_timeout_bounds_are_inclusive(seconds: int) -> None:
    assert valid(request(timeout_seconds=seconds)).timeout_seconds == seconds


@pytest.mark.parametrize("seconds", [0, 9, 86_401])
def test_timeout_outside_10_to_86400_is_out_of_range(seconds: int) -> None:
    assert_error(the_error(request(timeout_seconds=seconds)), "timeout_seconds", "out_of_range")


def test_unknown_on_timeout_value_is_an_invalid_choice() -> None:
    error = the_error(request(on_timeout="retry"))
    assert (error.field, error.code) == ("on_timeout", "invalid_choice")
    assert "submit_defaults" in error.message


# --- unknown fields --------------------------------------------------------------------------


def test_unknown_top_level_field_is_rejected_with_the_accepted_ones() -> None:
    error = the_error(request(titel="typo"))
    assert_error(error, "titel", "unknown_field")
    assert "title" in error.message


def test_unknown_option_field_is_rejected() -> None:
    payload = request(options=[{"id": "a", "label": "A", "colour": "red"}])
    assert_error(the_error(payload), "options[0].colour", "unknown_field")


def test_unknown_context_field_is_rejected() -> None:
    assert_error(the_error(request(context={"agnt": "x"})), "context.agnt", "unknown_field")


# --- cancel is always available --------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [("allow_cancel", False), ("cancel_enabled", False), ("hide_cancel", True)],
)
def test_fields_that_disable_cancel_are_ignored_with_a_warning(field: str, value: bool) -> None:
    result = validate_request(request(**{field: value}))
    assert len(result.warnings) == 1
    assert field in result.warnings[0]
    assert "cancel" in result.warnings[0]


@pytest.mark.parametrize(
    ("field", "value"),
    [("allow_cancel", True), ("cancel_enabled", True), ("hide_cancel", False)],
)
def test_fields_that_keep_cancel_are_accepted_silently(field: str, value: bool) -> None:
    assert validate_request(request(**{field: value})).warnings == []


def test_all_cancel_disabling_fields_each_get_a_warning() -> None:
    payload = request(allow_cancel=False, cancel_enabled=False, hide_cancel=True)
    assert len(validate_request(payload).warnings) == 3


# --- every error at once, each actionable ----------------------------------------------------


def test_every_field_error_is_reported_at_once() -> None:
    payload = request(title="", prompt="", timeout_seconds=5, options=[{"id": "bad id", "label": ""}])
    fields = {error.field for error in errors_of(payload)}
    assert fields == {"title", "prompt", "timeout_seconds", "options[0].id", "options[0].label"}


def test_every_cross_field_rule_broken_is_reported_at_once() -> None:
    payload = request(
        title="  ", selection_mode="multi", placeholder="x", max_selections=9,
        default_selection_ids=["nope"], options=[{"id": "a", "label": "A"}, {"id": "a", "label": "B"}],
    )
    found = {(error.field, error.code) for error in errors_of(payload)}
    assert found == {
        ("title", "blank"), ("placeholder", "not_allowed"), ("max_selections", "out_of_range"),
        ("default_selection_ids[0]", "unknown_option"), ("options[1].id", "duplicate"),
    }


BROKEN_PAYLOADS = {
    "title missing": {"prompt": "p", "options": [{"id": "a", "label": "A"}]},
    "title empty": request(title=""),
    "title blank": request(title=" "),
    "title too long": request(title="t" * 201),
    "prompt blank": request(prompt=" "),
    "bad option id": request(options=[{"id": "a b", "label": "A"}]),
    "duplicate option id": request(options=[{"id": "a", "label": "A"}, {"id": "a", "label": "B"}]),
    "blank label": request(options=[{"id": "a", "label": " "}]),
    "no options": request(options=[]),
    "51 options": request(options=options(51)),
    "text_input with options": request(selection_mode="text_input"),
    "unknown mode": request(selection_mode="quiz"),
    "unknown default": request(default_selection_ids=["x"]),
    "repeated default": request(selection_mode="multi", default_selection_ids=["pg", "pg"]),
    "too many defaults": request(default_selection_ids=["pg", "my"]),
    "min above max": request(selection_mode="multi", min_selections=3, max_selections=2),
    "max above options": request(selection_mode="multi", max_selections=9),
    "min above options": request(selection_mode="multi", min_selections=9),
    "max zero": request(selection_mode="multi", max_selections=0),
    "hybrid min above default max": request(selection_mode="hybrid", min_selections=2),
    "single max 2": request(max_selections=2),
    "single min 2": request(min_selections=2),
    "text_input bounds": request(selection_mode="text_input", options=[], min_selections=1),
    "placeholder on single": request(placeholder="x"),
    "single submit on multi": request(selection_mode="multi", single_submit_mode=True),
    "submit_defaults without defaults": request(on_timeout="submit_defaults"),
    "submit_defaults below min": request(
        selection_mode="multi", min_selections=2, on_timeout="submit_defaults",
        default_selection_ids=["pg"],
    ),
    "timeout too short": request(timeout_seconds=1),
    "timeout not a number": request(timeout_seconds="soon"),
    "flag not a bool": request(require_confirmation="maybe"),
    "options not a list": request(options="pg"),
    "option not an object": request(options=[1]),
    "context not an object": request(context="me"),
    "unknown field": request(extra=1),
}


@pytest.mark.parametrize("payload", BROKEN_PAYLOADS.values(), ids=BROKEN_PAYLOADS.keys())
def test_every_error_message_says_how_to_fix_it(payload: dict[str, Any]) -> None:
    for error in errors_of(payload):
        assert error.field and error.code
        assert says_how_to_fix(error.message), error


def test_an_empty_title_does_not_hide_impossible_bounds() -> None:
    payload = request(title="", selection_mode="multi", min_selections=3,
                      options=[{"id": "a", "label": "A"}, {"id": "b", "label": "B"}])
    found = {(error.field, error.code) for error in errors_of(payload)}
    assert found == {("title", "too_short"), ("min_selections", "out_of_range")}


def test_a_label_too_long_does_not_hide_the_bounds_and_defaults() -> None:
    payload = request(selection_mode="multi", max_selections=5, default_selection_ids=["zz"],
                      options=[{"id": "a", "label": "A" * 201}, {"id": "b", "label": "B"}])
    found = {(error.field, error.code) for error in errors_of(payload)}
    assert found == {("options[0].label", "too_long"), ("max_selections", "out_of_range"),
                     ("default_selection_ids[0]", "unknown_option")}


@pytest.mark.parametrize(("payload", "reported"), [
    (request(options=[{"id": "a b", "label": "A"}], default_selection_ids=["a b"]),
     {"options[0].id"}),
    (request(selection_mode="quiz", placeholder="x", max_selections=2), {"selection_mode"}),
    (request(default_selection_ids="pg", on_timeout="submit_defaults"),
     {"default_selection_ids"}),
    (request(questions=[], prompt=None), {"questions"}),
])
def test_a_rule_reading_a_refused_field_stays_quiet(payload: dict[str, Any],
                                                     reported: set[str]) -> None:
    """The rule would judge a stand-in, not what the caller sent: an unknown default that
    names the refused option, a placeholder on a mode that is not known, a missing prompt
    on a request that meant to send `questions`."""
    assert {error.field for error in errors_of(payload)} == reported


def test_checking_the_rules_despite_errors_leaves_the_payload_as_sent() -> None:
    payload = request(title="", options=[{"id": "a", "label": " " * 201, "colour": "red"}])
    sent = copy.deepcopy(payload)
    errors_of(payload)
    assert payload == sent


@pytest.mark.parametrize("where", ["context", "options", "extra"])
def test_a_hostile_nesting_gets_field_errors_not_a_crash(where: str) -> None:
    deep = json.loads("[" * 600 + "]" * 600)  # a deep copy of it overflowed the stack
    fields = {error.field for error in errors_of(request(title="", **{where: deep}))}
    assert "title" in fields and len(fields) == 2


UNRELATED = {"title empty": {"title": ""}, "timeout too short": {"timeout_seconds": 5},
             "unknown field": {"colour": "blue"}, "context not an object": {"context": "me"}}


# Each broken payload with each unrelated mistake, unless the mistake is in a field the
# payload already gets an error for (then they are not unrelated).
UNRELATED_PAIRS = [
    pytest.param(payload, unrelated, id=f"{name}-{other}")
    for name, payload in BROKEN_PAYLOADS.items() for other, unrelated in UNRELATED.items()
    if not set(unrelated) & {error.field for error in errors_of(payload)}]


@pytest.mark.parametrize(("payload", "unrelated"), UNRELATED_PAIRS)
def test_a_refused_field_hides_none_of_the_other_problems(
        payload: dict[str, Any], unrelated: dict[str, Any]) -> None:
    """Every problem in one reply: what a request gets alone, plus what the unrelated
    mistake gets alone, never less and never more."""
    alone = {(e.field, e.code) for e in errors_of(payload)}
    other = {(e.field, e.code) for e in errors_of(request(**unrelated))}
    together = {(e.field, e.code) for e in errors_of({**payload, **unrelated})}
    assert together == alone | other


# --- knobs filled from preferences -----------------------------------------------------------


def test_unset_timeout_comes_from_preferences() -> None:
    assert valid(request(), Preferences(timeout_seconds=42)).timeout_seconds == 42


def test_unset_timeout_defaults_to_300_without_preferences() -> None:
    assert valid(request()).timeout_seconds == 300


def test_explicit_timeout_wins_over_preferences() -> None:
    assert valid(request(timeout_seconds=60), Preferences(timeout_seconds=42)).timeout_seconds == 60


def test_interface_auto_becomes_the_preferred_interface() -> None:
    assert valid(request(interface="auto"), Preferences(interface="terminal")).interface == "terminal"


def test_explicit_interface_wins_over_preferences() -> None:
    assert valid(request(interface="web"), Preferences(interface="terminal")).interface == "web"


def test_unset_allow_annotations_comes_from_preferences() -> None:
    assert valid(request(), Preferences(allow_annotations=False)).allow_annotations is False
    assert valid(request()).allow_annotations is True


def test_explicit_allow_annotations_wins_over_preferences() -> None:
    payload = request(allow_annotations=True)
    assert valid(payload, Preferences(allow_annotations=False)).allow_annotations is True


@pytest.mark.parametrize("mode", ["single", "hybrid"])
def test_preferred_single_submit_applies_to_one_pick_modes(mode: str) -> None:
    req = valid(request(selection_mode=mode), Preferences(single_submit=True))
    assert req.single_submit_mode is True


def test_preferred_single_submit_does_not_apply_to_multi() -> None:
    req = valid(request(selection_mode="multi"), Preferences(single_submit=True))
    assert req.single_submit_mode is False


def test_preferred_single_submit_does_not_apply_to_hybrid_with_several_picks() -> None:
    req = valid(request(selection_mode="hybrid", max_selections=2), Preferences(single_submit=True))
    assert req.single_submit_mode is False


def test_preferred_single_submit_does_not_apply_to_text_input() -> None:
    req = valid(request(selection_mode="text_input", options=[]), Preferences(single_submit=True))
    assert req.single_submit_mode is False


def test_explicit_single_submit_false_wins_over_preferences() -> None:
    req = valid(request(single_submit_mode=False), Preferences(single_submit=True))
    assert req.single_submit_mode is False


def test_single_submit_is_off_by_default() -> None:
    assert valid(request()).single_submit_mode is False


def test_hybrid_defaults_to_zero_or_one_pick() -> None:
    req = valid(request(selection_mode="hybrid"))
    assert (req.min_selections, req.max_selections) == (0, 1)


def test_a_validated_request_has_every_knob_decided() -> None:
    req = valid(request(selection_mode="multi"))
    decided = ("min_selections", "max_selections", "single_submit_mode", "allow_annotations",
               "timeout_seconds")
    assert all(getattr(req, name) is not None for name in decided)
    assert req.interface in ("web", "terminal")
