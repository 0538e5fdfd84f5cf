"""The query parameters of `/api/interactions` (and the thread's cursor on `/api/d`): their
bounds, how OpenAPI documents them, and the words their errors use, from one set of
constants.

Litestar parses and types them (a `wait=soon` is its `ValidationException`, worded with
`HINTS` by `errors.py`); the ranges are checked here, so a value out of range gets a message
with the bound and the way around it.
"""

from __future__ import annotations

from typing import Annotated, TypeAlias, get_args

from litestar.params import QueryParameter

from choice.contract import FieldError, Shape
from choice.contract.compat import SHAPES
from choice.contract.field_errors import InvalidInput
from choice.store.repository import Which
from choice.team.thread import PAGE_API, as_cursor

MAX_WAIT = 60.0
MAX_LIMIT = 200

Wait: TypeAlias = Annotated[float | None, QueryParameter(
    description="seconds to block for the result", schema_extra={"minimum": 0, "maximum": MAX_WAIT})]
Candidates: TypeAlias = Annotated[bool, QueryParameter(
    description="0: this poller cannot write a candidate summary (a script): keep waiting "
                "through the owner's request for one instead of returning at once")]
ShapeName: TypeAlias = Annotated[str | None, QueryParameter(
    description="force a request shape instead of detecting it", schema_extra={"enum": list(SHAPES)})]
Limit: TypeAlias = Annotated[int, QueryParameter(schema_extra={"minimum": 1, "maximum": MAX_LIMIT})]
StatusFilter: TypeAlias = Annotated[Which, QueryParameter(
    description="`active` = pending or widened; `widened`, `deferred` = only those; "
                "`completed` = answered, cancelled or timed out")]
Before: TypeAlias = Annotated[str | None, QueryParameter(
    description=f"the `comments_before` of an earlier reply: the {PAGE_API} comments before "
                "it (left out: the newest)")]
After: TypeAlias = Annotated[str | None, QueryParameter(
    description="the `events_after` of an earlier reply: the events after it (left out: "
                "from the first)")]
DryRun: TypeAlias = Annotated[bool, QueryParameter(
    description="1: only check the answer (nothing is stored) and return what it would produce")]

HINTS = {
    "wait": f"a number of seconds from 0 to {MAX_WAIT:g}",
    "limit": f"a whole number from 1 to {MAX_LIMIT}",
    "status": "one of " + ", ".join(get_args(Which)),
    "shape": "one of " + ", ".join(SHAPES),
    "dry_run": "1 or 0 (true or false)",
}
"""What each parameter must be, for Litestar's own parse errors."""


def check_wait(wait: float | None) -> float:
    if wait is None:
        return 0.0
    if not 0 <= wait <= MAX_WAIT:
        raise InvalidInput([FieldError(
            field="wait", code="out_of_range",
            message=f"wait is {wait:g} s; it must be between 0 and {MAX_WAIT:g}: poll again "
                    "for longer waits.")])
    return wait


def check_shape(shape: str | None) -> Shape | None:
    if shape is not None and shape not in SHAPES:
        raise InvalidInput([FieldError(
            field="shape", code="invalid_choice",
            message=f"shape must be one of {', '.join(SHAPES)}, or left out to detect it.")])
    return shape


def check_limit(limit: int) -> int:
    if not 1 <= limit <= MAX_LIMIT:
        raise InvalidInput([FieldError(field="limit", code="out_of_range",
                                       message=f"limit must be between 1 and {MAX_LIMIT}.")])
    return limit


_CURSOR_SOURCE = {"before": ("comments_before", "for the newest comments"),
                  "after": ("events_after", "to start from the first event")}


def check_cursor(raw: str | None, name: str) -> int | None:
    """`before` or `after` as the cursor it must be; a message saying where one comes from."""
    try:
        return as_cursor(raw)
    except ValueError:
        source, otherwise = _CURSOR_SOURCE[name]
        raise InvalidInput([FieldError(
            field=name, code="invalid_cursor",
            message=f"{name} must be the {source} value of an earlier reply (a positive "
                    f"whole number): leave it out {otherwise}.")]) from None

