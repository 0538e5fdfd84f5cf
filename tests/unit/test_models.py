"""`choice.models` is the stable import: it must expose the same objects as their owners."""

from __future__ import annotations

import choice.contract
import choice.contract.compat
import choice.models


def test_models_reexports_the_owning_modules_objects() -> None:
    assert choice.models.parse_request is choice.contract.compat.parse_request
    assert choice.models.ChoiceRequest is choice.contract.ChoiceRequest
    assert choice.models.ChoiceResult is choice.contract.ChoiceResult


def test_parse_request_through_models_validates() -> None:
    validated = choice.models.parse_request(
        {"title": "t", "prompt": "p", "options": [{"id": "a", "label": "A"}]})
    assert validated.request.max_selections == 1
