"""Claude Code's AskUserQuestion shape (docs/internals.md#claude-codes-askuserquestion):
detected, mapped onto several hybrid questions with " (Recommended)" read as a mark, refused
in its own words, and answered back as question text -> label(s)."""

from __future__ import annotations

from typing import Any

import pytest

from choice.contract import Submission
from choice.contract.ask_user_question import answered_line
from choice.contract.compat import detect_shape, parse_request
from choice.contract.field_errors import InvalidInput
from choice.contract.normalize import Completion, normalize_submission, shape_fields

DONE = Completion(interaction_id="i-1", interface="web", created_at=1_700_000_000.0,
                  completed_at=1_700_000_030.0, placeholder_shown=False)


def ask() -> dict[str, Any]:
    return {"questions": [
        {"question": "Which database should we use?", "header": "Database",
         "options": [{"label": "PostgreSQL (Recommended)", "description": "Relational"},
                     {"label": "MongoDB", "description": "Documents"}],
         "multiSelect": False},
        {"question": "Which features should we enable?", "header": "Features",
         "options": [{"label": "Authentication", "description": "Logins"},
                     {"label": "Logging", "description": "Requests"},
                     {"label": "Metrics", "description": "Counters"}],
         "multiSelect": True},
    ]}


def test_it_is_detected_by_questions_that_carry_question() -> None:
    assert detect_shape(ask()) == "ask_user_question"
    assert detect_shape({"title": "t", "questions": [{"id": "a", "prompt": "?"}]}) \
        == "provide_choice"


def test_it_maps_onto_hybrid_questions_with_the_recommendation_read_from_the_label() -> None:
    request = parse_request(ask()).request
    assert request.shape == "ask_user_question" and request.title == "Database · Features"
    database, features = request.asked()
    assert (database.id, database.header, database.prompt) == (
        "q1", "Database", "Which database should we use?")
    assert [(o.id, o.label, o.recommended) for o in database.options] == [
        ("1", "PostgreSQL", True), ("2", "MongoDB", False)]
    assert database.selection_mode == features.selection_mode == "hybrid"  # "Other" is implicit
    assert (database.max_selections, features.max_selections) == (1, 3)


def test_errors_use_the_callers_words() -> None:
    broken = ask()
    broken["questions"][0]["question"] = ""
    broken["questions"][1]["header"] = "Far too long a header"
    with pytest.raises(InvalidInput) as raised:
        parse_request(broken)
    assert {e.field for e in raised.value.errors} == {"questions[0].question",
                                                      "questions[1].header"}
    with pytest.raises(InvalidInput) as raised:
        parse_request({"questions": [{"question": "?", "header": "h", "options": [],
                                      "multiSelected": True}]})
    assert "questions[0].multiSelected" in {e.field for e in raised.value.errors}


def test_answers_come_back_as_question_text_to_labels_and_other_text() -> None:
    request = parse_request(ask()).request
    result, _ = normalize_submission(request, Submission.model_validate({"answers": {
        "q1": {"custom_input": "SQLite, honestly"},
        "q2": {"selected_ids": ["3", "1"], "custom_input": "tracing"}}}), DONE)
    shaped = shape_fields(request, result).answers_by_question
    assert shaped == {"Which database should we use?": "SQLite, honestly",
                      "Which features should we enable?": "Authentication, Metrics, tracing"}
    assert answered_line(shaped).startswith(
        'User has answered your questions: "Which database should we use?"="SQLite, honestly"')


def test_a_recommended_label_comes_back_exactly_as_the_model_wrote_it() -> None:
    """The page shows "PostgreSQL" with its Recommended mark; the answer carries the label
    the model gave, suffix and all, and a label merely like the mark stays as written."""
    asked = ask()
    asked["questions"][1]["options"][0]["label"] = "Authentication (recommended)"
    asked["questions"][1]["options"][1]["label"] = "Logging (Recommended) (Recommended)"
    request = parse_request(asked).request
    features = request.asked()[1]
    assert [(o.label, o.recommended) for o in features.options] == [
        ("Authentication (recommended)", False), ("Logging (Recommended)", True),
        ("Metrics", False)]
    result, _ = normalize_submission(request, Submission.model_validate({"answers": {
        "q1": {"selected_ids": ["1"]}, "q2": {"selected_ids": ["1", "2"]}}}), DONE)
    assert shape_fields(request, result).answers_by_question == {
        "Which database should we use?": "PostgreSQL (Recommended)",
        "Which features should we enable?":
            "Authentication (recommended), Logging (Recommended) (Recommended)"}


def test_a_label_that_is_only_the_mark_stays_a_label() -> None:
    asked = ask()
    asked["questions"][0]["options"][1]["label"] = " (Recommended)"
    option = parse_request(asked).request.asked()[0].options[1]
    assert (option.label, option.recommended) == (" (Recommended)", False)
