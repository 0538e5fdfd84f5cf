"""`response.shape_fields`: what a hitl_request's result promises its caller
(docs/reference/contract.md#compatibility-shapes).
Only a person's pick (confirmed when asked) reads as `confirmed`; defaults submitted by the
deadline, a cancel, a timeout are `canceled` with no option; other shapes get neither."""

from __future__ import annotations

import pytest

from choice.contract import ChoiceRequest, ChoiceResult
from choice.contract.normalize import shape_fields

REQUEST = ChoiceRequest(title="Deploy?", prompt="Deploy build 7?", shape="hitl_request",
                        options=[{"id": "1", "label": "Deploy now"},  # type: ignore[list-item]
                                 {"id": "2", "label": "Wait"}])


def result(**fields: object) -> ChoiceResult:
    base: dict[str, object] = {"interaction_id": "x", "action_status": "selected",
                               "interface": "web", "created_at": "t", "completed_at": "t",
                               "summary": "s"}
    return ChoiceResult.model_validate({**base, **fields})


@pytest.mark.parametrize(("fields", "outcome", "option"), [
    ({"selected_ids": ["1"], "selected_labels": ["Deploy now"], "submission": "manual",
      "confirmed": True}, "confirmed", {"id": "1", "label": "Deploy now"}),
    ({"selected_ids": ["2"], "selected_labels": ["Wait"], "submission": "auto"},
     "confirmed", {"id": "2", "label": "Wait"}),
    ({"selected_ids": ["1"], "selected_labels": ["Deploy now"],
      "submission": "timeout_default", "defaults_used": True}, "canceled", None),
    ({"action_status": "cancelled"}, "canceled", None),
    ({"action_status": "timeout"}, "canceled", None),
])
def test_only_a_persons_pick_is_confirmed(fields: dict[str, object], outcome: str,
                                          option: dict[str, str] | None) -> None:
    shaped = shape_fields(REQUEST, result(**fields))
    assert shaped.outcome == outcome
    assert (shaped.selected_option.model_dump() if shaped.selected_option else None) == option


def test_other_shapes_get_neither_field() -> None:
    plain = REQUEST.model_copy(update={"shape": "provide_choice"})
    shaped = shape_fields(plain, result(selected_ids=["1"], selected_labels=["Deploy now"],
                                        submission="manual"))
    assert (shaped.outcome, shaped.selected_option) == (None, None)
