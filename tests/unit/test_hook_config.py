"""`choice hook-config`: JSON alone on stdout, the hook's own settings carried in its
command (the agent runs it with the agent's environment, not this shell's), the events that
withdraw a question answered in the agent's own dialog, and the portal's own MCP tools
allowed without a question."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from choice.core.config import Settings
from choice.hooks.config import advice, render


def rendered(agent: str, env: dict[str, str]) -> dict[str, Any]:
    config = json.loads(render(agent, Settings.from_env(env), env))
    assert isinstance(config, dict)
    return config


def command_of(config: dict[str, Any], event: str) -> list[str]:
    return shlex.split(config["hooks"][event][0]["hooks"][0]["command"])


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_every_tool_is_asked_with_this_choice_and_a_timeout_above_the_wait(agent: str) -> None:
    config = rendered(agent, {})
    entry = config["hooks"]["PermissionRequest"][0]
    assert entry["matcher"] == "*"
    hook = entry["hooks"][0]
    assert hook["type"] == "command" and hook["command"].endswith(f"hook {agent}")
    assert not hook["command"].startswith("env ")  # nothing to carry
    assert hook["timeout"] == 60
    notification = config["hooks"].get("Notification")
    assert (notification is not None) == (agent == "claude")  # Codex has no such event
    if notification:
        assert notification[0]["matcher"] == "idle_prompt|permission_prompt"


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_the_hook_s_settings_travel_in_its_command(agent: str, tmp_path: Path) -> None:
    env = {"CHOICE_HOOK_WAIT_SECONDS": "5", "CHOICE_HOOK_START_PORTAL": "0",
           "CHOICE_HOOK_TOOLS": "Bash,Edit", "CHOICE_LANG": "zh",
           "CHOICE_DATA_DIR": str(tmp_path / "data dir"), "CHOICE_PORT": "9911",
           "CHOICE_MCP_WAIT_SECONDS": "50"}  # the default: not carried
    config = rendered(agent, env)
    hook = config["hooks"]["PermissionRequest"][0]["hooks"][0]
    assert hook["timeout"] == 15
    words = command_of(config, "PermissionRequest")
    assert words[0] == "env" and words[-2:] == ["hook", agent]
    carried = dict(word.split("=", 1) for word in words[1:] if "=" in word)
    assert carried == {"CHOICE_HOOK_WAIT_SECONDS": "5", "CHOICE_HOOK_START_PORTAL": "0",
                       "CHOICE_HOOK_TOOLS": "Bash,Edit", "CHOICE_LANG": "zh",
                       "CHOICE_DATA_DIR": str(tmp_path / "data dir"), "CHOICE_PORT": "9911"}
    assert config["hooks"]["PostToolUse"][0]["matcher"] == "Bash|Edit"  # only those asked


def test_the_command_runs_the_same_through_a_shell_and_without_one(tmp_path: Path) -> None:
    """Claude Code runs the command through a shell; the words work exec'd directly too."""
    data_dir = tmp_path / "it's here"
    env = {"CHOICE_HOOK_WAIT_SECONDS": "7", "CHOICE_DATA_DIR": str(data_dir)}
    words = command_of(rendered("codex", env), "PermissionRequest")
    probe = [*words[:-3], sys.executable, "-c",
             "import os; print(os.environ['CHOICE_HOOK_WAIT_SECONDS'], "
             "os.environ['CHOICE_DATA_DIR'])"]
    direct = subprocess.run(probe, capture_output=True, text=True, check=True, timeout=30)
    shell = subprocess.run(shlex.join(probe), shell=True, capture_output=True, text=True,
                           check=True, timeout=30)
    assert direct.stdout == shell.stdout == f"7 {data_dir}\n"


@pytest.mark.parametrize(("name", "beside"), [
    ("CHOICE_WEBHOOK_SECRET", {"CHOICE_WEBHOOK_URL": "https://hooks.example.com/x"}),
    ("CHOICE_OIDC_CLIENT_SECRET", {"CHOICE_OIDC_ISSUER": "https://id.example.com"}),
])
def test_a_secret_is_left_out_and_said_so(name: str, beside: dict[str, str]) -> None:
    env = {**beside, name: "s3cret-value"}
    text = render("claude", Settings.from_env(env), env)
    assert "s3cret-value" not in text
    (other, value), = beside.items()
    assert f"{other}={value}" in text
    assert f"{name} is not written" in advice("claude", Settings.from_env(env), env)


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_the_events_after_which_the_agent_went_on_are_sent_to_the_hook(agent: str) -> None:
    config = rendered(agent, {})
    for event in ("PostToolUse", "UserPromptSubmit", "Stop", "SessionEnd"):
        hook = config["hooks"][event][0]["hooks"][0]
        assert hook["command"].endswith(f"hook {agent}")
        # the agent runs them in the background: no tool call waits on them
        assert hook.get("async") is True
    assert config["hooks"]["PostToolUse"][0]["matcher"] == "*"


def test_claude_code_allows_the_portal_s_own_mcp_server_without_asking() -> None:
    assert rendered("claude", {})["permissions"] == {"allow": ["mcp__choice", "mcp__choice-http"]}
    assert "permissions" not in rendered("codex", {})


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_stdout_is_json_alone_and_where_to_merge_it_goes_to_stderr(agent: str) -> None:
    ran = subprocess.run([sys.executable, "-m", "choice.cli", "hook-config", agent],
                         capture_output=True, text=True, timeout=60,
                         env={"PATH": "/usr/bin:/bin", "HOME": "/nonexistent-home"})
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout)["hooks"]["PermissionRequest"]
    assert f"merge this into ~/.{'claude/settings' if agent == 'claude' else 'codex/hooks'}.json" \
        in ran.stderr
    assert ("trust" in ran.stderr) == (agent == "codex")
