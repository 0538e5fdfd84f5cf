"""choice/contract/normalize.py: a submission, a cancel or a timeout -> the normalized result."""

from __future__ import annotations

from typing import Any

import pytest

from choice.contract import ChoiceRequest, ChoiceResult, FieldError, Status, Submission
from choice.contract.field_errors import InvalidInput
from choice.contract.normalize import (
    Completion,
    cancelled_result,
    normalize_submission,
    timeout_defaults_result,
    timeout_result,
)
from choice.contract.validation import validate_request

DONE = Completion(
    interaction_id="i-1", interface="web", created_at=1_700_000_000.0,
    completed_at=1_700_000_042.5, placeholder_shown=False,
)


def request(**fields: Any) -> ChoiceRequest:
    """A validated multi-choice request over options a, b, c, d; keyword arguments override it."""
    payload: dict[str, Any] = {
        "title": "Which checks should run?",
        "prompt": "CI is slow; pick the checks to keep.",
        "selection_mode": "multi",
        "options": [
            {"id": "a", "label": "Lint"},
            {"id": "b", "label": "Types"},
            {"id": "c", "label": "Unit tests"},
            {"id": "d", "label": "Browser tests"},
        ],
    }
    payload.update(fields)
    return validate_request(payload).request


def submit(req: ChoiceRequest, **answer: Any) -> tuple[ChoiceResult, Status]:
    return normalize_submission(req, Submission(**answer), DONE)


def result_of(req: ChoiceRequest, **answer: Any) -> ChoiceResult:
    return submit(req, **answer)[0]


def errors_of(req: ChoiceRequest, **answer: Any) -> list[FieldError]:
    with pytest.raises(InvalidInput) as caught:
        submit(req, **answer)
    return caught.value.errors


def codes_of(req: ChoiceRequest, **answer: Any) -> set[tuple[str, str]]:
    return {(error.field, error.code) for error in errors_of(req, **answer)}


# --- selections ------------------------------------------------------------------------------


def test_selected_ids_come_back_in_option_order_whatever_the_submitted_order() -> None:
    result = result_of(request(), selected_ids=["d", "a", "c"])
    assert result.selected_ids == ["a", "c", "d"]
    assert result.selected_labels == ["Lint", "Unit tests", "Browser tests"]


def test_a_selection_is_a_selected_manual_submission() -> None:
    result, status = submit(request(), selected_ids=["b"])
    assert (result.action_status, result.submission, status) == ("selected", "manual", "submitted")


def test_duplicate_selected_ids_are_collapsed() -> None:
    assert result_of(request(), selected_ids=["b", "b", "a", "b"]).selected_ids == ["a", "b"]


def test_an_unknown_selected_id_is_rejected_at_its_position() -> None:
    errors = errors_of(request(), selected_ids=["a", "zzz"])
    assert [(e.field, e.code) for e in errors] == [("selected_ids[1]", "unknown_option")]
    assert "a, b, c, d" in errors[0].message


def test_an_unknown_id_is_not_also_counted_as_too_few() -> None:
    assert codes_of(request(selection_mode="single"), selected_ids=["zzz"]) == {
        ("selected_ids[0]", "unknown_option")}
    assert codes_of(request(min_selections=2), selected_ids=["a", "zzz"]) == {
        ("selected_ids[1]", "unknown_option")}


def test_a_count_still_wrong_once_the_ids_are_fixed_is_reported_with_them() -> None:
    errors = errors_of(request(min_selections=3), selected_ids=["a", "zzz"])
    assert [(e.field, e.code) for e in errors] == [("selected_ids[1]", "unknown_option"),
                                                   ("selected_ids", "too_few")]
    assert errors[1].message.startswith("2 selected: choose at least 3 options")


def test_more_picks_than_max_selections_are_too_many() -> None:
    assert codes_of(request(max_selections=2), selected_ids=["a", "b", "c"]) == {
        ("selected_ids", "too_many"),
    }


def test_fewer_picks_than_min_selections_are_too_few() -> None:
    assert codes_of(request(min_selections=2), selected_ids=["a"]) == {("selected_ids", "too_few")}


def test_duplicates_do_not_count_twice_towards_min_selections() -> None:
    assert codes_of(request(min_selections=2), selected_ids=["a", "a"]) == {("selected_ids", "too_few")}


def test_single_choice_rejects_two_picks() -> None:
    assert codes_of(request(selection_mode="single"), selected_ids=["a", "b"]) == {
        ("selected_ids", "too_many"),
    }


def test_an_empty_selection_is_allowed_when_min_selections_is_zero() -> None:
    result = result_of(request(min_selections=0), selected_ids=[])
    assert (result.action_status, result.selected_ids, result.custom_input) == ("selected", [], None)
    assert result.summary


# --- defaults --------------------------------------------------------------------------------


def test_omitted_selected_ids_return_the_defaults_in_option_order() -> None:
    result = result_of(request(default_selection_ids=["c", "a"]))
    assert result.selected_ids == ["a", "c"]
    assert result.defaults_used is True


def test_changed_selection_does_not_count_as_defaults_used() -> None:
    result = result_of(request(default_selection_ids=["c"]), selected_ids=["b"])
    assert result.defaults_used is False


def test_omitted_selected_ids_without_defaults_are_too_few() -> None:
    assert codes_of(request()) == {("selected_ids", "too_few")}


# --- text_input / hybrid / custom input ------------------------------------------------------


def text_request(**fields: Any) -> ChoiceRequest:
    return request(selection_mode="text_input", options=[], **fields)


def test_text_input_returns_the_typed_answer() -> None:
    result = result_of(text_request(), custom_input="Use Redis")
    assert (result.action_status, result.custom_input, result.selected_ids) == (
        "custom_input", "Use Redis", [],
    )


@pytest.mark.parametrize("text", [None, "", "   \n"])
def test_text_input_needs_a_typed_answer(text: str | None) -> None:
    assert codes_of(text_request(), custom_input=text) == {("custom_input", "required")}


def test_text_input_rejects_selected_ids() -> None:
    assert ("selected_ids", "not_allowed") in codes_of(
        text_request(), selected_ids=["a"], custom_input="x"
    )


def test_text_input_accepts_an_empty_selected_ids_list() -> None:
    assert result_of(text_request(), selected_ids=[], custom_input="x").custom_input == "x"


def test_hybrid_accepts_typed_text_without_a_pick() -> None:
    result = result_of(request(selection_mode="hybrid"), selected_ids=[], custom_input="Something else")
    assert (result.action_status, result.custom_input) == ("custom_input", "Something else")


def test_hybrid_accepts_a_pick_and_text_together() -> None:
    result = result_of(request(selection_mode="hybrid"), selected_ids=["a"], custom_input="and more")
    assert (result.action_status, result.selected_ids, result.custom_input) == (
        "selected", ["a"], "and more",
    )


def test_hybrid_without_a_pick_or_text_is_too_few_and_mentions_typing() -> None:
    errors = errors_of(request(selection_mode="hybrid"), selected_ids=[], custom_input="  ")
    assert [(e.field, e.code) for e in errors] == [("selected_ids", "too_few")]
    assert "custom_input" in errors[0].message


@pytest.mark.parametrize("mode", ["single", "multi"])
def test_custom_input_is_not_allowed_for_option_only_modes(mode: str) -> None:
    errors = errors_of(request(selection_mode=mode), selected_ids=["a"], custom_input="other")
    assert [(e.field, e.code) for e in errors] == [("custom_input", "not_allowed")]


def test_whitespace_custom_input_is_no_custom_input() -> None:
    result = result_of(request(), selected_ids=["a"], custom_input="  \t")
    assert result.custom_input is None


# --- annotations -----------------------------------------------------------------------------


def test_notes_on_options_and_a_global_note_are_returned() -> None:
    result = result_of(
        request(), selected_ids=["a"], option_annotations={"a": "fast"}, global_annotation="ok"
    )
    assert (result.option_annotations, result.global_annotation) == ({"a": "fast"}, "ok")


def test_empty_and_whitespace_notes_are_no_notes() -> None:
    result = result_of(
        request(), selected_ids=["a"], option_annotations={"a": "", "b": "  \n"}, global_annotation=" "
    )
    assert (result.option_annotations, result.global_annotation) == ({}, None)


def test_a_note_on_an_unknown_option_is_rejected() -> None:
    errors = errors_of(request(), selected_ids=["a"], option_annotations={"zz": "why"})
    assert [(e.field, e.code) for e in errors] == [("option_annotations.zz", "unknown_option")]


def test_option_notes_are_rejected_when_annotations_are_off() -> None:
    req = request(allow_annotations=False)
    errors = errors_of(req, selected_ids=["a"], option_annotations={"a": "note"})
    assert [(e.field, e.code) for e in errors] == [("option_annotations", "annotations_off")]


def test_a_global_note_is_rejected_when_annotations_are_off() -> None:
    errors = errors_of(request(allow_annotations=False), selected_ids=["a"], global_annotation="n")
    assert [(e.field, e.code) for e in errors] == [("global_annotation", "annotations_off")]


def test_blank_notes_are_fine_when_annotations_are_off() -> None:
    result = result_of(
        request(allow_annotations=False), selected_ids=["a"],
        option_annotations={"a": " "}, global_annotation="",
    )
    assert result.option_annotations == {}


# --- confirmation and submission kind --------------------------------------------------------


@pytest.mark.parametrize("confirmed", [None, False])
def test_required_confirmation_must_be_true(confirmed: bool | None) -> None:
    errors = errors_of(request(require_confirmation=True), selected_ids=["a"], confirmed=confirmed)
    assert [(e.field, e.code) for e in errors] == [("confirmed", "confirmation_required")]


def test_a_confirmed_answer_says_confirmed_true() -> None:
    result = result_of(request(require_confirmation=True), selected_ids=["a"], confirmed=True)
    assert result.confirmed is True


@pytest.mark.parametrize("confirmed", [None, True, False])
def test_confirmed_is_none_when_confirmation_was_not_required(confirmed: bool | None) -> None:
    assert result_of(request(), selected_ids=["a"], confirmed=confirmed).confirmed is None


def test_auto_submission_needs_single_submit_mode() -> None:
    errors = errors_of(request(selection_mode="single"), selected_ids=["a"], submission="auto")
    assert [(e.field, e.code) for e in errors] == [("submission", "not_allowed")]


def test_auto_submission_in_single_submit_mode_is_auto_submitted() -> None:
    req = request(selection_mode="single", single_submit_mode=True)
    result, status = submit(req, selected_ids=["b"], submission="auto")
    assert (result.submission, status) == ("auto", "auto_submitted")


def test_every_broken_rule_of_a_submission_is_reported_at_once() -> None:
    req = request(require_confirmation=True, allow_annotations=False, max_selections=1)
    found = codes_of(
        req, selected_ids=["a", "b", "nope"], option_annotations={"a": "x"}, submission="auto"
    )
    assert found == {
        ("selected_ids[2]", "unknown_option"), ("selected_ids", "too_many"),
        ("option_annotations", "annotations_off"), ("confirmed", "confirmation_required"),
        ("submission", "not_allowed"),
    }


def test_the_completion_is_carried_into_the_result() -> None:
    result = result_of(request(), selected_ids=["a"])
    assert (result.interaction_id, result.interface, result.placeholder_shown) == ("i-1", "web", False)
    assert result.created_at == "2023-11-14T22:13:20.000Z"
    assert result.completed_at == "2023-11-14T22:14:02.500Z"


# --- endings without an answer ---------------------------------------------------------------


def test_a_cancelled_result_carries_no_selection_even_with_defaults() -> None:
    result = cancelled_result(request(default_selection_ids=["a"]), DONE, None)
    assert (result.action_status, result.selected_ids, result.selected_labels) == ("cancelled", [], [])
    assert (result.submission, result.defaults_used, result.confirmed) == (None, False, None)


def test_a_cancelled_result_keeps_the_note_and_quotes_it_in_the_summary() -> None:
    result = cancelled_result(request(), DONE, "not now")
    assert result.global_annotation == "not now"
    assert '"not now"' in result.summary


def test_a_blank_cancel_note_is_no_note() -> None:
    assert cancelled_result(request(), DONE, "   ").global_annotation is None


def test_a_cancel_by_timeout_is_cancelled_and_says_so() -> None:
    result = cancelled_result(request(), DONE, None, by_timeout=True)
    assert result.action_status == "cancelled"
    assert "deadline" in result.summary


def test_a_timeout_result_carries_no_selection_even_with_defaults() -> None:
    result = timeout_result(request(default_selection_ids=["a"]), DONE)
    assert (result.action_status, result.selected_ids, result.submission) == ("timeout", [], None)
    assert result.defaults_used is False


def test_endings_without_answer_say_confirmed_false_when_confirmation_was_required() -> None:
    req = request(require_confirmation=True)
    assert cancelled_result(req, DONE, None).confirmed is False
    assert timeout_result(req, DONE).confirmed is False


def test_a_timeout_with_submit_defaults_carries_the_defaults_in_option_order() -> None:
    req = request(default_selection_ids=["c", "a"], on_timeout="submit_defaults")
    result = timeout_defaults_result(req, DONE)
    assert (result.action_status, result.selected_ids, result.selected_labels) == (
        "selected", ["a", "c"], ["Lint", "Unit tests"],
    )
    assert (result.submission, result.defaults_used) == ("timeout_default", True)
    assert "(a)" in result.summary and "(c)" in result.summary


# --- summary ---------------------------------------------------------------------------------


def test_summary_names_the_choices() -> None:
    summary = result_of(request(), selected_ids=["b"]).summary
    assert '"Types" (b)' in summary


def test_summary_is_one_line_even_with_multiline_input() -> None:
    req = request(options=[{"id": "a", "label": "Line one\nline two"}], selection_mode="hybrid")
    result = result_of(
        req, selected_ids=["a"], custom_input="first\nsecond\r\nthird",
        option_annotations={"a": "x\ny"}, global_annotation="p\n\nq",
    )
    assert "\n" not in result.summary and "\r" not in result.summary


def test_summary_is_bounded_with_10k_character_input() -> None:
    huge = "word " * 2_000
    result = result_of(
        request(selection_mode="hybrid"), selected_ids=["a"], custom_input=huge,
        option_annotations={"a": huge[:5_000]}, global_annotation=huge[:5_000],
    )
    assert len(result.summary) < 600
    assert "\n" not in result.summary


def test_cancel_summary_is_one_bounded_line_with_a_10k_character_note() -> None:
    summary = cancelled_result(request(), DONE, "line\n" * 2_000).summary
    assert "\n" not in summary
    assert len(summary) < 400


def test_timeout_defaults_summary_is_one_line_with_multiline_labels() -> None:
    req = request(
        options=[{"id": "a", "label": "L" * 150 + "\n" + "M" * 49}],
        default_selection_ids=["a"], on_timeout="submit_defaults",
    )
    summary = timeout_defaults_result(req, DONE).summary
    assert "\n" not in summary
    assert len(summary) < 200
