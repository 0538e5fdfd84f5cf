"""The MCP package stands apart from the web package: its tools and server import no
`choice.web` module (they share the contract and `choice.contract.schemas`, not the web layer)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


@pytest.mark.parametrize("module", ["choice.mcp.tools", "choice.mcp.server", "choice.mcp.asgi"])
def test_importing_the_mcp_side_imports_nothing_from_the_web_package(module: str) -> None:
    probe = f"import json, sys, {module}; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60, check=True)
    loaded = json.loads(done.stdout)
    assert module in loaded  # the probe really imported it
    assert [name for name in loaded if name == "choice.web" or name.startswith("choice.web.")] == []


def test_tool_schemas_stand_alone_without_refs() -> None:
    from choice.mcp.tools import TOOLS

    for tool in TOOLS:
        assert "$ref" not in str(tool.input_schema()), tool.name
        assert "$defs" not in tool.input_schema(), tool.name
