"""The built wheel works where users install it: a fresh venv, not editable, no checkout.

Builds the wheel with uv (as `uv build` / `pipx install .` / `uv tool install .` would),
installs it into a new venv with the lock as constraints, and from that venv, started
outside the repository: `choice serve` renders a question in English and in Chinese with
its hashed bundle, and `choice mcp` completes an MCP `tools/list`.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from choice.client.portal_client import PortalClient
from tests.portal_process import READY_LINE, ROOT, free_port

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
        inherited = {k: v for k, v in os.environ.items()
                     if not k.startswith(("CHOICE_", "PYTHON", "VIRTUAL_ENV"))}
        return {**inherited, "CHOICE_DATA_DIR": str(data_dir), "CHOICE_PORT": str(port),
                "CHOICE_OPEN_BROWSER": "0", "PATH": f"{self.bin}:{inherited.get('PATH', '')}"}


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


@dataclass(frozen=True)
class Served:
    base_url: str
    token: str

    def call(self, method: str, path: str, body: object = None) -> dict[str, object]:
        reply: dict[str, object] = PortalClient(self.base_url, self.token).call(method, path, body)
        return reply


@pytest.fixture
def served(installed: Installed, tmp_path: Path) -> Iterator[Served]:
    port = free_port()
    process = subprocess.Popen([installed.bin / "choice", "serve"], cwd=installed.home,
                               env=installed.env(tmp_path / "data", port),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    log = []
    try:
        for line in process.stdout:  # bounded: the process exits if it cannot start
            log.append(line)
            if READY_LINE in line:
                break
        else:
            pytest.fail("the installed portal did not start:\n" + "".join(log))
    except BaseException:  # failed or interrupted (the suite's timeout): leave no portal
        process.kill()
        process.wait(timeout=10)
        raise
    try:
        yield Served(f"http://127.0.0.1:{port}", (tmp_path / "data" / "token").read_text().strip())
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_the_wheel_carries_the_resources_and_no_checkout_paths(installed: Installed) -> None:
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    assert set(RESOURCES) <= names
    assert not any(name.startswith(("templates/", "static/", "tests/")) for name in names)
    location = _run(installed.bin / "python", "-c",
                    "import choice.core.resources as r; print(r.RESOURCES.root)", cwd=installed.home)
    assert Path(location.strip()).is_relative_to(installed.bin.parent)


@pytest.mark.parametrize(("language", "submit"), [("en", "Submit"), ("zh", "提交")])
def test_the_installed_portal_renders_a_question_with_its_bundle(
        served: Served, language: str, submit: str) -> None:
    created = served.call("POST", "/api/interactions", {
        "title": "Pick a database", "prompt": "Both fit.", "language": language,
        "options": [{"id": "pg", "label": "PostgreSQL"}, {"id": "lite", "label": "SQLite"}]})
    with httpx.Client(base_url=served.base_url, follow_redirects=True, timeout=10) as browser:
        page = browser.get("/login", params={"token": served.token,
                                             "next": f"/choice/{created['interaction_id']}"})
        assert page.status_code == 200
        assert f'<html lang="{language}">' in page.text
        assert submit in page.text and "PostgreSQL" in page.text
        assert '"{n} second left":' in page.text  # the scripts' messages, found in the wheel
        bundles = re.findall(r'/static/bundle\.[0-9a-f]{16}\.(?:js|css)', page.text)
        assert {url.rsplit(".", 1)[1] for url in bundles} == {"js", "css"}
        for url in bundles:
            fetched = browser.get(url)
            assert fetched.status_code == 200 and len(fetched.content) > 1000


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
        assert tools == {"provide_choice", "hitl_request", "request_user_choice",
                         "ask_user_question", "list_pending", "submit_candidate",
                         "withdraw_question"}
    finally:
        client = PortalClient(f"http://127.0.0.1:{port}", None)
        if client.is_portal():  # the bridge started one: stop it (its pid is the owner's to see)
            owner = PortalClient(client.base_url, (tmp_path / "data" / "token").read_text().strip())
            os.kill(owner.call("GET", "/healthz")["pid"], signal.SIGTERM)


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
