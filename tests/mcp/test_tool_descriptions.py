"""choice/mcp/tools.py and the server's instructions: what a model reads about each tool
names only fields that tool has. A description that says "`prompt` must carry the task
context" on a tool that refuses `prompt` as unknown teaches the model to fail. Checked on
the live listing, the one `/mcp` and the stdio bridge answer."""

from __future__ import annotations

import re
from typing import Any

import pytest

from choice.mcp.snapshot import ask_the_server
from choice.mcp.tools import TOOLS_BY_NAME

BACKTICKED = re.compile(r"`([A-Za-z_][A-Za-z0-9_]*)`")
BRACED = re.compile(r"\{([^{}]*)\}")


@pytest.fixture
def listing() -> dict[str, Any]:
    return ask_the_server()


def input_fields(node: Any) -> set[str]:
    """Every property name in a schema, at any depth (an option's `title`, a question's
    `question`)."""
    found: set[str] = set()
    if isinstance(node, dict):
        if isinstance(node.get("properties"), dict):
            found |= set(node["properties"])
        for value in node.values():
            found |= input_fields(value)
    elif isinstance(node, list):
        for value in node:
            found |= input_fields(value)
    return found


def result_fields(schema: dict[str, Any]) -> set[str]:
    """The top-level fields of any reply a tool returns ("the result's `answers`")."""
    return {name for branch in schema.get("anyOf", [schema])
            for name in branch.get("properties", {})}


def named_in(description: str) -> set[str]:
    """The field names a description spells out: `backticked`, and the items of each object
    sketch such as {title, description, isRecommended}, nested sketches included."""
    named = set(BACKTICKED.findall(description))
    while sketch := BRACED.search(description):  # innermost first, then the one around it
        for item in sketch.group(1).split(","):
            word = re.match(r"\s*([A-Za-z_][A-Za-z0-9_]*)", item)
            if word:
                named.add(word.group(1))
        description = description[:sketch.start()] + description[sketch.end():]
    return named


def test_every_field_a_tool_description_names_is_a_field_of_that_tool(
        listing: dict[str, Any]) -> None:
    strays = {}
    for tool in listing["tools"]:
        known = input_fields(tool["inputSchema"]) | result_fields(tool.get("outputSchema", {}))
        unknown = named_in(tool["description"]) - known
        if unknown:
            strays[tool["name"]] = sorted(unknown)
    assert strays == {}


@pytest.mark.parametrize(("tool", "field"), [
    ("provide_choice", "prompt"), ("hitl_request", "question"),
    ("request_user_choice", "question"), ("ask_user_question", "question")])
def test_each_asking_tool_says_which_of_its_own_fields_carries_the_task_context(
        tool: str, field: str) -> None:
    description = TOOLS_BY_NAME[tool].description
    assert f"`{field}` must carry the task context" in description
    assert field in input_fields(TOOLS_BY_NAME[tool].input_schema())


def test_the_instructions_name_only_fields_of_the_asking_tools(listing: dict[str, Any]) -> None:
    instructions = listing["initialize"]["instructions"]
    fields = {tool["name"]: input_fields(tool["inputSchema"]) for tool in listing["tools"]}
    assert set(BACKTICKED.findall(instructions)) == {"prompt", "question"}
    assert "prompt" in fields["provide_choice"]
    assert all("question" in fields[name] and "prompt" not in fields[name]
               for name in ("hitl_request", "request_user_choice", "ask_user_question"))
