"""Several questions in one interaction (docs/guides/several-questions.md): the request's
rules, each reported under its question, one submission answering all of them, and the
deadline per question."""

from __future__ import annotations

from typing import Any

import pytest

from choice.contract import Submission
from choice.contract.field_errors import InvalidInput
from choice.contract.normalize import Completion, normalize_submission, timeout_defaults_result
from choice.contract.validation import validate_request

DONE = Completion(interaction_id="i-1", interface="web", created_at=1_700_000_000.0,
                  completed_at=1_700_000_030.0, placeholder_shown=False)


def three(**fields: Any) -> dict[str, Any]:
    """A request with a single, a multi and a text question; keywords override it."""
    payload: dict[str, Any] = {
        "title": "Set up the new service",
        "questions": [
            {"id": "db", "header": "Database", "prompt": "Which database?",
             "options": [{"id": "pg", "label": "PostgreSQL"}, {"id": "lite", "label": "SQLite"}],
             "default_selection_ids": ["lite"]},
            {"id": "ci", "header": "Checks", "prompt": "Which checks run on each push?",
             "selection_mode": "multi", "min_selections": 1,
             "options": [{"id": "lint", "label": "Lint"}, {"id": "types", "label": "Types"},
                         {"id": "unit", "label": "Unit tests"}]},
            {"id": "name", "header": "Name", "prompt": "What do we call it?",
             "selection_mode": "text_input", "placeholder": "kebab-case"},
        ],
    }
    payload.update(fields)
    return payload


def errors_of(payload: dict[str, Any]) -> dict[str, str]:
    with pytest.raises(InvalidInput) as raised:
        validate_request(payload)
    return {error.field: error.code for error in raised.value.errors}


def submit(payload: dict[str, Any], submission: dict[str, Any]) -> Any:
    request = validate_request(payload).request
    return normalize_submission(request, Submission.model_validate(submission), DONE)


def test_a_request_with_questions_needs_no_prompt_and_decides_each_question() -> None:
    request = validate_request(three()).request
    assert request.several and request.prompt is None
    db, ci, name = request.asked()
    assert (db.max_selections, db.min_selections) == (1, 1)
    assert (ci.max_selections, ci.min_selections) == (3, 1)
    assert (name.max_selections, name.min_selections) == (0, 0)
    assert db.allow_annotations is True and request.single_submit_mode is False


def test_a_single_question_request_is_the_one_element_case() -> None:
    request = validate_request({"title": "t", "prompt": "p", "options": [
        {"id": "a", "label": "A"}]}).request
    assert not request.several
    [only] = request.asked()
    assert only.prompt == "p" and [o.id for o in only.options] == ["a"]


def test_errors_are_reported_per_question_all_at_once() -> None:
    payload = three()
    payload["questions"][1]["options"][2]["id"] = "lint"
    payload["questions"][2]["options"] = [{"id": "x", "label": "X"}]
    payload["questions"][0]["default_selection_ids"] = ["nope"]
    assert errors_of(payload) == {
        "questions[1].options[2].id": "duplicate",
        "questions[2].options": "not_allowed",
        "questions[0].default_selection_ids[0]": "unknown_option",
    }


def test_field_shapes_are_named_inside_their_question() -> None:
    payload = three()
    payload["questions"][0]["header"] = "A header far too long"
    payload["questions"][2]["id"] = "bad id!"
    fields = errors_of(payload)
    assert {"questions[0].header", "questions[2].id"} <= fields.keys()


def test_questions_and_the_single_question_fields_never_come_together() -> None:
    fields = errors_of(three(selection_mode="multi", options=[{"id": "a", "label": "A"}]))
    assert fields == {"selection_mode": "conflicts_with_questions",
                      "options": "conflicts_with_questions"}


def test_question_ids_are_unique_and_there_are_one_to_ten() -> None:
    payload = three()
    payload["questions"][2]["id"] = "db"
    assert errors_of(payload) == {"questions[2].id": "duplicate"}
    assert errors_of(three(questions=[]))
    eleven = [{"id": f"q{i}", "prompt": "?", "selection_mode": "text_input"} for i in range(11)]
    assert "questions" in errors_of(three(questions=eleven))


def test_one_question_still_needs_its_prompt_named_with_the_other_errors() -> None:
    fields = errors_of({"options": [{"id": "a", "label": "A"}]})
    assert {"title", "prompt"} <= fields.keys()


def test_submit_defaults_needs_defaults_on_some_question_and_a_quorum_one_question() -> None:
    payload = three(on_timeout="submit_defaults")
    payload["questions"][0]["default_selection_ids"] = []
    assert errors_of(payload) == {"on_timeout": "needs_defaults"}
    assert errors_of(three(quorum={"min_votes": 2})) == {"quorum": "not_allowed"}


def test_one_submission_answers_every_question() -> None:
    result, status = submit(three(), {"answers": {
        "db": {"selected_ids": ["pg"], "option_annotations": {"pg": "we run it already"}},
        "ci": {"selected_ids": ["unit", "lint"]},
        "name": {"custom_input": "billing-api"},
    }, "global_annotation": "ship it"})
    assert status == "submitted" and result.action_status == "selected"
    assert result.selected_ids == [] and result.custom_input is None
    answers = result.answers
    assert answers["db"].selected_labels == ["PostgreSQL"]
    assert answers["db"].option_annotations == {"pg": "we run it already"}
    assert answers["ci"].selected_ids == ["lint", "unit"]  # option order
    assert answers["name"].custom_input == "billing-api"
    lines = result.summary.splitlines()
    assert lines[0].startswith("Database: Selected") and "billing-api" in lines[2]
    assert lines[-1] == 'Note: "ship it".'


def test_a_question_left_out_keeps_its_defaults() -> None:
    result, _ = submit(three(), {"answers": {"ci": {"selected_ids": ["lint"]},
                                             "name": {"custom_input": "x"}}})
    assert result.answers["db"].selected_ids == ["lite"]


def test_each_answer_is_checked_against_its_own_question() -> None:
    with pytest.raises(InvalidInput) as raised:
        submit(three(), {"answers": {"db": {"selected_ids": ["pg", "lite"]},
                                     "ci": {"selected_ids": ["nope"]},
                                     "zzz": {"selected_ids": []}}})
    assert {e.field: e.code for e in raised.value.errors} == {
        "answers.db.selected_ids": "too_many",
        "answers.ci.selected_ids[0]": "unknown_option",  # and not also too few
        "answers.name.custom_input": "required",
        "answers.zzz": "unknown_question",
    }


def test_the_single_question_fields_are_refused_for_several_and_answers_for_one() -> None:
    with pytest.raises(InvalidInput) as raised:
        submit(three(), {"selected_ids": ["pg"]})
    assert "selected_ids" in {e.field for e in raised.value.errors}
    empty_own, _ = submit(three(), {"selected_ids": [], "option_annotations": {}, "answers": {
        "db": {"selected_ids": ["pg"]}, "ci": {"selected_ids": ["lint"]},
        "name": {"custom_input": "api"}}})  # a generic client's empty own fields are no answer
    assert empty_own.answers is not None and empty_own.answers["db"].selected_ids == ["pg"]
    with pytest.raises(InvalidInput) as raised:
        submit({"title": "t", "prompt": "p", "options": [{"id": "a", "label": "A"}]},
               {"answers": {"answer": {"selected_ids": ["a"]}}})
    assert {e.field: e.code for e in raised.value.errors}["answers"] == "not_allowed"


def test_notes_follow_each_question_setting() -> None:
    payload = three()
    payload["questions"][0]["allow_annotations"] = False
    with pytest.raises(InvalidInput) as raised:
        submit(payload, {"answers": {"db": {"option_annotations": {"pg": "no"}},
                                     "ci": {"selected_ids": ["lint"]},
                                     "name": {"custom_input": "x"}}})
    assert [e.field for e in raised.value.errors] == ["answers.db.option_annotations"]


def test_the_deadline_submits_defaults_where_a_question_has_them_and_says_which() -> None:
    request = validate_request(three(on_timeout="submit_defaults")).request
    result = timeout_defaults_result(request, DONE)
    assert result.submission == "timeout_default" and result.defaults_used
    assert result.answers["db"].state == "defaulted"
    assert result.answers["db"].selected_ids == ["lite"]
    assert result.answers["ci"].state == "unanswered" and result.answers["ci"].selected_ids == []
    first, *rest = result.summary.splitlines()
    assert "1 of 3 questions (Database)" in first
    assert rest[1] == "Checks: Not answered (no defaults)."


def test_one_question_results_are_unchanged() -> None:
    result, _ = submit({"title": "t", "prompt": "p", "options": [{"id": "a", "label": "A"}]},
                       {"selected_ids": ["a"], "global_annotation": "ok"})
    assert result.answers is None and result.selected_ids == ["a"]
    assert result.summary == 'Selected "A" (a). Note: "ok".'
