"""choice/contract/compat.py: the hitl_request and request_user_choice shapes, mapped onto our
request."""

from __future__ import annotations

from typing import Any

import pytest

from choice.contract import TITLE_MAX, ChoiceRequest, FieldError, Preferences
from choice.contract.compat import FREE_TEXT_FIELDS, derive_title, detect_shape, parse_request
from choice.contract.field_errors import InvalidInput


def hitl(**fields: Any) -> dict[str, Any]:
    """A valid hitl_request payload; keyword arguments override it."""
    payload: dict[str, Any] = {"question": "Deploy to production now?", "options": ["Yes", "No"]}
    payload.update(fields)
    return payload


def user_choice(**fields: Any) -> dict[str, Any]:
    """A valid request_user_choice payload; keyword arguments override it."""
    payload: dict[str, Any] = {
        "question": "Which layout do you prefer?",
        "options": [
            {"title": "Grid", "description": "Cards in rows"},
            {"title": "List", "isRecommended": True},
        ],
    }
    payload.update(fields)
    return payload


def mapped(payload: Any, **kwargs: Any) -> ChoiceRequest:
    return parse_request(payload, **kwargs).request


def errors_of(payload: Any, **kwargs: Any) -> list[FieldError]:
    with pytest.raises(InvalidInput) as caught:
        parse_request(payload, **kwargs)
    return caught.value.errors


def fields_of(payload: Any, **kwargs: Any) -> set[str]:
    return {error.field for error in errors_of(payload, **kwargs)}


# --- detect_shape ----------------------------------------------------------------------------


def test_a_payload_with_prompt_is_provide_choice() -> None:
    assert detect_shape({"title": "t", "prompt": "p", "options": []}) == "provide_choice"


def test_question_with_prompt_is_still_provide_choice() -> None:
    assert detect_shape({"question": "q", "prompt": "p"}) == "provide_choice"


def test_question_with_string_options_is_hitl_request() -> None:
    assert detect_shape(hitl()) == "hitl_request"


def test_question_with_label_objects_is_hitl_request() -> None:
    assert detect_shape(hitl(options=[{"label": "Yes"}])) == "hitl_request"


def test_question_with_titled_options_is_request_user_choice() -> None:
    assert detect_shape(user_choice()) == "request_user_choice"


def test_an_is_recommended_flag_alone_marks_request_user_choice() -> None:
    assert detect_shape({"question": "q", "options": [{"isRecommended": True}]}) == "request_user_choice"


@pytest.mark.parametrize("payload", [None, [], "question", 3])
def test_anything_but_an_object_is_left_to_provide_choice(payload: Any) -> None:
    assert detect_shape(payload) == "provide_choice"


# --- hitl_request ----------------------------------------------------------------------------


def test_hitl_string_options_get_ids_by_position() -> None:
    req = mapped(hitl())
    assert [(o.id, o.label) for o in req.options] == [("1", "Yes"), ("2", "No")]


def test_hitl_object_options_keep_their_id_label_and_description() -> None:
    options = [{"id": "go", "label": "Go", "description": "Ship it"}, {"label": "Wait"}]
    req = mapped(hitl(options=options))
    assert [(o.id, o.label, o.description) for o in req.options] == [
        ("go", "Go", "Ship it"), ("2", "Wait", None),
    ]


def test_hitl_is_a_single_choice_with_the_question_as_prompt() -> None:
    req = mapped(hitl())
    assert req.selection_mode == "single"
    assert req.prompt == "Deploy to production now?"
    assert req.placeholder is None


def test_hitl_confirm_becomes_require_confirmation() -> None:
    assert mapped(hitl(confirm=True)).require_confirmation is True
    assert mapped(hitl()).require_confirmation is False


def test_hitl_title_is_the_first_line_of_the_question() -> None:
    assert mapped(hitl(question="\n  Deploy   now?  \nDetails follow.")).title == "Deploy now?"


def test_hitl_explicit_title_wins_over_the_question() -> None:
    assert mapped(hitl(title="Deploy")).title == "Deploy"


def test_hitl_title_from_a_long_question_is_cut_to_the_title_limit() -> None:
    title = mapped(hitl(question="x" * 1000)).title
    assert len(title) == TITLE_MAX
    assert title.endswith("…")


def test_derive_title_keeps_a_short_first_line_whole() -> None:
    assert derive_title("Short one\nsecond line") == "Short one"


def test_hitl_passes_timeout_and_interface_through() -> None:
    req = mapped(hitl(timeout_seconds=60, interface="terminal", on_timeout="cancel"))
    assert (req.timeout_seconds, req.interface, req.on_timeout) == (60, "terminal", "cancel")


def test_hitl_knobs_are_resolved_from_preferences() -> None:
    req = mapped(hitl(), preferences=Preferences(timeout_seconds=99, interface="terminal"))
    assert (req.timeout_seconds, req.interface) == (99, "terminal")


@pytest.mark.parametrize("field", FREE_TEXT_FIELDS)
def test_hitl_rejects_each_free_text_field(field: str) -> None:
    errors = errors_of(hitl(**{field: "Type here"}))
    assert [(e.field, e.code) for e in errors] == [(field, "free_text_not_allowed")]
    assert "options-only" in errors[0].message
    assert "provide_choice" in errors[0].message


@pytest.mark.parametrize("mode", ["text_input", "hybrid"])
def test_hitl_rejects_a_free_text_selection_mode(mode: str) -> None:
    errors = errors_of(hitl(selection_mode=mode))
    assert [(e.field, e.code) for e in errors] == [("selection_mode", "free_text_not_allowed")]


def test_hitl_reports_every_free_text_field_at_once() -> None:
    assert fields_of(hitl(placeholder="x", allow_other=True)) == {"placeholder", "allow_other"}


def test_hitl_rejects_unknown_fields() -> None:
    errors = errors_of(hitl(colour="red"))
    assert [(e.field, e.code) for e in errors] == [("colour", "unknown_field")]


def test_hitl_cancel_disabling_fields_are_ignored_with_a_warning() -> None:
    result = parse_request(hitl(hide_cancel=True))
    assert len(result.warnings) == 1
    assert "hide_cancel" in result.warnings[0]


# --- request_user_choice ---------------------------------------------------------------------


def test_user_choice_maps_title_description_and_is_recommended() -> None:
    req = mapped(user_choice())
    assert [(o.id, o.label, o.description, o.recommended) for o in req.options] == [
        ("1", "Grid", "Cards in rows", False), ("2", "List", None, True),
    ]


def test_user_choice_becomes_hybrid_so_free_text_stays_possible() -> None:
    req = mapped(user_choice())
    assert req.selection_mode == "hybrid"
    assert req.prompt == "Which layout do you prefer?"
    assert req.title == "Which layout do you prefer?"


def test_user_choice_explicit_title_wins() -> None:
    assert mapped(user_choice(title="Layout")).title == "Layout"


# --- errors in the caller's vocabulary -------------------------------------------------------


def test_user_choice_option_title_errors_name_the_title_field() -> None:
    errors = errors_of(user_choice(options=[{"title": "   "}]))
    assert [(e.field, e.code) for e in errors] == [("options[0].title", "blank")]


def test_user_choice_empty_option_title_names_the_title_field_in_the_message() -> None:
    errors = errors_of(user_choice(options=[{"title": ""}]))
    assert [(e.field, e.code) for e in errors] == [("options[0].title", "too_short")]
    assert "options[0].title" in errors[0].message
    assert "label" not in errors[0].message


def test_user_choice_too_long_option_title_names_the_title_field() -> None:
    errors = errors_of(user_choice(options=[{"title": "t" * 201}]))
    assert [(e.field, e.code) for e in errors] == [("options[0].title", "too_long")]


def test_blank_question_is_reported_as_question_not_prompt_or_title() -> None:
    for payload in (hitl(question="   "), user_choice(question="   "), hitl(question="")):
        errors = errors_of(payload)
        assert {e.field for e in errors} == {"question"}, errors
        assert all("prompt" not in e.message and "title" not in e.message for e in errors)


def test_blank_question_under_an_explicit_title_is_still_question() -> None:
    errors = errors_of(hitl(title="Deploy", question=" "))
    assert [(e.field, e.code) for e in errors] == [("question", "blank")]


def test_a_bad_explicit_title_is_reported_as_title() -> None:
    errors = errors_of(hitl(title="t" * 201))
    assert [(e.field, e.code) for e in errors] == [("title", "too_long")]


def test_hitl_blank_string_option_is_reported_at_the_option() -> None:
    errors = errors_of(hitl(options=["Yes", "  "]))
    assert [(e.field, e.code) for e in errors] == [("options[1]", "blank")]


def test_hitl_object_option_errors_name_its_fields_without_internal_type_names() -> None:
    errors = errors_of(hitl(options=["Yes", {"label": 3}]))
    assert [(e.field, e.code) for e in errors] == [("options[1].label", "invalid_type")]


def test_hitl_option_that_is_neither_string_nor_object_gets_one_error() -> None:
    errors = errors_of(hitl(options=["Yes", 7]))
    assert [(e.field, e.code) for e in errors] == [("options[1]", "invalid_type")]
    assert "string" in errors[0].message
    assert "object" in errors[0].message


def test_hitl_without_options_reports_options() -> None:
    errors = errors_of(hitl(options=[]))
    assert [(e.field, e.code) for e in errors] == [("options", "required")]


def test_hitl_without_a_question_requires_one() -> None:
    errors = errors_of({"options": ["Yes"]}, shape="hitl_request")
    assert [(e.field, e.code) for e in errors] == [("question", "required")]


# --- explicit shape --------------------------------------------------------------------------


def test_explicit_provide_choice_shape_rejects_a_hitl_payload() -> None:
    assert fields_of(hitl(), shape="provide_choice") >= {"question", "title", "prompt"}


def test_explicit_hitl_shape_rejects_titled_options() -> None:
    errors = errors_of(user_choice(), shape="hitl_request")
    assert ("options[0].title", "unknown_field") in {(e.field, e.code) for e in errors}


def test_explicit_user_choice_shape_reads_options_as_titled() -> None:
    errors = errors_of(hitl(options=[{"title": "A", "label": "B"}]), shape="request_user_choice")
    assert [(e.field, e.code) for e in errors] == [("options[0].label", "unknown_field")]


def test_explicit_shape_maps_a_payload_detection_would_read_differently() -> None:
    payload = {"question": "Pick one", "options": [{"title": "A"}]}
    assert detect_shape(payload) == "request_user_choice"
    assert mapped(payload, shape="request_user_choice").selection_mode == "hybrid"
    with pytest.raises(InvalidInput):
        parse_request(payload, shape="hitl_request")


def test_a_body_that_is_not_an_object_is_a_body_error_for_every_shape() -> None:
    for shape in ("provide_choice", "hitl_request", "request_user_choice"):
        errors = errors_of(["q"], shape=shape)
        assert [(e.field, e.code) for e in errors] == [("body", "invalid_type")]


def test_provide_choice_payloads_go_through_unchanged() -> None:
    payload = {"title": "T", "prompt": "P", "options": [{"id": "a", "label": "A"}]}
    assert mapped(payload).options[0].id == "a"
