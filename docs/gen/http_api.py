"""The HTTP API reference: every path and method of the portal's OpenAPI schema, grouped by
tag, then every schema the operations name. The schema is the one the running portal serves
at `/schema/openapi.json`, in both modes, so the page never depends on who builds the docs:
`choice.portal.create_app()` on an empty data dir with no `CHOICE_*` variable set (local
mode), and again in team mode (`CHOICE_AUTH=oidc`) with a made-up provider under `.invalid`,
a name that never resolves. Building a team-mode app contacts no provider: discovery waits
for the first sign-in. What only the team-mode app serves (found by comparing the two apps'
schemas and routes) is marked "team mode only"; browser routes outside the schema are
listed by path.
"""

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
MADE_UP_ISSUER = "https://issuer.example.invalid"
"""Team mode's provider for the reference: `.invalid` is reserved never to resolve."""
TEAM_ONLY = "*Team mode only* (`CHOICE_AUTH=oidc`): a local-mode portal does not serve it."


def team_mode_env(issuer: str = MADE_UP_ISSUER) -> dict[str, str]:
    """The variables of a team-mode portal that signs nobody in: enough for it to start."""
    return {"CHOICE_AUTH": "oidc", "CHOICE_OIDC_ISSUER": issuer,
            "CHOICE_OIDC_CLIENT_ID": "choice-docs", "CHOICE_OIDC_CLIENT_SECRET": "choice-docs",
            "CHOICE_PUBLIC_URL": "https://choice.example.invalid"}


Routes = dict[tuple[str, str], Any]
"""(path as routed, METHOD) -> the handler's function, HEAD and OPTIONS left out."""


def _built(env: Mapping[str, str]) -> tuple[dict[str, Any], Routes]:
    """The app's OpenAPI schema and its routes, for a portal made with only `env`."""
    from choice.core.config import Settings
    from choice.portal import create_app

    with tempfile.TemporaryDirectory(prefix="choice-docs-") as data_dir:
        settings = Settings.from_env({**env, "CHOICE_DATA_DIR": str(Path(data_dir))})
        app = create_app(settings, log_level="WARNING")
        routes = {(route.path, method): handler.fn for route in app.routes
                  for handler in getattr(route, "route_handlers", ())
                  for method in getattr(handler, "http_methods", None) or ()
                  if method not in ("HEAD", "OPTIONS")}
        schema: dict[str, Any] = app.openapi_schema.to_schema()
        return schema, routes


def openapi_schema() -> dict[str, Any]:
    """The local-mode portal's schema (no `CHOICE_*` variable set)."""
    return _built({})[0]


def team_openapi_schema(issuer: str = MADE_UP_ISSUER) -> dict[str, Any]:
    """The team-mode portal's schema, its provider at `issuer` (never contacted)."""
    return _built(team_mode_env(issuer))[0]


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
               components: Mapping[str, Any], *, team_only: bool = False) -> str:
    out = [f"### `{method} {path}`", ""]
    if team_only:
        out += [TEAM_ONLY, ""]
    auth = ("bearer token" if op.get("security") else
            "no token: the link's secret" if path.startswith("/api/d/") else "no token")
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


def merged(local: Mapping[str, Any], team: Mapping[str, Any]) -> dict[str, Any]:
    """One schema holding both modes' operations and components: local mode's, in its order,
    then what only team mode adds."""
    schema = {**team, "paths": {path: dict(item) for path, item in local["paths"].items()}}
    for path, item in team["paths"].items():
        schema["paths"].setdefault(path, {}).update(
            {method: op for method, op in item.items() if method not in schema["paths"][path]})
    schema["components"] = {**team.get("components", {}), "schemas": {
        **local.get("components", {}).get("schemas", {}),
        **team.get("components", {}).get("schemas", {})}}
    return schema


def _schema_path(routed: str) -> str:
    """`/api/d/{secret:str}` (as routed) -> `/api/d/{secret}` (as in the schema)."""
    return "/".join(part.split(":", 1)[0] + "}" if part.startswith("{") else part
                    for part in routed.split("/"))


def _first_sentence(fn: Any) -> str:
    doc = prose(fn.__doc__ or "").split("\n\n", 1)[0]
    return doc.split(". ", 1)[0].rstrip(".")


def render(arg: str = "") -> str:
    local, local_routes = _built({})
    team, team_routes = _built(team_mode_env())
    schema = merged(local, team)
    components = schema.get("components", {}).get("schemas", {})
    local_operations = {(path, method) for path, method, _ in operations(local)}
    team_only = [(path, method) for path, method, _ in operations(schema)
                 if (path, method) not in local_operations]
    team_only_schemas = set(components) - set(local.get("components", {}).get("schemas", {}))
    team_pages = [f"{method} {_schema_path(path)}" for path, method in sorted(team_routes)
                  if (path, method) not in local_routes
                  and (_schema_path(path), method) not in team_only]
    changed = [(f"{method} {_schema_path(path)}", team_routes[(path, method)])
               for (path, method), fn in local_routes.items()
               if (path, method) in team_routes and _name(team_routes[(path, method)]) != _name(fn)]
    by_tag: dict[str, list[tuple[str, str, dict[str, Any]]]] = {}
    for path, method, op in operations(schema):
        by_tag.setdefault((op.get("tags") or ["other"])[0], []).append((path, method, op))
    out = [f"The portal serves this schema itself at `/schema/openapi.json` "
           f"({schema['info']['title']} {schema['info']['version']}, OpenAPI "
           f"{schema['openapi']}). {sum(len(ops) for ops in by_tag.values())} operations on "
           f"{len(schema['paths'])} paths, {len(team_only)} of them "
           "[team mode only](#team-mode). Those marked *bearer token* take the header "
           "`Authorization: Bearer <token>`: in local mode the token `choice token` prints, in "
           "team mode a member's personal agent token; those under `/api/d/` are a "
           "participant's, authorised by the secret in their link.", ""]
    out += [table(("Tag", "Operations"),
                  ((tag, ", ".join(f"[{code(m + ' ' + p)}](#{_anchor(m, p)})"
                                   + (" *(team mode)*" if (p, m) in team_only else "")
                                   for p, m, _ in ops)) for tag, ops in by_tag.items())), ""]
    out += ["## Team mode {#team-mode}", "",
            "A portal in team mode (`CHOICE_AUTH=oidc`: [Team mode](../guides/team-mode.md)) "
            "serves every operation on this page. These only it serves: "
            + ", ".join(f"[{code(m + ' ' + p)}](#{_anchor(m, p)})" for p, m in team_only)
            + ". Its members' browsers also reach routes outside this schema (sign-in, the "
            "settings pages, the pages of questions widened to them): "
            + ", ".join(code(route) for route in team_pages) + "."]
    if changed:
        out += ["", "Served differently in team mode: " + "; ".join(
            f"{code(route)}: {_first_sentence(fn)}" for route, fn in changed) + "."]
    out += [""]
    for tag, ops in by_tag.items():
        out += [f"## {tag}", ""]
        for path, method, op in ops:
            section = _operation(path, method, op, components,
                                 team_only=(path, method) in team_only)
            heading, rest = section.split("\n", 1)
            out += [f"{heading} {{#{_anchor(method, path)}}}\n{rest}"]
    out += ["## Schemas", "", "The bodies the operations above name, field by field.", ""]
    for name, component in sorted(components.items()):
        out += [f"### {name} {{#{schema_anchor(name)}}}", ""]
        if name in team_only_schemas:
            out += ["*Team mode only* (`CHOICE_AUTH=oidc`).", ""]
        if component.get("description"):
            out += [prose(component["description"]), ""]
        if component.get("properties"):
            out += [properties_table(component, _link), ""]
        else:
            out += [_body(component, components), ""]
        out += [collapsed(f"{name} as JSON Schema", json_block(component)), ""]
    return "\n".join(out)


def _name(fn: Any) -> str:
    return f"{fn.__module__}.{fn.__qualname__}"


def _anchor(method: str, path: str) -> str:
    slug = "".join(ch if ch.isalnum() else "-" for ch in path.lower()).strip("-")
    return f"{method.lower()}-{'-'.join(part for part in slug.split('-') if part)}"
