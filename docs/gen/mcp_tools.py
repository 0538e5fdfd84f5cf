"""The MCP tools reference: each tool's name, title, description, input and output schema, from
`choice/mcp/listing.json` (what the portal's own `tools/list` answers; `scripts/mcp-listing`
writes it and a test holds it equal to the server's)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from docs.gen._markdown import Schema, code, collapsed, json_block, properties_table, prose

LISTING = Path(__file__).resolve().parents[2] / "choice" / "mcp" / "listing.json"


def tools() -> list[dict[str, Any]]:
    listing: dict[str, Any] = json.loads(LISTING.read_text(encoding="utf-8"))
    return list(listing["tools"])


def _no_link(ref: str) -> str:
    return code(ref)


def _object(schema: Schema) -> Schema | None:
    """The object a field holds, through `null` alternatives and arrays; None if not one."""
    for part in schema.get("anyOf") or schema.get("oneOf") or []:
        found = _object(part)
        if found is not None:
            return found
    if schema.get("type") == "array" and isinstance(schema.get("items"), dict):
        return _object(schema["items"])
    return schema if schema.get("properties") else None


def _nested(schema: Schema, path: str) -> Iterator[tuple[str, Schema]]:
    """Every object inside `schema`'s fields, with where it sits (`questions[].options[]`)."""
    for name, field in (schema.get("properties") or {}).items():
        inner = _object(field)
        if inner is None:
            continue
        is_list = "array" in json.dumps([field.get("type"), *(
            part.get("type") for part in field.get("anyOf", []))])
        where = f"{path}{'.' if path else ''}{name}{'[]' if is_list else ''}"
        yield where, inner
        yield from _nested(inner, where)


def _tables(schema: Schema) -> list[str]:
    out = [properties_table(schema, _no_link), ""]
    for where, inner in _nested(schema, ""):
        out += [f"Fields of {code(where)}:", "", properties_table(inner, _no_link), ""]
    return out


def _output(schema: Schema) -> list[str]:
    variants = schema.get("anyOf") or [schema]
    out = []
    if len(variants) > 1:
        out += [f"`structuredContent` is one of {len(variants)} shapes:", ""]
    for number, variant in enumerate(variants, 1):
        about = prose(variant.get("description") or variant.get("title") or "")
        if len(variants) > 1:
            out += [f"**Shape {number}.** {about}".rstrip(), ""]
        elif about:
            out += [about, ""]
        out += _tables(variant)
    return out


def render(arg: str = "") -> str:
    listed = tools()
    out = ["Every tool the portal's MCP endpoint (`/mcp`) and `choice mcp` list, as their "
           "`tools/list` answers.", "",
           "| Tool | Title |", "|---|---|"]
    out += [f"| [{code(tool['name'])}](#{tool['name']}) | {tool.get('title', '')} |"
            for tool in listed]
    for tool in listed:
        out += ["", f"## `{tool['name']}` {{#{tool['name']}}}", ""]
        if tool.get("title"):
            out += [f"*{tool['title']}*", ""]
        out += [prose(tool.get("description", "")), "", "### Input", ""]
        out += _tables(tool.get("inputSchema") or {})
        out += [collapsed(f"{tool['name']} input schema (JSON)", json_block(tool["inputSchema"])),
                "", f"### Output {{#{tool['name']}-output}}", ""]
        same = next((other["name"] for other in listed[:listed.index(tool)]
                     if other.get("outputSchema") == tool.get("outputSchema")), None)
        if same and tool.get("outputSchema"):
            out += [f"The same as [{code(same)}'s](#{same}-output).", ""]
        elif tool.get("outputSchema"):
            out += _output(tool["outputSchema"])
            out += [collapsed(f"{tool['name']} output schema (JSON)",
                              json_block(tool["outputSchema"])), ""]
        else:
            out += ["No output schema: the result is text only.", ""]
    return "\n".join(out)
