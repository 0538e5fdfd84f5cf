"""Reading a JSON request body ourselves: the content type, the size, and the syntax.

Errors come back as field errors (415 / 422); the size limit (413) is Litestar's
`request_max_body_size`.
"""

from __future__ import annotations

import json
from typing import Any

from litestar import Request
from litestar.exceptions import HTTPException

from choice.contract import FieldError
from choice.field_errors import InvalidInput


async def json_body(request: Request[Any, Any, Any], *, optional: bool = False) -> Any:
    raw = await request.body()
    if optional and not raw.strip():
        return {}
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type != "application/json":
        raise HTTPException(
            status_code=415,
            detail="send the body as JSON with 'Content-Type: application/json'.",
        )
    try:
        return json.loads(raw)
    except (ValueError, RecursionError) as exc:
        reason = "it is nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        raise InvalidInput([FieldError(
            field="body", code="invalid_json",
            message=f"the body is not valid JSON ({reason[:120]}): send one JSON object.",
        )]) from None
