"""Claude Code in a sandbox of its own: an isolated HOME whose `~/.claude.json` has the
onboarding done, the working folder trusted and the test's API key approved; the model is a
fake server (`ANTHROPIC_BASE_URL`); the portal's hooks come from the real `choice
hook-config claude` and its MCP server from `choice mcp-config json`. It runs headless
(`claude -p`, where Bash, Edit, Write and MCP tools fire the PermissionRequest hook) or in
tmux (the TUI, where AskUserQuestion and ExitPlanMode ask)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

from tests.agents.clis import AgentClis
from tests.portal_process import PortalProcess
from tests.terminal.tmux import Pane

API_KEY = "sk-ant-api03-fake-model-for-tests-0123456789abcdefghij"
EXIT_SECONDS = 90.0


def choice_text(portal: PortalProcess, *args: str, **env: str) -> str:
    """What `choice <args>` prints on stdout (the advice goes to stderr), run with the
    portal's settings (and `env`): what a user pastes."""
    ran = subprocess.run([sys.executable, "-m", "choice.cli", *args], capture_output=True,
                         text=True, timeout=60, env={**portal.env, **env})
    assert ran.returncode == 0, ran.stderr
    return ran.stdout


def choice_json(portal: PortalProcess, *args: str, **env: str) -> dict[str, Any]:
    """`choice_text` as the JSON it is."""
    printed = json.loads(choice_text(portal, *args, **env))
    assert isinstance(printed, dict)
    return printed


class ClaudeCode:
    def __init__(self, clis: AgentClis, root: Path, model_url: str, *,
                 portal: PortalProcess | None = None, hooks: bool = True, mcp: bool = False,
                 hook_env: dict[str, str] | None = None) -> None:
        self.clis = clis
        self.home = root / "home"
        self.cwd = root / "work" / f"proj-{uuid.uuid4().hex[:10]}"
        self.cwd.mkdir(parents=True)
        (self.home / ".claude").mkdir(parents=True)
        (self.home / ".claude.json").write_text(json.dumps({
            "hasCompletedOnboarding": True, "numStartups": 5,
            "projects": {str(self.cwd): {"hasTrustDialogAccepted": True,
                                         "hasCompletedProjectOnboarding": True}},
            "customApiKeyResponses": {"approved": [API_KEY[-20:]], "rejected": []}}))
        settings: dict[str, Any] = {}
        if portal is not None and hooks:
            settings.update(choice_json(portal, "hook-config", "claude", **(hook_env or {})))
        (self.home / ".claude" / "settings.json").write_text(json.dumps(settings))
        self.mcp_config: Path | None = None
        if portal is not None and mcp:
            form = choice_json(portal, "mcp-config", "json")["command_form"]
            self.mcp_config = root / "mcp.json"
            self.mcp_config.write_text(json.dumps({"mcpServers": {"choice": {
                "type": "stdio", **form}}}))
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(self.home),
            "LANG": "C.UTF-8", "TERM": "xterm-256color", "SHELL": "/bin/bash",
            "ANTHROPIC_BASE_URL": model_url, "ANTHROPIC_API_KEY": API_KEY,
            "DISABLE_AUTOUPDATER": "1", "DISABLE_TELEMETRY": "1",
            "DISABLE_ERROR_REPORTING": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}
        self.process: subprocess.Popen[str] | None = None
        self.pane: Pane | None = None

    @property
    def project(self) -> str:
        """The project name the portal shows for this folder."""
        return self.cwd.name

    def arguments(self, mode: str, *extra: str) -> list[str]:
        args = [self.clis.claude, "--permission-mode", mode, *extra]
        if self.mcp_config is not None:
            args += ["--mcp-config", str(self.mcp_config), "--strict-mcp-config"]
        return args

    def headless(self, prompt: str = "Do the task.", *, mode: str = "default",
                 extra: tuple[str, ...] = ()) -> ClaudeCode:
        """Start `claude -p` (returns at once; `finish` waits)."""
        self.process = subprocess.Popen(
            [*self.arguments(mode, *extra), "-p", prompt], cwd=self.cwd, env=self.env,
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            start_new_session=True)
        return self

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def finish(self) -> tuple[int, str, str]:
        assert self.process is not None
        stdout, stderr = self.process.communicate(timeout=EXIT_SECONDS)
        return self.process.returncode, stdout, stderr

    def tui(self, *, mode: str = "default", extra: tuple[str, ...] = ()) -> Pane:
        """Start the interactive UI in tmux, in the working folder."""
        command = ["sh", "-c", 'cd "$0" && exec "$@"', str(self.cwd),
                   *self.arguments(mode, *extra)]
        self.pane = Pane(command, self.env, width=120, height=40).start()
        return self.pane

    def stop(self) -> None:
        """End the agent and what it started (its hooks and MCP servers: one process group)."""
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.communicate(timeout=10)
        if self.pane is not None:
            self.pane.kill()
