"""`CHOICE_URL` and `CHOICE_TOKEN`: how they are read, what the discovery makes of them, and
the team-server form that `choice mcp-config` and `choice hook-config` print."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import ClassVar

import pytest

from choice.client.connection import discover, ensure_started
from choice.core.config import Settings
from choice.hooks.config import advice, render
from choice.mcp.relay import PortalLink
from tests.stand_in_server import serving

TEAM = {"CHOICE_URL": "https://choice.example/team/", "CHOICE_TOKEN": "tok-123"}


@pytest.mark.parametrize(("given", "read"), [
    ("https://choice.example", "https://choice.example"),
    ("https://choice.example/", "https://choice.example"),
    ("http://127.0.0.1:9000", "http://127.0.0.1:9000"),
    ("https://proxy.example/choice/", "https://proxy.example/choice"),
])
def test_a_team_server_url_is_kept_without_its_trailing_slash(given: str, read: str) -> None:
    settings = Settings.from_env({"CHOICE_URL": given, "CHOICE_TOKEN": "t"})
    assert (settings.remote_url, settings.remote_token) == (read, "t")


@pytest.mark.parametrize("given", [
    "choice.example", "choice.example:8765", "ftp://choice.example", "https://",
    "https://choice.example/?team=a", "https://choice.example/#x", "https://choice.example?",
    "https://choice.example:port", "https://user:pw@choice.example",
])
def test_a_malformed_team_server_url_stops_the_start_naming_choice_url(given: str) -> None:
    with pytest.raises(SystemExit) as stopped:
        Settings.from_env({"CHOICE_URL": given, "CHOICE_TOKEN": "t"})
    said = str(stopped.value)
    assert said.startswith("CHOICE_URL") and "https://choice.example" in said
    assert "pw" not in said  # credentials are never printed back


def test_a_team_server_url_without_a_token_stops_the_start_saying_where_to_get_one() -> None:
    with pytest.raises(SystemExit, match=r"CHOICE_TOKEN is not.*settings page"):
        Settings.from_env({"CHOICE_URL": "https://choice.example", "CHOICE_TOKEN": " "})


def test_the_discovery_gives_the_team_server_and_its_token_and_reads_no_token_file(
        tmp_path: Path) -> None:
    data_dir = tmp_path / "absent"
    settings = Settings.from_env({**TEAM, "CHOICE_DATA_DIR": str(data_dir),
                                  "CHOICE_HOST": "10.9.9.9", "CHOICE_PORT": "9999"})
    found = discover(settings=settings)
    assert (found.base_url, found.token, found.remote) == (
        "https://choice.example/team", "tok-123", True)
    assert found.client().token == "tok-123"
    assert not data_dir.exists()


def test_a_team_server_is_never_started(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [k for k in os.environ if k.startswith("CHOICE_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("CHOICE_DATA_DIR", str(tmp_path / "absent"))
    for name, value in TEAM.items():
        monkeypatch.setenv(name, value)
    started = ensure_started()  # returns without asking anything: no portal, no data dir
    assert (started.base_url, started.remote) == ("https://choice.example/team", True)
    assert not (tmp_path / "absent").exists()


def test_without_choice_url_the_token_file_is_used_as_before(tmp_path: Path) -> None:
    (tmp_path / "token").write_text("local-token\n")
    found = discover(settings=Settings.from_env({"CHOICE_DATA_DIR": str(tmp_path),
                                                 "CHOICE_TOKEN": "ignored", "CHOICE_PORT": "9"}))
    assert (found.base_url, found.token, found.remote) == ("http://127.0.0.1:9", "local-token",
                                                           False)


# -- the configurations printed for a team server ----------------------------------------------
def mcp_config(client: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    inherited = {k: v for k, v in os.environ.items() if not k.startswith("CHOICE_")}
    return subprocess.run([sys.executable, "-m", "choice.cli", "mcp-config", client],
                          env={**inherited, **TEAM, "CHOICE_DATA_DIR": str(data_dir),
                               "CHOICE_PORT": "9123"},
                          capture_output=True, text=True, timeout=60, check=True)


def test_mcp_config_prints_both_forms_for_the_team_server_and_writes_nothing(
        tmp_path: Path) -> None:
    printed = mcp_config("json", tmp_path / "absent")
    forms = json.loads(printed.stdout)
    assert forms["command_form"]["env"] == {"CHOICE_URL": "https://choice.example/team",
                                            "CHOICE_TOKEN": "tok-123"}
    assert forms["http_form"] == {"url": "https://choice.example/team/mcp",
                                  "headers": {"Authorization": "Bearer tok-123"}}
    assert "CHOICE_TOKEN" in printed.stderr and "revoke" in printed.stderr
    assert not (tmp_path / "absent").exists()


def test_mcp_config_for_claude_code_names_the_team_server(tmp_path: Path) -> None:
    printed = mcp_config("claude", tmp_path / "absent").stdout
    assert "-e CHOICE_URL=https://choice.example/team -e CHOICE_TOKEN=tok-123" in printed
    assert "--transport http choice https://choice.example/team/mcp" in printed
    assert "starts a portal" not in printed and "CHOICE_PORT" not in printed


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_hook_config_carries_the_team_server_and_its_token_instead_of_the_local_portal(
        agent: str, tmp_path: Path) -> None:
    env = {**TEAM, "CHOICE_PORT": "9123", "CHOICE_DATA_DIR": str(tmp_path / "absent"),
           "CHOICE_HOOK_WAIT_SECONDS": "90"}
    settings = Settings.from_env(env)
    config = json.loads(render(agent, settings, env))
    command = shlex.split(config["hooks"]["PermissionRequest"][0]["hooks"][0]["command"])
    assert command[0] == "env"
    assert set(command[1:4]) == {"CHOICE_URL=https://choice.example/team",
                                 "CHOICE_TOKEN=tok-123", "CHOICE_HOOK_WAIT_SECONDS=90"}
    assert not any(part.startswith(("CHOICE_PORT", "CHOICE_DATA_DIR")) for part in command)
    assert "CHOICE_TOKEN" in advice(agent, settings, env)
    assert not (tmp_path / "absent").exists()


# -- a path prefix -------------------------------------------------------------------------------
class Recorder(BaseHTTPRequestHandler):
    """A stand-in for a proxy in front of the team server: records each path and token."""

    seen: ClassVar[list[tuple[str, str, str | None]]] = []

    def _answer(self) -> None:
        self.seen.append((self.command, self.path, self.headers.get("Authorization")))
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        body = b'{"jsonrpc":"2.0","id":1,"result":{}}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_POST = do_DELETE = _answer

    def log_message(self, *args: object) -> None:
        pass


def test_the_bridge_reaches_mcp_under_the_team_server_s_path_prefix() -> None:
    with serving(Recorder) as base:
        url = f"{base}/choice"
        link = PortalLink(discover(settings=Settings.from_env(
            {"CHOICE_URL": url + "/", "CHOICE_TOKEN": "tok-123"})).base_url)
        got: list[bytes] = []
        status, _headers, _error = link.post(b'{"jsonrpc":"2.0","id":1,"method":"ping"}',
                                             {"Authorization": "Bearer tok-123"}, 1, got.append)
        link.delete({"Authorization": "Bearer tok-123"})
    assert status == 200 and got == [b'{"jsonrpc":"2.0","id":1,"result":{}}']
    assert Recorder.seen == [("POST", "/choice/mcp", "Bearer tok-123"),
                             ("DELETE", "/choice/mcp", "Bearer tok-123")]
