"""JSON schemas of the contract's models, self-contained (no `$ref`), for documents that
cannot carry a shared `$defs`: the OpenAPI operations (`web/api/openapi.py`) and the MCP tools'
input schemas (`mcp/tools.py`).

It sits outside both packages so that neither imports the other: the MCP tools must not
pull in the web package. It only reads models; it must not know about HTTP or MCP.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel


def inline_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON schema with its `$defs` inlined.

    Litestar rebuilds `components.schemas` from its own registry, so references to extra
    components would dangle, and an MCP tool's `inputSchema` stands alone; our models are
    small and acyclic, so inlining is safe.
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
