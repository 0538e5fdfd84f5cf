"""Properties that hold for every request and every answer, not only the examples we thought of."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from choice.contract import ChoiceRequest, Submission
from choice.contract.compat import parse_request
from choice.contract.field_errors import InvalidInput
from choice.contract.normalize import Completion, normalize_submission
from choice.contract.validation import validate_request

# The autouse data-dir fixture in tests/conftest.py is irrelevant to these pure functions.
PROPERTY = settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

DONE = Completion(
    interaction_id="i-1", interface="terminal", created_at=0.0, completed_at=1.0,
    placeholder_shown=False,
)

COMPAT_FIELDS = ["question", "options", "confirm", "title", "placeholder", "timeout_seconds"]
REQUEST_FIELDS = [*sorted(ChoiceRequest.model_fields), "allow_cancel", "hide_cancel", "question"]


def request(option_ids: list[str], **fields: Any) -> dict[str, Any]:
    """A multi-choice payload over `option_ids`; keyword arguments override it."""
    payload: dict[str, Any] = {
        "title": "Pick some",
        "prompt": "Random options.",
        "selection_mode": "multi",
        "options": [{"id": oid, "label": f"Label {oid}"} for oid in option_ids],
    }
    payload.update(fields)
    return payload


@st.composite
def multi_requests(draw: st.DrawFn) -> ChoiceRequest:
    """Valid multi-choice requests with 1..50 options, random bounds and defaults."""
    numbers = draw(st.lists(st.integers(0, 999), min_size=1, max_size=50, unique=True))
    ids = [f"opt-{number}" for number in numbers]  # unsorted: option order is not id order
    n = len(ids)
    high = draw(st.integers(1, n))
    low = draw(st.integers(0, high))
    defaults = draw(st.lists(st.sampled_from(ids), max_size=high, unique=True))
    fields = {
        "min_selections": low,
        "max_selections": high,
        "default_selection_ids": defaults,
        "require_confirmation": draw(st.booleans()),
        "allow_annotations": draw(st.booleans()),
    }
    return validate_request(request(ids, **fields)).request


@st.composite
def submissions(draw: st.DrawFn, req: ChoiceRequest) -> Submission:
    """Answers a human (or a broken client) might send: mostly real ids, sometimes not."""
    ids = [option.id for option in req.options]
    any_id = st.sampled_from([*ids, "unknown", "", "A B"])
    texts = st.sampled_from(["", "  \n", "why", "two\nlines"]) | st.text(max_size=10)
    return Submission(
        selected_ids=draw(st.none() | st.lists(any_id, max_size=len(ids) + 3)),
        custom_input=draw(st.none() | texts),
        option_annotations=draw(st.dictionaries(any_id, texts, max_size=4)),
        global_annotation=draw(st.none() | texts),
        confirmed=draw(st.none() | st.booleans()),
        submission=draw(st.sampled_from(["manual", "auto"])),
    )


@PROPERTY
@given(data=st.data())
def test_a_submission_is_either_invalid_input_or_an_ordered_bounded_labelled_result(
    data: st.DataObject,
) -> None:
    req = data.draw(multi_requests())
    answer = data.draw(submissions(req))
    try:
        result, status = normalize_submission(req, answer, DONE)
    except InvalidInput as exc:
        assert exc.errors
        return
    order = [option.id for option in req.options]
    labels = {option.id: option.label for option in req.options}
    assert result.selected_ids == [oid for oid in order if oid in set(result.selected_ids)]
    assert req.min_selections is not None and req.max_selections is not None
    assert req.min_selections <= len(result.selected_ids) <= req.max_selections
    assert result.selected_labels == [labels[oid] for oid in result.selected_ids]
    assert status in ("submitted", "auto_submitted")
    assert "\n" not in result.summary


@PROPERTY
@given(data=st.data())
def test_a_submission_of_valid_ids_within_bounds_is_accepted(data: st.DataObject) -> None:
    req = data.draw(multi_requests())
    assert req.min_selections is not None and req.max_selections is not None
    ids = [option.id for option in req.options]
    count = data.draw(st.integers(max(req.min_selections, 1), req.max_selections))
    chosen = data.draw(st.permutations(ids))[:count]
    answer = Submission(selected_ids=chosen, confirmed=True if req.require_confirmation else None)
    result, _ = normalize_submission(req, answer, DONE)
    assert result.selected_ids == [oid for oid in ids if oid in chosen]


JSON_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=30),
    st.sampled_from(["single", "multi", "text_input", "hybrid", "submit_defaults", "a", "auto"]),
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.sampled_from(["id", "label", "title", "x"]) | st.text(max_size=8),
                      children, max_size=4),
    max_leaves=8,
)
JSON_PAYLOADS = st.one_of(
    JSON_VALUES,
    st.dictionaries(st.sampled_from(REQUEST_FIELDS) | st.text(max_size=8), JSON_VALUES, max_size=8),
    st.dictionaries(st.sampled_from(COMPAT_FIELDS), JSON_VALUES, max_size=6),
)


def check_errors(exc: InvalidInput) -> None:
    assert exc.errors
    for error in exc.errors:
        assert error.field and error.code and error.message.strip()


@PROPERTY
@given(payload=JSON_PAYLOADS)
def test_validating_any_json_payload_only_ever_raises_invalid_input(payload: Any) -> None:
    """validate_request, and parse_request read as each shape: a list of errors, never a crash."""
    try:
        validate_request(payload)
    except InvalidInput as exc:
        check_errors(exc)
    for shape in (None, "hitl_request", "request_user_choice"):
        try:
            parse_request(payload, shape=shape)
        except InvalidInput as exc:
            check_errors(exc)
