"""The JSON body contract of `/api`: the content type (415), the syntax (422 `invalid_json`)
and, for typed bodies, the model's rules in our words (422 `{field, code, message}`).

Handlers with a fixed body shape take `data: SomeModel` (Litestar parses it and documents
it in the OpenAPI) with `before_request=check_json_data`, so the contract is applied first;
the others read the body with `json_body`. The size limit (413) is Litestar's
`request_max_body_size`, checked as the body arrives; `read_once` keeps one copy of it (a
large body is also read only in one of a few places at once: `security/large_bodies.py`),
and msgspec parses it from that copy (the standard library's `json` would first decode it
into a second one, as text: 67 MB more for the largest answer).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, get_type_hints

import msgspec
from litestar import Request
from litestar.exceptions import HTTPException

from choice.contract import FieldError
from choice.contract.field_errors import InvalidInput, parse_model


async def read_once(request: Request[Any, Any, Any]) -> bytearray:
    """The body, read as it arrives into one growing buffer (Litestar's `body()` keeps
    every chunk and then a joined copy: twice the body, and it keeps it for a second
    reader). For a handler that alone reads its body. Past the route's limit the stream
    raises Litestar's 413 as soon as the limit is crossed."""
    buffer = bytearray()
    async for chunk in request.stream():
        buffer += chunk
    return buffer


async def json_body(request: Request[Any, Any, Any], *, optional: bool = False,
                    large: bool = False) -> Any:
    """The body as JSON. `large`: a route that takes files, whose handler alone reads the
    body (`read_once`: it is not kept for another reader)."""
    raw = await read_once(request) if large else await request.body()
    if optional and not raw.strip():
        return {}
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type != "application/json":
        raise HTTPException(
            status_code=415,
            detail="send the body as JSON with 'Content-Type: application/json'.",
        )
    try:
        return msgspec.json.decode(raw)
    except (msgspec.DecodeError, RecursionError) as exc:
        reason = "it is nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        raise InvalidInput([FieldError(
            field="body", code="invalid_json",
            message=f"the body is not valid JSON ({reason[:120]}): send one JSON object.",
        )]) from None


async def check_json_data(request: Request[Any, Any, Any]) -> None:
    """`before_request` of a handler taking `data: SomeModel`: check the body as
    `json_body` and `parse_model` do, before Litestar parses `data` (which then only sees
    bodies that passed). Alone, Litestar would take any content type, answer malformed JSON
    with 400 and word the model's errors its own way. (Its document does not say that
    unknown fields are refused; this check refuses them all the same.)"""
    parse_model(data_model(request.route_handler.fn), await json_body(request))


@cache
def data_model(handler: Callable[..., Any]) -> Any:
    """The model a handler's `data` parameter names (its annotation, resolved once)."""
    return get_type_hints(handler)["data"]
