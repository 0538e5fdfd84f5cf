"""Field errors a client can act on: `{field, code, message}` with the fix in the message.

Owns the translation of pydantic's errors into our error list and the exception that carries
such a list through the layers (validation, submission, API, MCP). It knows nothing about
what the rules are; `validation.py` and `normalize.py` decide that.

A model's own validator says what is wrong in its words: a `PydanticCustomError` whose type
is our code (`duplicate`, `invalid_characters`), or a plain `ValueError` (`invalid_value`).
Its message follows `field: ` and carries the fix; pydantic's "Value error, " never shows.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Sequence
from typing import Any, TypeVar, Union

from pydantic import BaseModel, ValidationError

from choice.contract import FieldError

M = TypeVar("M", bound=BaseModel)


class InvalidInput(Exception):
    """Raised with every problem found, never only the first: one round trip fixes them all."""

    def __init__(self, errors: Sequence[FieldError]) -> None:
        self.errors = list(errors)
        super().__init__("; ".join(f"{e.field}: {e.message}" for e in self.errors))


def field_path(loc: Sequence[str | int]) -> str:
    """`("options", 2, "id")` -> `options[2].id`; the empty path is the body itself."""
    path = ""
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path += f".{part}" if path else part
    return path or "body"


def shown(value: Any, limit: int = 40) -> str:
    """A short, safe rendering of a client's value for use inside a message."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


_KIND = {
    "string_type": "a string",
    "int_type": "an integer",
    "int_parsing": "an integer",
    "int_from_float": "a whole number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "list_type": "a list",
    "dict_type": "an object",
    "model_type": "an object",
    "model_attributes_type": "an object",
}


def _allowed_fields(model: type[BaseModel], loc: Sequence[str | int]) -> list[str]:
    """The field names accepted at `loc` (the location of the unknown field's parent)."""
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            continue
        is_model = isinstance(current, type) and issubclass(current, BaseModel)
        field = current.model_fields.get(part) if is_model else None
        if field is None:
            return []
        current = _model_in(field.annotation)
    is_model = isinstance(current, type) and issubclass(current, BaseModel)
    return sorted(current.model_fields) if is_model else []


def _model_in(annotation: Any) -> Any:
    """The pydantic model inside `Foo`, `list[Foo]`, `Foo | None` (or None)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    origin = typing.get_origin(annotation)
    if origin in (list, Union, types.UnionType):
        for arg in typing.get_args(annotation):
            found = _model_in(arg)
            if found is not None:
                return found
    return None


def _message(model: type[BaseModel], err: Any, field: str) -> tuple[str, str]:
    kind, ctx, value = err["type"], err.get("ctx") or {}, err.get("input")
    if kind == "missing":
        return "required", f"{field} is required: add it to the request."
    if kind == "extra_forbidden":
        allowed = _allowed_fields(model, err["loc"][:-1])
        return "unknown_field", (
            f"{field} is not a known field: remove it or fix its spelling"
            + (f" (accepted: {', '.join(allowed)})." if allowed else ".")
        )
    if kind == "string_too_short":
        return "too_short", f"{field} is empty: write at least {ctx.get('min_length', 1)} character."
    if kind == "string_too_long":
        return "too_long", (
            f"{field} has {len(value)} characters; the limit is {ctx.get('max_length')}: shorten it."
        )
    if kind == "too_long":
        return "too_many", (
            f"{field} has {ctx.get('actual_length')} entries; the limit is "
            f"{ctx.get('max_length')}: keep the most relevant ones."
        )
    if kind == "string_pattern_mismatch":
        return "invalid_format", (
            f"{field} {shown(value)} is not a valid id: use 1-64 letters, digits, '_', '.' or '-'."
        )
    if kind == "literal_error":
        return "invalid_choice", f"{field} must be one of {ctx.get('expected')}; got {shown(value)}."
    if kind in ("greater_than_equal", "less_than_equal"):
        bound = f"at least {ctx['ge']}" if "ge" in ctx else f"at most {ctx['le']}"
        return "out_of_range", f"{field} must be {bound}; got {shown(value)}."
    if kind == "too_short":
        return "too_few", (
            f"{field} has {ctx.get('actual_length')} entries; give at least "
            f"{ctx.get('min_length')}."
        )
    if kind in _KIND:
        return "invalid_type", (
            f"{field} must be {_KIND[kind]}; got {type(value).__name__} {shown(value)}."
        )
    if kind in ("value_error", "assertion_error"):  # a validator's ValueError / assert
        return "invalid_value", f"{field}: {_sentence(str(ctx.get('error', '')))}"
    # A validator's PydanticCustomError (its type is our code), or a kind not worded above.
    return kind, f"{field}: {_sentence(err['msg'])}"


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


def from_pydantic(model: type[BaseModel], exc: ValidationError) -> list[FieldError]:
    errors = []
    for err in exc.errors():
        field = field_path(err["loc"])
        code, message = _message(model, err, field)
        errors.append(FieldError(field=field, code=code, message=message))
    return errors


def parse_model(model: type[M], payload: Any) -> M:
    """Validate `payload` as `model`, raising `InvalidInput` with actionable messages."""
    if not isinstance(payload, dict):
        raise InvalidInput([FieldError(
            field="body", code="invalid_type",
            message=f"the body must be a JSON object; got {type(payload).__name__}.",
        )])
    try:
        return model.model_validate(payload)
    except ValidationError as exc:
        raise InvalidInput(from_pydantic(model, exc)) from None
