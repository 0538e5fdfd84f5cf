"""The HTTP API reference: every path and method of the portal's OpenAPI schema, grouped by
tag, then every schema the operations name. The schema is the one the running portal serves
at `/schema/openapi.json`: built by `choice.portal.create_app()` on an empty data dir with no
`CHOICE_*` variable set, so the page never depends on who builds the docs."""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from docs.gen._markdown import (
    Schema,
    code,
    collapsed,
    constraints,
    json_block,
    properties_table,
    prose,
    ref_name,
    table,
    type_of,
)

METHODS = ("get", "put", "post", "patch", "delete")


def openapi_schema() -> dict[str, Any]:
    from choice.core.config import Settings
    from choice.portal import create_app

    with tempfile.TemporaryDirectory(prefix="choice-docs-") as data_dir:
        settings = Settings.from_env({"CHOICE_DATA_DIR": str(Path(data_dir))})
        app = create_app(settings, log_level="WARNING")
        schema: dict[str, Any] = app.openapi_schema.to_schema()
        return schema


def operations(schema: Mapping[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """(path, METHOD, operation) in the schema's order."""
    return [(path, method.upper(), item[method]) for path, item in schema["paths"].items()
            for method in METHODS if method in item]


def schema_anchor(name: str) -> str:
    return "schema-" + name.lower()


def _link(ref: str) -> str:
    name = ref_name(ref)
    return f"[{name}](#{schema_anchor(name)})"


def _body(schema: Schema, components: Mapping[str, Any]) -> str:
    """A request or response body: a link to its named schema, the shapes it may take, or
    (an inline object) its fields."""
    parts = schema.get("oneOf") or schema.get("anyOf")
    if parts and "enum" not in schema:
        out = ["One of:", "", *("- " + _body_line(part, components) for part in parts)]
        for part in parts:  # an inline shape: its fields here, as it has no schema below
            if "$ref" not in part and part.get("title") not in components \
                    and part.get("properties"):
                out += ["", f"Fields of {part.get('title') or 'the inline object'}:", "",
                        properties_table(part, _link)]
        return "\n".join(out)
    if "$ref" in schema or schema.get("title") in components:
        return _body_line(schema, components)
    if schema.get("properties"):
        return (f"An object{' (' + schema['title'] + ')' if schema.get('title') else ''}:\n\n"
                + properties_table(schema, _link))
    return type_of(schema, _link) if schema else "any"


def _body_line(schema: Schema, components: Mapping[str, Any]) -> str:
    title = schema.get("title")
    if "$ref" not in schema and title in components:
        return _link(f"#/components/schemas/{title}")
    if "$ref" not in schema and schema.get("properties"):
        return f"object ({title or 'inline'}): " + ", ".join(
            code(name) for name in schema["properties"])
    return type_of(schema, _link)


def _operation(path: str, method: str, op: Mapping[str, Any],
               components: Mapping[str, Any]) -> str:
    out = [f"### `{method} {path}`", ""]
    auth = "bearer token" if op.get("security") else "no token: the link's secret"
    out += [f"{op.get('summary') or ''} · operation id {code(op.get('operationId', ''))} · "
            f"{auth}", ""]
    if op.get("description"):
        out += [prose(op["description"]), ""]
    params = op.get("parameters") or []
    if params:
        rows = []
        for param in params:
            schema = param.get("schema") or {}
            limits = constraints(schema)
            about_param = param.get("description") or schema.get("description") or ""
            rows.append((code(param["name"]), param["in"], type_of(schema, _link),
                         "yes" if param.get("required") else "",
                         " ".join(p for p in (about_param, f"({limits})" if limits else "") if p)))
        out += ["**Parameters**", "", table(("Name", "In", "Type", "Required", "Description"),
                                            rows), ""]
    body = op.get("requestBody")
    if body:
        for content_type, content in body.get("content", {}).items():
            required = " (required)" if body.get("required") else " (optional)"
            out += [f"**Request body** `{content_type}`{required}", "",
                    _body(content.get("schema") or {}, components), ""]
    responses = []
    for status, response in op.get("responses", {}).items():
        bodies = []
        for content_type, content in (response.get("content") or {}).items():
            schema = content.get("schema") or {}
            if schema.get("$ref") or schema.get("oneOf") or schema.get("anyOf"):
                shape = " or ".join(_body_line(part, components)
                                    for part in (schema.get("oneOf") or schema.get("anyOf")
                                                 or [schema]))
            else:
                shape = type_of(schema, _link) if schema else "any"
            bodies.append(f"{shape} ({code(content_type)})")
        responses.append((status, response.get("description", ""), "; ".join(bodies) or "none"))
    out += ["**Responses**", "", table(("Status", "Meaning", "Body"), responses), ""]
    return "\n".join(out)


def render(arg: str = "") -> str:
    schema = openapi_schema()
    components = schema.get("components", {}).get("schemas", {})
    by_tag: dict[str, list[tuple[str, str, dict[str, Any]]]] = {}
    for path, method, op in operations(schema):
        by_tag.setdefault((op.get("tags") or ["other"])[0], []).append((path, method, op))
    out = [f"The portal serves this schema itself at `/schema/openapi.json` "
           f"({schema['info']['title']} {schema['info']['version']}, OpenAPI "
           f"{schema['openapi']}). {sum(len(ops) for ops in by_tag.values())} operations on "
           f"{len(schema['paths'])} paths. Those marked *bearer token* take the header "
           "`Authorization: Bearer <token>` with the token `choice token` prints; those under "
           "`/api/d/` are a participant's, authorised by the secret in their link.", ""]
    out += [table(("Tag", "Operations"),
                  ((tag, ", ".join(f"[{code(m + ' ' + p)}](#{_anchor(m, p)})"
                                   for p, m, _ in ops)) for tag, ops in by_tag.items())), ""]
    for tag, ops in by_tag.items():
        out += [f"## {tag}", ""]
        for path, method, op in ops:
            section = _operation(path, method, op, components)
            heading, rest = section.split("\n", 1)
            out += [f"{heading} {{#{_anchor(method, path)}}}\n{rest}"]
    out += ["## Schemas", "", "The bodies the operations above name, field by field.", ""]
    for name, component in sorted(components.items()):
        out += [f"### {name} {{#{schema_anchor(name)}}}", ""]
        if component.get("description"):
            out += [prose(component["description"]), ""]
        if component.get("properties"):
            out += [properties_table(component, _link), ""]
        else:
            out += [_body(component, components), ""]
        out += [collapsed(f"{name} as JSON Schema", json_block(component)), ""]
    return "\n".join(out)


def _anchor(method: str, path: str) -> str:
    slug = "".join(ch if ch.isalnum() else "-" for ch in path.lower()).strip("-")
    return f"{method.lower()}-{'-'.join(part for part in slug.split('-') if part)}"
