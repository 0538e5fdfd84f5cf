"""`choice mcp-config codex`: stdout is Codex's `[mcp_servers.choice]` table, TOML that
`~/.codex/config.toml` takes as it is; what to do with it goes to stderr."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

from choice.core.config import choice_command


def mcp_config(client: str, data_dir: Path, **env: str) -> subprocess.CompletedProcess[str]:
    inherited = {k: v for k, v in os.environ.items() if not k.startswith("CHOICE_")}
    return subprocess.run([sys.executable, "-m", "choice.cli", "mcp-config", client],
                          env={**inherited, "CHOICE_DATA_DIR": str(data_dir), **env},
                          capture_output=True, text=True, timeout=60, check=True)


def test_codex_gets_a_toml_table_that_launches_this_choice_and_reaches_this_portal(
        tmp_path: Path) -> None:
    data_dir = tmp_path / "data dir \"quoted\""
    printed = mcp_config("codex", data_dir, CHOICE_PORT="9123", CHOICE_MCP_WAIT_SECONDS="120")
    server = tomllib.loads(printed.stdout)["mcp_servers"]["choice"]
    assert [server["command"], *server["args"]] == [*choice_command(), "mcp"]
    assert Path(server["command"]).is_absolute()
    assert server["env"] == {"CHOICE_PORT": "9123", "CHOICE_DATA_DIR": str(data_dir)}
    assert server["tool_timeout_sec"] > 120  # the portal answers `pending` before Codex gives up
    assert server["default_tools_approval_mode"] == "approve"  # the call is the question
    assert "config.toml" in printed.stderr and "config.toml" not in printed.stdout


def test_with_default_settings_the_codex_table_needs_no_env_but_outlasts_the_wait(
        tmp_path: Path) -> None:
    inherited = {k: v for k, v in os.environ.items() if not k.startswith("CHOICE_")}
    printed = subprocess.run([sys.executable, "-m", "choice.cli", "mcp-config", "codex"],
                             env={**inherited, "HOME": str(tmp_path),
                                  "XDG_DATA_HOME": str(tmp_path / "share")},
                             capture_output=True, text=True, timeout=60, check=True)
    server = tomllib.loads(printed.stdout)["mcp_servers"]["choice"]
    assert "env" not in server and server["tool_timeout_sec"] > 50


def test_the_folders_the_person_allowed_travel_with_the_bridge(tmp_path: Path) -> None:
    """Codex gives a server none of the shell's variables: the table carries them."""
    mockups = tmp_path / "mockups"
    printed = mcp_config("codex", tmp_path / "data", CHOICE_MCP_FILE_ROOTS=str(mockups))
    server = tomllib.loads(printed.stdout)["mcp_servers"]["choice"]
    assert server["env"]["CHOICE_MCP_FILE_ROOTS"] == str(mockups.resolve())
