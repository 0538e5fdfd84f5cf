"""OpenAPI for bodies we parse ourselves.

The API reads request bodies as raw JSON (to accept the compatibility shapes and to turn
cancel-disabling fields into warnings instead of errors), so Litestar cannot infer their
schema. These operation classes document them from the contract models.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from litestar.openapi.spec import Components, OpenAPIMediaType, Operation, RequestBody
from pydantic import BaseModel

from choice.compat import HitlRequest, RequestUserChoice
from choice.contract import (
    CancelBody,
    ChoiceRequest,
    ChoiceResult,
    DeadlineChange,
    FieldError,
    PreferencesPatch,
    Submission,
)

REF = "#/components/schemas/{model}"
DOCUMENTED: tuple[type[BaseModel], ...] = (
    ChoiceRequest, HitlRequest, RequestUserChoice, Submission, CancelBody, DeadlineChange,
    PreferencesPatch, ChoiceResult, FieldError,
)


def components() -> Components:
    schemas: dict[str, Any] = {}
    for model in DOCUMENTED:
        schema = model.model_json_schema(ref_template=REF)
        schemas.update(schema.pop("$defs", {}))
        schemas[model.__name__] = schema
    return Components(schemas=schemas)


def _ref(model: type[BaseModel]) -> dict[str, str]:
    return {"$ref": REF.format(model=model.__name__)}


def body_of(*models: type[BaseModel], required: bool = True) -> type[Operation]:
    """An Operation class whose JSON request body is one of `models`."""
    schema = _ref(models[0]) if len(models) == 1 else {"oneOf": [_ref(m) for m in models]}

    @dataclass
    class _WithBody(Operation):
        def __post_init__(self) -> None:
            self.request_body = RequestBody(
                required=required,
                content={"application/json": OpenAPIMediaType(schema=schema)},  # type: ignore[arg-type]
            )

    return _WithBody
