"""OpenAPI for bodies we parse ourselves.

The API reads request bodies as raw JSON (to accept the compatibility shapes and to turn
cancel-disabling fields into warnings instead of errors), so Litestar cannot infer their
schema. These operation classes document them from the contract models.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from litestar.openapi.spec import OpenAPIMediaType, Operation, RequestBody
from pydantic import BaseModel


def inline_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON schema with its `$defs` inlined.

    Litestar rebuilds `components.schemas` from its own registry, so references to extra
    components would dangle; our models are small and acyclic, so inlining is safe.
    """
    schema = model.model_json_schema()
    defs = schema.pop("$defs", {})

    def resolve(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                return resolve(defs[ref.removeprefix("#/$defs/")])
            return {key: resolve(value) for key, value in node.items()}
        if isinstance(node, list):
            return [resolve(item) for item in node]
        return node

    resolved: dict[str, Any] = resolve(schema)
    return resolved


def body_of(*models: type[BaseModel], required: bool = True) -> type[Operation]:
    """An Operation class whose JSON request body is one of `models`."""
    schemas = [inline_schema(model) for model in models]
    schema = schemas[0] if len(schemas) == 1 else {"oneOf": schemas}

    @dataclass
    class _WithBody(Operation):
        def __post_init__(self) -> None:
            self.request_body = RequestBody(
                required=required,
                content={"application/json": OpenAPIMediaType(schema=schema)},  # type: ignore[arg-type]
            )

    return _WithBody
