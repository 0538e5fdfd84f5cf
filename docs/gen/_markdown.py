"""What the generators share: Markdown table cells, and JSON Schema as a short type."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

Schema = Mapping[str, Any]
Linker = Callable[[str], str]
"""A `$ref` (`#/components/schemas/Name`, `#/$defs/Name`) -> Markdown for its name."""


def cell(text: object) -> str:
    """One table cell: on one line, pipes escaped."""
    return re.sub(r"\s*\n\s*", " ", str(text)).replace("|", "\\|").strip()


def prose(text: str) -> str:
    """A docstring as Markdown: its lines joined, its paragraphs kept."""
    paragraphs = re.split(r"\n\s*\n", text.strip())
    return "\n\n".join(" ".join(part.split()) for part in paragraphs)


def code(text: object) -> str:
    """Inline code that survives backticks inside."""
    value = str(text)
    fence = "``" if "`" in value else "`"
    pad = " " if value.startswith("`") or value.endswith("`") else ""
    return f"{fence}{pad}{value}{pad}{fence}"


def table(header: Iterable[str], rows: Iterable[Iterable[object]]) -> str:
    head = list(header)
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(cell(value) for value in row) + " |" for row in rows]
    return "\n".join(lines)


def json_block(value: Any) -> str:
    return "```json\n" + json.dumps(value, indent=2, ensure_ascii=False) + "\n```"


def collapsed(title: str, body: str) -> str:
    """A collapsed block (pymdownx.details): its body indented under the summary."""
    inner = "\n".join("    " + line if line else "" for line in body.splitlines())
    return f'??? note "{title}"\n\n{inner}'


def ref_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]


def type_of(schema: Schema, link: Linker) -> str:
    """`string`, `integer`, `array of Option`, `"web" or "terminal"`, ... (Markdown)."""
    if "$ref" in schema:
        return link(schema["$ref"])
    for key in ("anyOf", "oneOf"):
        if key in schema:
            kinds = [type_of(part, link) for part in schema[key]]
            if "enum" in schema:  # Litestar puts the enum beside a oneOf of its types
                kinds = [type_of({"enum": schema["enum"]}, link)]
            return " or ".join(dict.fromkeys(kinds))
    if "const" in schema:
        return code(json.dumps(schema["const"], ensure_ascii=False))
    if "enum" in schema:
        return " or ".join(code(json.dumps(v, ensure_ascii=False)) for v in schema["enum"])
    kind = schema.get("type")
    if isinstance(kind, list):
        return " or ".join(kind)
    if kind == "array":
        items = schema.get("items")
        return "array of " + (type_of(items, link) if isinstance(items, Mapping) else "any")
    if kind == "object" and schema.get("title") and "properties" in schema:
        return f"object ({schema['title']})"
    return str(kind or "any")


def constraints(schema: Schema) -> str:
    """Bounds, pattern and default, read from the schema and its nullable variants."""
    parts: list[str] = []
    variants = [schema, *(v for k in ("anyOf", "oneOf") for v in schema.get(k, []))]
    pairs = (("minLength", "maxLength", "characters"), ("minItems", "maxItems", "items"),
             ("minimum", "maximum", ""))
    for variant in variants:
        for low_key, high_key, unit in pairs:
            low, high = variant.get(low_key), variant.get(high_key)
            if low is None and high is None:
                continue
            if low is not None and high is not None:
                text = f"{_number(low)} to {_number(high)}"
            else:
                text = f"at least {_number(low)}" if low is not None else f"at most {_number(high)}"
            text += f" {unit}" if unit else ""
            if text not in parts:
                parts.append(text)
        for key, word in (("exclusiveMinimum", "more than"), ("exclusiveMaximum", "less than")):
            if key in variant:
                parts.append(f"{word} {_number(variant[key])}")
        if "pattern" in variant:
            parts.append("pattern " + code(variant["pattern"]))
    if "default" in schema:
        parts.append("default " + code(json.dumps(schema["default"], ensure_ascii=False)))
    return "; ".join(parts)


def _number(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def properties_table(schema: Schema, link: Linker) -> str:
    """An object schema's fields: name, type, required, description and constraints."""
    required = set(schema.get("required", []))
    rows = []
    for name, field in (schema.get("properties") or {}).items():
        about = field.get("description") or ""
        limits = constraints(field)
        rows.append((code(name), type_of(field, link), "yes" if name in required else "",
                     " ".join(part for part in (about, f"({limits})" if limits else "") if part)))
    if not rows:
        return "No fields" + (": any JSON object." if schema.get("type") == "object" else ".")
    return table(("Field", "Type", "Required", "Description"), rows)
