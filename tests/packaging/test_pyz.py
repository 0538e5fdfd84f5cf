"""The one-file build runs alone: `scripts/build-pyz` makes `choice-portal.pyz`, which is
copied by itself into an empty directory and run from there by a clean CPython (`python -I`:
no venv, no site-packages, no current directory on the path), with no `CHOICE_*`, `PYTHON*`
or `PEX_*` variables of the caller and a HOME of its own (where pex unpacks it). Under each
CPython it is built for that this machine has, from that file: `serve` renders a question in
English and in Chinese with its hashed bundle and answers the MCP SDK's client on `/mcp`
(on SQLite, and on PostgreSQL with the driver it carries);
`ask` prints the result of an answer given through the API; the MCP configuration it prints
launches `choice mcp` from the same file, which starts a portal and completes a call.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx2
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from choice.client.portal_client import PortalClient
from tests.packaging.built_portal import (
    LANGUAGES,
    MCP_TOOLS,
    Served,
    assert_renders_a_question,
    clean_env,
    serving,
    stop_started_portal,
)
from tests.pg_cluster import Cluster
from tests.portal_process import ROOT, free_port

# The first test's setup builds the file (pex resolves every dependency for three Python
# versions and compresses ~250 MB: 1.5-3 min on two busy cores); each interpreter's first
# run unpacks it (~10 s).
pytestmark = [pytest.mark.slow(seconds=10), pytest.mark.timeout(600)]
NAME = "choice-portal.pyz"


@dataclass(frozen=True)
class OneFile:
    python: Path
    """A CPython outside any venv: the one this test's venv was made from, or pyenv's."""
    folder: Path
    """An empty directory but for the file: the working directory of every run."""
    home: Path
    """HOME of every run: pex unpacks the file under `~/.cache/pex`."""

    def command(self, *args: str) -> list[str]:
        return [str(self.python), "-I", NAME, *args]

    def env(self, data_dir: Path, port: int, **extra: str) -> dict[str, str]:
        return clean_env(data_dir, port, HOME=str(self.home), **extra)


def _interpreters() -> dict[str, Path]:
    """The interpreter this test's venv was made from, and one CPython of each other version
    the file is built for (`TARGETS` in scripts/build_pyz.py) that pyenv holds here."""
    own = f"{sys.version_info[0]}.{sys.version_info[1]}"
    found = {own: Path(sys.base_prefix) / "bin" / f"python{own}"}
    versions = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    for version in ("3.11", "3.12", "3.13"):
        pythons = sorted(versions.glob(f"{version}.*/bin/python{version}"))
        if version not in found and pythons:
            found[version] = pythons[-1]
    return found


INTERPRETERS = _interpreters()


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    out = tmp_path_factory.mktemp("pyz-build") / NAME
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}"}
    done = subprocess.run([ROOT / "scripts" / "build-pyz", "-o", out], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=540)
    assert done.returncode == 0, f"scripts/build-pyz failed:\n{done.stdout}\n{done.stderr}"
    yield out
    out.unlink()  # ~80 MB


@pytest.fixture(scope="module", params=sorted(INTERPRETERS), ids=lambda version: f"python{version}")
def one_file(request: pytest.FixtureRequest, built: Path,
             tmp_path_factory: pytest.TempPathFactory) -> Iterator[OneFile]:
    work = tmp_path_factory.mktemp(f"pyz-{request.param}")
    folder, home = work / "alone", work / "home"
    folder.mkdir()
    home.mkdir()
    shutil.copy2(built, folder / NAME)
    yield OneFile(INTERPRETERS[request.param], folder, home)
    shutil.rmtree(folder)  # the copy (~80 MB) and what pex unpacked from it (~280 MB)
    shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="module")
def portal_env(one_file: OneFile, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The served portal's environment: its data dir (and token) and port."""
    return one_file.env(tmp_path_factory.mktemp("pyz-data"), free_port())


@pytest.fixture(scope="module")
def served(one_file: OneFile, portal_env: dict[str, str]) -> Iterator[Served]:
    with serving(one_file.command("serve", "--port", portal_env["CHOICE_PORT"]), one_file.folder,
                 portal_env) as portal:
        yield portal


def test_running_it_leaves_its_folder_holding_the_file_alone(one_file: OneFile, served: Served) -> None:
    assert [path.name for path in one_file.folder.iterdir()] == [NAME]


@pytest.mark.parametrize(("language", "submit"), LANGUAGES)
def test_the_file_renders_a_question_with_its_bundle(served: Served, language: str,
                                                     submit: str) -> None:
    assert_renders_a_question(served, language, submit)


async def test_the_file_answers_the_mcp_client_over_http(served: Served) -> None:
    headers = {"Authorization": f"Bearer {served.token}"}
    async with httpx2.AsyncClient(headers=headers, timeout=30) as http, \
            streamable_http_client(f"{served.base_url}/mcp", http_client=http) as streams, \
            ClientSession(streams[0], streams[1]) as session:
        initialized = await session.initialize()
        tools = {tool.name for tool in (await session.list_tools()).tools}
    assert initialized.server_info.name and tools == MCP_TOOLS


def test_the_file_serves_from_postgresql_with_the_driver_it_carries(
        one_file: OneFile, pg_cluster: Cluster, tmp_path: Path) -> None:
    port = free_port()
    env = one_file.env(tmp_path / "data", port,
                       CHOICE_DB_URL=pg_cluster.new_database(migrated=False))
    with serving(one_file.command("serve", "--port", str(port)), one_file.folder, env) as portal:
        portal.call("POST", "/api/interactions", {
            "title": "Pick a store", "prompt": "Both fit.",
            "options": [{"id": "pg", "label": "PostgreSQL"}, {"id": "lite", "label": "SQLite"}]})
        listed = PortalClient(portal.base_url, portal.token).list()["interactions"]
    assert [row["title"] for row in listed] == ["Pick a store"]
    assert not (tmp_path / "data" / "choice.db").exists()


def test_ask_from_the_file_prints_the_result_of_an_answer(
        one_file: OneFile, served: Served, portal_env: dict[str, str]) -> None:
    asking = subprocess.Popen(one_file.command("ask", "Pick a store", "--prompt", "Both fit.",
                                               "--option", "pg=PostgreSQL", "--option",
                                               "lite=SQLite", "--timeout", "120", "--no-start"),
                              cwd=one_file.folder, env=portal_env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert asking.stderr is not None
        said = []
        for line in asking.stderr:  # bounded: it exits if it cannot ask
            said.append(line)
            if found := re.search(r"choice answer ([0-9a-f]+)", line):
                break
        else:
            pytest.fail("choice ask ended before asking:\n" + "".join(said))
        served.call("POST", f"/api/interactions/{found.group(1)}/response",
                    {"selected_ids": ["lite"]})
        stdout, _ = asking.communicate(timeout=60)
    finally:
        if asking.poll() is None:
            asking.kill()
            asking.wait(timeout=10)
    assert asking.returncode == 0
    result = json.loads(stdout)
    assert result["status"] == "submitted" and result["selected_labels"] == ["SQLite"]


async def test_the_printed_mcp_config_runs_the_bridge_from_the_file(one_file: OneFile,
                                                                   tmp_path: Path) -> None:
    port, data_dir = free_port(), tmp_path / "data"
    env = one_file.env(data_dir, port, CHOICE_MCP_WAIT_SECONDS="1")
    printed = subprocess.run(one_file.command("mcp-config", "json"), cwd=one_file.folder, env=env,
                             capture_output=True, text=True, timeout=60, check=True)
    command = json.loads(printed.stdout)["command_form"]
    assert command["args"] == ["-I", str(one_file.folder / NAME), "mcp"]  # the file, not a cache
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    params = StdioServerParameters(command=command["command"], args=command["args"],
                                   env={**env, "PATH": "/usr/bin:/bin"}, cwd=elsewhere)
    try:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            tools = {tool.name for tool in (await session.list_tools()).tools}
            asked = await session.call_tool("provide_choice", {
                "title": "Pick a store", "prompt": "Both fit.",
                "options": [{"id": "pg", "label": "PostgreSQL"}, {"id": "lite", "label": "SQLite"}]})
        assert tools == MCP_TOOLS
        pending = asked.structured_content or {}
        assert pending["status"] == "pending", asked
        owner = PortalClient(f"http://127.0.0.1:{port}", (data_dir / "token").read_text().strip())
        assert [row["title"] for row in owner.list()["interactions"]] == ["Pick a store"]
    finally:
        stop_started_portal(port, data_dir)
