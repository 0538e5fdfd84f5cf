"""The commands that start on every prompt stay light: `choice ask`, `choice answer` and
`choice mcp` (and whoever only catches `choice.client`'s errors) import none of the heavy
packages. Each probe is a fresh interpreter, so nothing the test run loaded counts.
Figures: `bench/client_imports_bench.py`."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.portal_process import ROOT

LIGHT = {
    "choice.cli.ask": "from choice.cli import ask",
    "choice.terminal.answer_command": "from choice.terminal import answer_command",
    "choice.mcp.bridge": "from choice.mcp import bridge",
    "choice.client (its errors)": "from choice.client import ClientError, PortalNotRunning",
}
HEAVY = ["httpx", "pydantic", "litestar", "sqlalchemy", "mcp", "msgspec"]
"""msgspec: the portal's records and views are Structs; the modules these commands share
with it keep dataclasses (`bench/start_imports.py` lists those a portal's start makes)."""
KNOWN = {
    ("choice.terminal.answer_command", "pydantic"):
        "the terminal reads a question through the contract's pydantic models "
        "(choice.terminal.question: ChoiceRequest); not the client's to change",
}
"""What is loaded today although it should not be: strict, so the day it goes the marker
has to go too."""


def loaded_by(statement: str) -> set[str]:
    probe = f"import json, sys\n{statement}\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          cwd=ROOT, timeout=60, check=True)
    return set(json.loads(done.stdout))


@pytest.fixture(scope="module")
def loaded() -> dict[str, set[str]]:
    return {entry: loaded_by(statement) for entry, statement in LIGHT.items()}


@pytest.mark.parametrize("entry,heavy", [
    pytest.param(entry, heavy, marks=[pytest.mark.xfail(strict=True, reason=KNOWN[entry, heavy])]
                 if (entry, heavy) in KNOWN else [])
    for entry in LIGHT for heavy in HEAVY])
def test_a_fast_command_leaves_the_heavy_package_out(
        loaded: dict[str, set[str]], entry: str, heavy: str) -> None:
    modules = loaded[entry]
    assert entry.split(" ")[0] in modules  # the probe really imported it
    assert sorted(m for m in modules if m == heavy or m.startswith(f"{heavy}.")) == []


def test_the_python_api_still_loads_its_types_when_asked() -> None:
    """The other side of the line: the typed layer is there once `ask` is used."""
    modules = loaded_by("from choice.client import ask, AsyncClient")
    assert "pydantic" in modules and "choice.client.replies" in modules
    assert "httpx" not in modules  # one HTTP client: the standard library's
