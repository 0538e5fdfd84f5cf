"""Codex in a sandbox of its own: an isolated HOME and CODEX_HOME whose `config.toml` points
the model at a fake Responses server (a custom `[model_providers]` entry) and trusts the
working folder; the portal's hook comes from the real `choice hook-config codex` into
`hooks.json`, and its MCP server from `choice mcp-config json`. Codex asks only in its TUI
(`codex exec` never does), so it runs in tmux, and a new `hooks.json` is trusted there in
its "Hooks need review" dialog, as a person does once."""

from __future__ import annotations

import contextlib
import functools
import json
import operator
import os
import signal
import time
import uuid
from pathlib import Path
from typing import Any

from tests.agents.claude_code import choice_json, choice_text
from tests.agents.clis import AgentClis
from tests.portal_process import PortalProcess
from tests.terminal.tmux import Pane

REVIEW = "Hooks need review"
TRUST = "Trust all and continue"
START_SECONDS = 60.0


def toml_string(value: str) -> str:
    return json.dumps(value)  # a JSON string is a valid TOML basic string


class Codex:
    def __init__(self, clis: AgentClis, root: Path, model_url: str, *,
                 portal: PortalProcess | None = None, hooks: bool = True,
                 mcp: bool = False) -> None:
        self.clis = clis
        self.home = root / "home"
        self.codex_home = self.home / ".codex"
        self.cwd = root / "work" / f"proj-{uuid.uuid4().hex[:10]}"
        self.cwd.mkdir(parents=True)
        self.codex_home.mkdir(parents=True)
        config = [
            'model = "gpt-5-codex"', 'model_provider = "fake"',
            'approval_policy = "on-request"', 'sandbox_mode = "workspace-write"',
            "[model_providers.fake]", 'name = "fake"',
            f"base_url = {toml_string(model_url + '/v1')}", 'wire_api = "responses"',
            'env_key = "FAKE_MODEL_KEY"',
            f"[projects.{toml_string(str(self.cwd))}]", 'trust_level = "trusted"']
        self.hooked = portal is not None and hooks
        if portal is not None and hooks:
            settings: dict[str, Any] = choice_json(portal, "hook-config", "codex")
            (self.codex_home / "hooks.json").write_text(json.dumps(settings))
        if portal is not None and mcp:
            config.append(choice_text(portal, "mcp-config", "codex"))  # as a user pastes it
        (self.codex_home / "config.toml").write_text("\n".join(config) + "\n")
        self.env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(self.home),
                    "CODEX_HOME": str(self.codex_home), "FAKE_MODEL_KEY": "fake-key",
                    "LANG": "C.UTF-8", "TERM": "xterm-256color", "SHELL": "/bin/bash"}
        self.pane: Pane | None = None

    @property
    def project(self) -> str:
        return self.cwd.name

    def tui(self, prompt: str = "Do the task.") -> Pane:
        """Start the TUI in tmux with `prompt`; a new `hooks.json` is trusted first."""
        command = ["sh", "-c", 'cd "$0" && exec "$@"', str(self.cwd), self.clis.codex, prompt]
        self.pane = Pane(command, self.env, width=120, height=40).start()
        if self.hooked:
            screen = self.pane.wait_for(REVIEW, TRUST, timeout=START_SECONDS)
            self.choose(TRUST, screen)
            self.pane.press("Enter")
            self.pane.wait_gone(REVIEW, timeout=START_SECONDS)
        return self.pane

    def choose(self, choice: str, screen: str) -> None:
        """Move the dialog's cursor (`›`) onto `choice`: a key pressed before the dialog
        takes input is lost, so it moves one step at a time until the screen shows it."""
        pane = self.pane
        assert pane is not None, "choose() is for the TUI's dialogs: start it with tui()"
        deadline = time.monotonic() + START_SECONDS
        while True:
            lines = screen.splitlines()
            marked = next((n for n, line in enumerate(lines) if line.lstrip().startswith("›")),
                          None)
            target = next(n for n, line in enumerate(lines) if choice in line)
            if marked == target:
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"could not choose {choice!r}:\n{screen}")
            pane.press("Down" if marked is None or marked < target else "Up")
            with contextlib.suppress(AssertionError):  # the key may not have been taken yet
                pane.wait_until(functools.partial(operator.ne, screen), "the cursor to move",
                                timeout=2)
            screen = pane.screen()

    def stop(self) -> None:
        """End the TUI, and the app-server daemon it started: that one outlives the TUI, and
        is found by its program, installed under this test's CODEX_HOME."""
        if self.pane is not None:
            self.pane.kill()
        for pid in self.daemons():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)

    def daemons(self) -> list[int]:
        found = []
        for proc in Path("/proc").iterdir():
            if not proc.name.isdigit():
                continue
            with contextlib.suppress(OSError):
                program = (proc / "cmdline").read_bytes().split(b"\0", 1)[0].decode()
                if program.startswith(str(self.codex_home) + "/"):
                    found.append(int(proc.name))
        return found
