"""A request as an MCP elicitation form, and the form's content back as a submission."""

from __future__ import annotations

import pytest

from choice.contract import ChoiceRequest, Preferences
from choice.contract.compat import parse_request
from choice.contract.field_errors import InvalidInput
from choice.core.i18n import translator
from choice.mcp.elicit_form import CONFIRM_FIELD, NOTE_FIELD, form_for, submission_from

_ = translator("en")
OPTIONS = [{"id": "pg", "label": "PostgreSQL", "recommended": True},
           {"id": "lite", "label": "SQLite", "description": "One file."}]


def request(**fields: object) -> ChoiceRequest:
    payload = {"title": "Pick", "prompt": "Which store?", "options": OPTIONS, **fields}
    return parse_request(payload, Preferences()).request


def test_single_is_an_enum_with_titles_and_required() -> None:
    form = form_for(request(default_selection_ids=["lite"]), _)
    field = form.schema["properties"]["answer"]
    assert field["type"] == "string" and field["default"] == "lite"
    assert field["oneOf"][0] == {"const": "pg", "title": "PostgreSQL (recommended)"}
    assert form.schema["required"] == ["answer"]
    assert form.message == "Pick\n\nWhich store?"


def test_multi_is_an_array_of_enum_with_bounds() -> None:
    field = form_for(request(selection_mode="multi", min_selections=1, max_selections=2),
                     _).schema["properties"]["answer"]
    assert field["type"] == "array" and field["items"]["anyOf"][1]["const"] == "lite"
    assert (field["minItems"], field["maxItems"]) == (1, 2)


def test_text_is_a_string_and_hybrid_adds_an_optional_text_field() -> None:
    text = form_for(request(selection_mode="text_input", options=[]), _).schema
    assert text["properties"]["answer"]["type"] == "string"
    hybrid = form_for(request(selection_mode="hybrid", placeholder="e.g. DuckDB"), _).schema
    assert hybrid["properties"]["answer:text"]["description"] == "e.g. DuckDB"
    assert "answer" not in hybrid["required"]


def test_notes_and_confirmation_are_fields_only_when_asked_for() -> None:
    bare = form_for(request(allow_annotations=False), _).schema["properties"]
    assert NOTE_FIELD not in bare and CONFIRM_FIELD not in bare
    full = form_for(request(allow_annotations=True, require_confirmation=True), _).schema
    assert full["properties"][NOTE_FIELD]["type"] == "string"
    assert CONFIRM_FIELD in full["required"]


def test_hostile_text_reaches_the_client_inert() -> None:
    hostile = request(title="\x1b]0;pwned\x07Pick", prompt="Go \u202eevil\x1b[2J",
                      options=[{"id": "a", "label": "\x1b[31mred\x1b[0m", "description": "\x00x"}])
    form = form_for(hostile, _)
    text = form.message + repr(form.schema)
    assert "\x1b" not in text and "\u202e" not in text and "\x00" not in text
    assert form.schema["properties"]["answer"]["oneOf"][0]["title"] == "␛red␛"


def test_content_becomes_the_submission_a_page_sends() -> None:
    single = submission_from(request(), {"answer": "lite", NOTE_FIELD: "small"})
    assert single.selected_ids == ["lite"] and single.global_annotation == "small"
    words = submission_from(request(selection_mode="hybrid"), {"answer:text": "DuckDB"})
    assert words.selected_ids == [] and words.custom_input == "DuckDB"
    untouched = submission_from(request(default_selection_ids=["pg"]), {})
    assert untouched.selected_ids is None  # the defaults, as a page leaving them


def test_several_questions_answer_by_id() -> None:
    several = parse_request({"title": "Set up", "questions": [
        {"id": "db", "prompt": "Store?", "options": OPTIONS},
        {"id": "name", "prompt": "Name?", "selection_mode": "text_input"}]},
        Preferences()).request
    form = form_for(several, _)
    assert set(form.schema["properties"]) >= {"db", "name"}
    assert form.schema["properties"]["db"]["title"] == "Store?"
    submission = submission_from(several, {"db": "pg", "name": "orders"})
    assert submission.answers is not None
    assert submission.answers["db"].selected_ids == ["pg"]
    assert submission.answers["name"].custom_input == "orders"


@pytest.mark.parametrize("content", [{"answer": 3}, {"answer": ["a", 1]}, {NOTE_FIELD: ["x"]},
                                     {CONFIRM_FIELD: "yes"}, {"answer:text": "x" * 30_000}])
def test_wrong_values_are_field_errors(content: dict[str, object]) -> None:
    with pytest.raises(InvalidInput) as refused:
        submission_from(request(selection_mode="hybrid"), content)
    assert refused.value.errors[0].field
