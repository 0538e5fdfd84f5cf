"""choice/contract/compat_errors.py: a compatibility shape's caller reads its errors in its
own words. No message names a field that shape does not have (`selection_mode` to a
request_user_choice caller, `default_selection_ids` to a hitl_request caller), and a
problem in the caller's own payload does not hide the others."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from choice.contract import ChoiceRequest, FieldError, Shape
from choice.contract.ask_user_question import AskUserQuestion
from choice.contract.compat import HitlRequest, RequestUserChoice, parse_request
from choice.contract.field_errors import InvalidInput
from choice.contract.schemas import inline_schema

Payload = dict[str, Any]
Mutation = Callable[[Payload], None]


def schema_fields(node: Any) -> set[str]:
    """Every property name of a JSON schema, at any depth."""
    found: set[str] = set()
    if isinstance(node, dict):
        found |= set(node.get("properties", {}))
        for value in node.values():
            found |= schema_fields(value)
    elif isinstance(node, list):
        for value in node:
            found |= schema_fields(value)
    return found


def sent_keys(node: Any) -> set[str]:
    """Every key the caller sent, at any depth."""
    if isinstance(node, dict):
        return set(node).union(*(sent_keys(value) for value in node.values()))
    if isinstance(node, list):
        return set().union(*(sent_keys(value) for value in node))
    return set()


OURS = schema_fields(inline_schema(ChoiceRequest))
THEIRS = {shape: schema_fields(inline_schema(model)) for shape, model in (
    ("hitl_request", HitlRequest), ("request_user_choice", RequestUserChoice),
    ("ask_user_question", AskUserQuestion))}


def strays(shape: Shape, payload: Payload, errors: list[FieldError]) -> list[str]:
    """Our field names in messages to a caller whose shape does not have them (and who did
    not send them): what a pointer to provide_choice says after naming it is exempt."""
    foreign = OURS - THEIRS[shape] - sent_keys(payload)
    found = []
    for error in errors:
        said = error.message.split("provide_choice", 1)[0]
        found += [f"{error.field}: {word}" for word in foreign
                  if re.search(rf"(?<![\w.]){re.escape(word)}(?!\w)", said)
                  or re.search(rf"(?<![\w]){re.escape(word)}(?!\w)", error.field)]
    return found


def errors_of(payload: Payload, shape: Shape) -> list[FieldError]:
    with pytest.raises(InvalidInput) as caught:
        parse_request(payload, shape=shape)
    return caught.value.errors


def _set(path: str, value: Any) -> Mutation:
    def mutate(payload: Payload) -> None:
        *parents, last = path.split(".")
        node: Any = payload
        for part in parents:
            node = node[int(part)] if isinstance(node, list) else node[part]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value
    mutate.__name__ = f"{path}={value!r}"[:60]
    return mutate


COMMON = [_set("question", ""), _set("question", "   "), _set("question", "q" * 20_001),
          _set("options", []), _set("title", "   "), _set("title", "t" * 201),
          _set("timeout_seconds", 5), _set("timeout_seconds", "soon"), _set("colour", 1),
          _set("prompt", "the context"), _set("context", "me"), _set("language", "fr"),
          _set("interface", "fax"), _set("selection_mode", "multi")]
MUTATIONS: dict[Shape, list[Mutation]] = {
    "hitl_request": [*COMMON, _set("on_timeout", "submit_defaults"), _set("options.0", " "),
                     _set("options.0", "x" * 201), _set("options.0", 7),
                     _set("options", [{"id": "a b", "label": "A"}, "B"]),
                     _set("options", [{"id": "1", "label": "A"}, {"id": "1", "label": "B"}]),
                     _set("options", ["o"] * 51), _set("placeholder", "type")],
    "request_user_choice": [*COMMON, _set("options.0.title", " "),
                            _set("options.0.title", "x" * 201),
                            _set("options.0.description", "d" * 2001),
                            _set("options.0.isRecommended", "maybe"), _set("options.0", "Grid"),
                            _set("options", [{"title": "o"}] * 51)],
    "ask_user_question": [_set("questions", []), _set("questions.0.options", []),
                          _set("questions.0.multiSelect", "maybe"),
                          _set("questions.0", {"question": "Q?", "header": "H", "options": [],
                                               "multiSelect": True}),
                          _set("questions.0.header", "h" * 13),
                          _set("questions.0.question", " "), _set("questions.0.options.0.label", " "),
                          _set("questions", [{"question": "Q?", "header": "H", "options": []}] * 11),
                          _set("timeout_seconds", 5), _set("colour", 1), _set("prompt", "context"),
                          _set("title", "t" * 201), _set("questions.0.colour", 1)],
}
VALID: dict[Shape, Callable[[], Payload]] = {
    "hitl_request": lambda: {"question": "Deploy now?", "options": ["Yes", "No"]},
    "request_user_choice": lambda: {"question": "Which layout?", "options": [
        {"title": "Grid", "isRecommended": True}, {"title": "List"}]},
    "ask_user_question": lambda: {"questions": [{"question": "Which DB?", "header": "DB",
                                                 "options": [{"label": "PG"},
                                                             {"label": "SQLite"}]}]},
}
ONE_MISTAKE = [(shape, mutation) for shape, mutations in MUTATIONS.items()
               for mutation in mutations]


@pytest.mark.parametrize(("shape", "mutation"), ONE_MISTAKE,
                         ids=[f"{shape}:{m.__name__}" for shape, m in ONE_MISTAKE])
def test_one_mistake_is_told_in_the_shapes_own_words(shape: Shape, mutation: Mutation) -> None:
    payload = VALID[shape]()
    mutation(payload)
    errors = errors_of(payload, shape)
    assert strays(shape, payload, errors) == [], errors


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(list(MUTATIONS)).flatmap(
    lambda shape: st.tuples(st.just(shape), st.lists(st.sampled_from(MUTATIONS[shape]),
                                                     min_size=2, max_size=4, unique=True))))
def test_several_mistakes_are_all_told_in_the_shapes_own_words(
        case: tuple[Shape, list[Mutation]]) -> None:
    shape, mutations = case
    payload = VALID[shape]()
    for mutation in mutations:
        with contextlib.suppress(KeyError, IndexError, TypeError):
            mutation(payload)  # fails when an earlier mistake replaced what it changes
    try:
        parse_request(payload, shape=shape)
    except InvalidInput as invalid:
        assert strays(shape, payload, invalid.errors) == [], invalid.errors


def test_empty_options_to_request_user_choice_say_what_an_option_is_there() -> None:
    [error] = errors_of({"question": "Which layout?", "options": []}, "request_user_choice")
    assert (error.field, error.code) == ("options", "required")
    assert "{title, description, isRecommended}" in error.message
    assert "selection_mode" not in error.message and "hybrid" not in error.message


def test_prompt_sent_to_a_compatibility_shape_says_where_the_context_goes() -> None:
    [error] = errors_of({"question": "Deploy?", "prompt": "CI is green", "options": ["Yes"]},
                        "hitl_request")
    assert (error.field, error.code) == ("prompt", "unknown_field")
    assert "into question" in error.message


def test_submit_defaults_on_a_hitl_request_names_no_field_it_lacks() -> None:
    [error] = errors_of({"question": "Deploy?", "options": ["Yes"],
                         "on_timeout": "submit_defaults"}, "hitl_request")
    assert (error.field, error.code) == ("on_timeout", "needs_defaults")
    assert "default_selection_ids" not in error.message


def test_a_mistake_in_the_callers_payload_hides_none_of_the_others() -> None:
    errors = errors_of({"question": "Deploy?", "options": [], "colour": "red",
                        "timeout_seconds": 5}, "hitl_request")
    assert {(e.field, e.code) for e in errors} == {
        ("colour", "unknown_field"), ("options", "required"),
        ("timeout_seconds", "out_of_range")}


def test_a_refused_required_field_stops_there() -> None:
    errors = errors_of({"question": 7, "options": ["Yes"], "colour": "red"}, "hitl_request")
    assert {(e.field, e.code) for e in errors} == {("question", "invalid_type"),
                                                   ("colour", "unknown_field")}
