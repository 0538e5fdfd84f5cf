"""The clients pointed at a team server with `CHOICE_URL` and `CHOICE_TOKEN`.

The "team server" is a real portal in a data dir of its own; every client runs from a
different, empty data dir, with `CHOICE_HOST` / `CHOICE_PORT` naming a port where nothing
listens. Each test checks that the client got its answer from the server and that its own
data dir is still empty: no portal was started, no database or token file was made.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp.shared.exceptions import MCPError

from choice.client import AsyncClient, Client, PortalNotRunning, PortalRefused
from choice.client.portal_client import PortalClient
from tests.hook_process import Hook, claude, output_of, project, question_of
from tests.integration.test_cli import ASK, Asking
from tests.mcp.conftest import FAST, ask, stdio_session
from tests.portal_process import PortalProcess, free_port

pytestmark = pytest.mark.slow

WRONG_TOKEN = "not-the-servers-token-0123456789abcdef"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PortalProcess]:
    """The team server: a real portal on a free port, in a data dir of its own."""
    process = PortalProcess(tmp_path_factory.mktemp("team-server"), None, **FAST).start()
    yield process
    process.stop()


@pytest.fixture
def client_dir(tmp_path: Path) -> Path:
    """The client machine's data dir: empty, and it must stay so."""
    path = tmp_path / "client-data"
    path.mkdir()
    return path


def remote_env(server: PortalProcess, client_dir: Path, **overrides: str) -> dict[str, str]:
    """A client's environment: the team server's URL and token; a local address that
    answers nothing (it must be ignored) and the client's own empty data dir."""
    inherited = {k: v for k, v in os.environ.items() if not k.startswith("CHOICE_")}
    return {**inherited, "CHOICE_DATA_DIR": str(client_dir), "CHOICE_HOST": "127.0.0.1",
            "CHOICE_PORT": str(free_port()), "CHOICE_OPEN_BROWSER": "0",
            "CHOICE_URL": server.base_url, "CHOICE_TOKEN": server.token, **FAST, **overrides}


def choice(*args: str, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "choice.cli", *args], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def nothing_written(client_dir: Path) -> None:
    assert sorted(p.name for p in client_dir.iterdir()) == []


def one_clear_line(stderr: str, *names: str) -> str:
    """The error a person reads: no traceback, and it names what to fix."""
    assert "Traceback" not in stderr, stderr
    for name in names:
        assert name in stderr, stderr
    return stderr


# -- choice ask ----------------------------------------------------------------------------
def test_choice_ask_asks_the_team_server_and_prints_the_result(
        server: PortalProcess, client_dir: Path) -> None:
    asking = Asking(choice(*ASK, env=remote_env(server, client_dir)))
    iid = asking.interaction_id()
    server.client().respond(iid, {"selected_ids": ["pg"]})
    code, stdout = asking.finish()
    assert code == 0, asking.stderr
    result = json.loads(stdout)
    assert (result["interaction_id"], result["selected_ids"]) == (iid, ["pg"])
    assert not any("started a portal" in line for line in asking.stderr)
    assert any("CHOICE_TOKEN" in line for line in asking.stderr)  # how to answer over HTTP
    nothing_written(client_dir)


def test_choice_ask_with_the_team_server_down_says_to_check_choice_url(
        server: PortalProcess, client_dir: Path) -> None:
    down = f"http://127.0.0.1:{free_port()}"
    process = choice(*ASK, env=remote_env(server, client_dir, CHOICE_URL=down))
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 1 and stdout == ""
    line = one_clear_line(stderr, "CHOICE_URL", down)
    assert line.count("\n") == 1, line
    nothing_written(client_dir)


def test_choice_ask_with_a_wrong_token_says_to_set_choice_token(
        server: PortalProcess, client_dir: Path) -> None:
    process = choice(*ASK, env=remote_env(server, client_dir, CHOICE_TOKEN=WRONG_TOKEN))
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 1 and stdout == ""
    one_clear_line(stderr, "HTTP 401", "CHOICE_TOKEN")
    nothing_written(client_dir)


@pytest.mark.parametrize(("url", "token", "named"), [
    ("choice.example:8765", "t", "CHOICE_URL"),
    ("https://choice.example/?team=a", "t", "CHOICE_URL"),
    ("https://me:secret@choice.example", "t", "CHOICE_URL"),
    ("https://choice.example", "", "CHOICE_TOKEN"),
])
def test_a_malformed_team_server_setting_stops_choice_ask_at_start(
        server: PortalProcess, client_dir: Path, url: str, token: str, named: str) -> None:
    env = remote_env(server, client_dir, CHOICE_URL=url, CHOICE_TOKEN=token)
    process = choice(*ASK, env=env)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode != 0 and stdout == ""
    one_clear_line(stderr, named)
    assert "secret" not in stderr  # credentials in a URL are never printed back
    nothing_written(client_dir)


# -- choice mcp, through the MCP SDK's own client --------------------------------------------
async def test_choice_mcp_asks_the_team_server_and_gets_the_answer(
        server: PortalProcess, client_dir: Path) -> None:
    env = remote_env(server, client_dir)
    async with stdio_session(client_dir, int(env["CHOICE_PORT"]), CHOICE_URL=env["CHOICE_URL"],
                             CHOICE_TOKEN=env["CHOICE_TOKEN"],
                             CHOICE_HOST=env["CHOICE_HOST"]) as session:
        asked = await session.call_tool("provide_choice", ask())
        pending: dict[str, Any] = asked.structured_content
        assert pending["status"] == "pending", asked
        server.client().respond(pending["session_id"], {"selected_ids": ["lite"]})
        polled = await session.call_tool("provide_choice", {"session_id": pending["session_id"]})
        assert polled.structured_content["selected_ids"] == ["lite"]
    nothing_written(client_dir)


@pytest.mark.parametrize(("wrong", "named"), [
    ({"CHOICE_URL": "http://127.0.0.1:{port}"}, "CHOICE_URL"),
    ({"CHOICE_URL": "https://127.0.0.1:{port}/choice"}, "CHOICE_URL"),  # TLS is there to use
    ({"CHOICE_TOKEN": WRONG_TOKEN}, "CHOICE_TOKEN"),
], ids=["down", "down-https", "wrong-token"])
async def test_choice_mcp_says_what_to_fix_when_the_team_server_cannot_be_used(
        server: PortalProcess, client_dir: Path, wrong: dict[str, str], named: str) -> None:
    port = free_port()
    env = remote_env(server, client_dir,
                     **{name: value.format(port=port) for name, value in wrong.items()})
    async with stdio_session(client_dir, int(env["CHOICE_PORT"]), CHOICE_URL=env["CHOICE_URL"],
                             CHOICE_TOKEN=env["CHOICE_TOKEN"],
                             CHOICE_HOST=env["CHOICE_HOST"]) as session:
        assert len((await session.list_tools()).tools) > 0  # answered by the bridge itself
        with pytest.raises(MCPError, match=named):
            await session.call_tool("provide_choice", ask())
    nothing_written(client_dir)


# -- choice hook -----------------------------------------------------------------------------
def test_choice_hook_asks_the_team_server_and_prints_its_decision(
        server: PortalProcess, client_dir: Path) -> None:
    name = project()
    payload = claude("Bash", {"command": "make test", "description": "Run the tests"},
                     cwd=f"/home/dev/{name}")
    env = remote_env(server, client_dir, CHOICE_HOOK_WAIT_SECONDS="30")
    hook = Hook(env, json.dumps(payload), "claude")
    iid = str(question_of(server.client(), name, hook)["interaction_id"])
    server.client().respond(iid, {"selected_ids": ["allow"]})
    assert hook.decision() == output_of({"behavior": "allow"})
    nothing_written(client_dir)


@pytest.mark.parametrize(("wrong", "named"), [
    ({"CHOICE_TOKEN": WRONG_TOKEN}, "CHOICE_TOKEN"),
    ({"CHOICE_URL": "https://127.0.0.1:{port}"}, "CHOICE_URL"),
], ids=["wrong-token", "down-https"])
def test_choice_hook_that_cannot_use_the_team_server_falls_through_naming_the_setting(
        server: PortalProcess, client_dir: Path, wrong: dict[str, str], named: str) -> None:
    payload = claude("Bash", {"command": "make", "description": "Build"},
                     cwd=f"/home/dev/{project()}")
    port = free_port()
    env = remote_env(server, client_dir,
                     **{name: value.format(port=port) for name, value in wrong.items()})
    code, stdout, stderr = Hook(env, json.dumps(payload), "claude").finish()
    assert (code, stdout) == (0, "")  # the agent's own dialog asks: the hook's contract
    assert stderr.count("\n") == 1
    one_clear_line(stderr, named)
    nothing_written(client_dir)


# -- the Python client -----------------------------------------------------------------------
def answer_when_asked(server: PortalClient, title: str, option: str) -> threading.Thread:
    """Answer the question titled `title` once it is on the server (a person's side)."""
    def answer() -> None:
        for _ in range(1000):
            rows = server.list("active", 100)["interactions"]
            found = [row["interaction_id"] for row in rows if row["title"] == title]
            if found:
                server.respond(found[0], {"selected_ids": [option]})
                return
            time.sleep(0.02)  # a polling interval, not a synchronization

    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    return thread


@pytest.fixture
def remote_process_env(server: PortalProcess, client_dir: Path,
                       monkeypatch: pytest.MonkeyPatch) -> None:
    """This process's environment as a client's: the Python API reads it."""
    for name in [k for k in os.environ if k.startswith("CHOICE_")]:
        monkeypatch.delenv(name)
    for name, value in remote_env(server, client_dir).items():
        if name.startswith("CHOICE_"):
            monkeypatch.setenv(name, value)


def test_the_python_client_asks_the_team_server(
        server: PortalProcess, client_dir: Path, remote_process_env: None) -> None:
    request = ask()
    answering = answer_when_asked(server.client(), str(request["title"]), "pg")
    with Client(start_portal=True, poll_seconds=5) as client:  # a team server is never started
        result = client.ask(request)
    answering.join(timeout=30)
    assert result.selected_ids == ["pg"]  # type: ignore[union-attr]
    nothing_written(client_dir)


def test_the_async_client_asks_the_team_server(
        server: PortalProcess, client_dir: Path, remote_process_env: None) -> None:
    request = ask()
    answering = answer_when_asked(server.client(), str(request["title"]), "lite")

    async def asked() -> Any:
        client = await AsyncClient.connect(start_portal=True, poll_seconds=5)
        async with client:
            return await client.ask(request)

    result = asyncio.run(asked())
    answering.join(timeout=30)
    assert result.selected_ids == ["lite"]
    nothing_written(client_dir)


def test_the_python_client_names_the_setting_to_fix(
        server: PortalProcess, client_dir: Path, remote_process_env: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHOICE_TOKEN", WRONG_TOKEN)
    with pytest.raises(PortalRefused, match="CHOICE_TOKEN") as refused:
        Client(poll_seconds=5).ask(ask())
    assert refused.value.status == 401
    monkeypatch.setenv("CHOICE_URL", f"http://127.0.0.1:{free_port()}")
    with pytest.raises(PortalNotRunning, match="CHOICE_URL"):
        Client(start_portal=True, poll_seconds=5).ask(ask())
    nothing_written(client_dir)


# -- choice list ---------------------------------------------------------------------------
def test_choice_list_lists_the_team_servers_questions(
        server: PortalProcess, client_dir: Path) -> None:
    title = str(ask()["title"])
    server.client().create({**ask(), "title": title})
    listed = subprocess.run([sys.executable, "-m", "choice.cli", "list", "--limit", "100"],
                            env=remote_env(server, client_dir), capture_output=True,
                            text=True, timeout=60)
    assert listed.returncode == 0, listed.stderr
    assert title in listed.stdout
    nothing_written(client_dir)
