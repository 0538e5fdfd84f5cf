"""The generated reference pages cover what the code has: every OpenAPI path and method,
every `CHOICE_*` variable (and the code names no other), every CLI command and option, every
MCP tool. `scripts/test` builds the site itself (`mkdocs build --strict`)."""

from __future__ import annotations

import dataclasses
import re
import socket
from pathlib import Path

import pytest

from choice.core.config import Settings
from choice.core.variables import VARIABLES
from docs import hooks
from docs.gen import cli, configuration, http_api, mcp_tools

ROOT = Path(__file__).resolve().parents[2]

INTERNAL: dict[str, str] = {}
"""`CHOICE_*` names the code may use without documenting them: name -> why (none so far)."""


@pytest.fixture(scope="module")
def openapi() -> dict[str, object]:
    return http_api.openapi_schema()


def test_every_openapi_operation_is_on_the_http_api_page(openapi: dict[str, object]) -> None:
    page = http_api.render("")
    operations = http_api.operations(openapi)
    assert len(operations) > 30
    for path, method, _ in operations:
        assert f"### `{method} {path}`" in page, (method, path)
    for name in openapi["components"]["schemas"]:  # type: ignore[index]
        assert f"{{#{http_api.schema_anchor(name)}}}" in page, name


def test_team_modes_operations_are_on_the_http_api_page_and_marked(
        openapi: dict[str, object]) -> None:
    page = http_api.render("")
    local = {(path, method) for path, method, _ in http_api.operations(openapi)}
    team = http_api.team_openapi_schema()
    team_only = [(path, method) for path, method, _ in http_api.operations(team)
                 if (path, method) not in local]
    assert {("/api/me", "GET"), ("/api/tokens", "POST"), ("/api/tokens/{token_id}", "DELETE"),
            ("/api/members", "GET")} <= set(team_only)
    for path, method in team_only:
        section = page.split(f"### `{method} {path}`", 1)[1].split("\n### ", 1)[0]
        assert http_api.TEAM_ONLY in section, (method, path)
    shared = page.split("### `GET /api/interactions`", 1)[1].split("\n### ", 1)[0]
    assert "Team mode only" not in shared
    team_section = page.split("## Team mode", 1)[1].split("\n## ", 1)[0]
    for route in ("GET /auth/callback", "GET /login", "GET /settings/tokens"):
        assert f"`{route}`" in team_section, route
    assert "{#schema-newmembertoken}\n\n*Team mode only*" in page


def test_building_the_team_mode_reference_contacts_no_provider() -> None:
    with socket.create_server(("127.0.0.1", 0)) as provider:
        provider.setblocking(False)
        port = provider.getsockname()[1]
        schema = http_api.team_openapi_schema(f"http://127.0.0.1:{port}")
        assert "/api/tokens" in schema["paths"]
        with pytest.raises(BlockingIOError):  # nothing connected while the app was built
            provider.accept()


def test_every_variable_is_on_the_configuration_page() -> None:
    page = configuration.render("")
    for variable in VARIABLES:
        assert f"### `{variable.name}`" in page, variable.name


def test_the_code_names_no_choice_variable_outside_the_table() -> None:
    documented = {variable.name for variable in VARIABLES} | set(INTERNAL)
    named: dict[str, set[str]] = {}
    for path in (ROOT / "choice").rglob("*"):
        if path.is_file() and path.suffix in (".py", ".json", ".html", ".js", ".toml"):
            for name in re.findall(r"\bCHOICE_[A-Z0-9_]*[A-Z0-9]", path.read_text("utf-8")):
                named.setdefault(name, set()).add(str(path.relative_to(ROOT)))
    assert named, "the scan found nothing: the pattern or the folder is wrong"
    undocumented = {name: files for name, files in named.items() if name not in documented}
    assert not undocumented, ("add these to choice/core/variables.py's VARIABLES (or INTERNAL "
                              f"here, saying why): {undocumented}")


def test_the_table_and_the_settings_agree() -> None:
    fields = {field.name for field in dataclasses.fields(Settings)}
    assert {variable.field for variable in VARIABLES} <= fields
    assert len({variable.name for variable in VARIABLES}) == len(VARIABLES)
    plain = Settings.from_env({})
    for variable in VARIABLES:
        if variable.kind in ("whole", "number", "flag", "choice") and variable.name != \
                "CHOICE_OPEN_BROWSER":
            expected = variable.choices[0] if variable.kind == "choice" else variable.default
            assert getattr(plain, variable.field) == expected, variable.name
            assert variable.kind != "choice" or variable.default == variable.choices[0]


def test_every_cli_command_and_option_is_on_the_cli_page() -> None:
    page = cli.render("")
    commands = cli.subcommands(cli.build_parser())
    assert {name for name, _, _ in commands} >= {"serve", "ask", "mcp", "hook", "db"}
    for name, _, parser in commands:
        assert f"## `choice {name}`" in page, name
        for action in parser._actions:
            for option in action.option_strings:
                assert option in page, (name, option)


def test_every_mcp_tool_is_on_the_mcp_tools_page() -> None:
    page = mcp_tools.render("")
    listed = mcp_tools.tools()
    assert {tool["name"] for tool in listed} >= {"provide_choice", "list_pending"}
    for tool in listed:
        assert f"## `{tool['name']}`" in page, tool["name"]
        for field in tool["inputSchema"].get("properties", {}):
            assert f"`{field}`" in page, (tool["name"], field)


def test_the_hook_fills_markers_and_fails_on_an_unknown_generator() -> None:
    page = "# CLI\n\nIntro.\n\n<!-- generated: cli -->\n\nAfter.\n"
    filled = hooks.fill(page)
    assert "<!-- generated" not in filled
    assert filled.startswith("# CLI\n\nIntro.\n\n") and filled.endswith("\n\nAfter.\n")
    assert "## `choice serve`" in filled
    assert hooks.fill("text <!-- generated: cli --> inline") == "text <!-- generated: cli --> inline"
    with pytest.raises(ModuleNotFoundError):
        hooks.fill("<!-- generated: no_such_generator some arg -->")


def test_every_reference_page_holds_its_marker() -> None:
    for page, name in (("http-api", "http_api"), ("configuration", "configuration"),
                       ("cli", "cli"), ("mcp-tools", "mcp_tools")):
        text = (ROOT / "docs" / "reference" / f"{page}.md").read_text("utf-8")
        assert f"<!-- generated: {name} -->" in text, page
