"""The stable public import for code that builds or reads requests and results.

`from choice.models import parse_request, ChoiceRequest, ChoiceResult` keeps working while
modules move behind it; new code inside the package imports from the owning module.
"""

from __future__ import annotations

from choice.contract import (
    ChoiceRequest,
    ChoiceResult,
    FieldError,
    Option,
    Preferences,
    RequestContext,
    Submission,
)
from choice.contract.compat import HitlRequest, RequestUserChoice, parse_request
from choice.contract.field_errors import InvalidInput
from choice.contract.validation import ValidatedRequest, validate_request

__all__ = [
    "ChoiceRequest",
    "ChoiceResult",
    "FieldError",
    "HitlRequest",
    "InvalidInput",
    "Option",
    "Preferences",
    "RequestContext",
    "RequestUserChoice",
    "Submission",
    "ValidatedRequest",
    "parse_request",
    "validate_request",
]
