"""The built wheel works where users install it: a fresh venv, not editable, no checkout.

Builds the wheel with uv (as `uv build` / `pipx install .` / `uv tool install .` would),
installs it into a new venv with the lock as constraints, and from that venv, started
outside the repository: `choice serve` renders a question in English and in Chinese with
its hashed bundle, and `choice mcp` completes an MCP `tools/list`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests.packaging.built_portal import (
    LANGUAGES,
    MCP_TOOLS,
    Served,
    assert_renders_a_question,
    clean_env,
    serving,
    stop_started_portal,
)
from tests.portal_process import ROOT, free_port

pytestmark = pytest.mark.slow

RESOURCES = ("choice/_resources/manifest.toml", "choice/_resources/templates/base.html",
             "choice/_resources/locales/zh/LC_MESSAGES/messages.po",
             "choice/_resources/static/vendor/htmx.min.js")


@dataclass(frozen=True)
class Installed:
    wheel: Path
    bin: Path
    home: Path
    """A working directory outside the checkout: nothing can be imported from the repo."""

    def env(self, data_dir: Path, port: int) -> dict[str, str]:
        return clean_env(data_dir, port, PATH=f"{self.bin}:{os.environ.get('PATH', '')}")


def _run(*command: str | Path, cwd: Path = ROOT) -> str:
    """Without the caller's PYTHONPATH: pointed at a checkout, it would make the venv's
    Python import the checkout instead of the installed wheel."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    done = subprocess.run([str(part) for part in command], cwd=cwd, capture_output=True,
                          text=True, timeout=300, env=env)
    assert done.returncode == 0, f"{command} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    work = tmp_path_factory.mktemp("wheel")
    _run(sys.executable, "-m", "uv", "build", "--wheel", "--quiet", "--out-dir", work / "dist")
    (wheel,) = (work / "dist").glob("choice_portal-*.whl")
    venv = work / "venv"
    _run(sys.executable, "-m", "uv", "venv", "--quiet", "--python", sys.executable, venv)
    _run(sys.executable, "-m", "uv", "pip", "install", "--quiet", "--python", venv / "bin" / "python",
         "--constraints", ROOT / "requirements.lock", wheel)
    home = work / "elsewhere"
    home.mkdir()
    return Installed(wheel, venv / "bin", home)


@pytest.fixture
def served(installed: Installed, tmp_path: Path) -> Iterator[Served]:
    with serving([installed.bin / "choice", "serve"], installed.home,
                 installed.env(tmp_path / "data", free_port())) as portal:
        yield portal


def test_the_wheel_carries_the_resources_and_no_checkout_paths(installed: Installed) -> None:
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    assert set(RESOURCES) <= names
    assert not any(name.startswith(("templates/", "static/", "tests/")) for name in names)
    location = _run(installed.bin / "python", "-c",
                    "import choice.core.resources as r; print(r.RESOURCES.root)", cwd=installed.home)
    assert Path(location.strip()).is_relative_to(installed.bin.parent)


@pytest.mark.parametrize(("language", "submit"), LANGUAGES)
def test_the_installed_portal_renders_a_question_with_its_bundle(
        served: Served, language: str, submit: str) -> None:
    assert_renders_a_question(served, language, submit)


async def test_the_printed_mcp_config_launches_the_installed_bridge(
        installed: Installed, tmp_path: Path) -> None:
    port = free_port()
    env = installed.env(tmp_path / "data", port)
    printed = subprocess.run([installed.bin / "choice", "mcp-config", "json"], cwd=installed.home,
                             env=env, capture_output=True, text=True, timeout=30, check=True)
    command = json.loads(printed.stdout)["command_form"]
    assert command["command"] == str(installed.bin / "choice")  # absolute: no PATH needed
    params = StdioServerParameters(command=command["command"], args=command["args"],
                                   env={**env, "PATH": "/usr/bin:/bin"}, cwd=installed.home)
    try:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            tools = {tool.name for tool in (await session.list_tools()).tools}
        assert tools == MCP_TOOLS
    finally:
        stop_started_portal(port, tmp_path / "data")


def test_a_missing_catalog_stops_the_start_with_its_path(installed: Installed,
                                                         tmp_path: Path) -> None:
    catalog = installed.bin.parent.glob("lib/python*/site-packages/choice/_resources/locales/zh/"
                                        "LC_MESSAGES/messages.po")
    (path,) = catalog
    hidden = path.with_suffix(".hidden")
    path.rename(hidden)
    try:
        done = subprocess.run([installed.bin / "choice", "serve"], cwd=installed.home,
                              env=installed.env(tmp_path / "data", free_port()),
                              capture_output=True, text=True, timeout=60)
    finally:
        hidden.rename(path)
    assert done.returncode == 1
    assert str(path) in done.stderr and "Traceback" not in done.stderr
