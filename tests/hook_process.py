"""Running `choice hook` in tests: the agents' payloads (from their documented shapes), the
command as a subprocess against a test portal, and finding the question it asked. Shared by
tests/integration/test_hook.py, tests/browser/test_hook_page.py and
tests/terminal/test_hook_terminal.py."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

from choice.client.portal_client import PortalClient
from tests.portal_process import PortalProcess

WAIT_SECONDS = "30"
"""Long enough for any answer here to arrive; a test that wants a fall-through says 5."""
FIND_SECONDS = 20.0
EXIT_SECONDS = 60.0


# -- payloads ----------------------------------------------------------------------------------
def project() -> str:
    return f"proj-{uuid.uuid4().hex[:10]}"


def claude(tool: str, tool_input: dict[str, Any], *, cwd: str,
           suggestions: list[dict[str, Any]] | None = None,
           event: str = "PermissionRequest") -> dict[str, Any]:
    payload: dict[str, Any] = {
        "session_id": "5f3c2a10-8d1e-4c7b-9a2f-0e6d4b1c9a77",
        "transcript_path": f"/home/dev/.claude/projects/{Path(cwd).name}/session.jsonl",
        "cwd": cwd, "permission_mode": "default", "hook_event_name": event,
        "tool_name": tool, "tool_input": tool_input}
    if suggestions is not None:
        payload["permission_suggestions"] = suggestions
    return payload


def codex(command: str, description: str, *, cwd: str) -> dict[str, Any]:
    return {"session_id": "019a7c2e-codex-session", "turn_id": "turn-7",
            "transcript_path": None, "cwd": cwd, "model": "gpt-5-codex",
            "permission_mode": "default", "hook_event_name": "PermissionRequest",
            "tool_name": "Bash", "tool_input": {"command": command, "description": description}}


def output_of(decision: dict[str, Any]) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": decision}}


# -- running the hook --------------------------------------------------------------------------
class Hook:
    """One `choice hook` process, its payload already written and stdin closed."""

    def __init__(self, env: dict[str, str], stdin: str, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "choice.cli", "hook", *args], env=env, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert self.process.stdin is not None
        self.process.stdin.write(stdin)
        self.process.stdin.close()
        self.process.stdin = None  # written and closed: communicate() only reads now

    def finish(self) -> tuple[int, str, str]:
        """Wait for it to exit: its code, stdout and stderr."""
        stdout, stderr = self.process.communicate(timeout=EXIT_SECONDS)
        return self.process.returncode, stdout, stderr

    def decision(self) -> dict[str, Any]:
        """The one JSON object it printed, having exited 0 with nothing on stderr."""
        code, stdout, stderr = self.finish()
        assert (code, stderr) == (0, ""), (code, stdout, stderr)
        assert stdout.endswith("\n") and stdout.count("\n") == 1, stdout
        printed = json.loads(stdout)
        assert isinstance(printed, dict)
        return printed

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.communicate(timeout=10)


def hook_env(portal: PortalProcess, **extra: str) -> dict[str, str]:
    return {**portal.env, "CHOICE_HOOK_WAIT_SECONDS": WAIT_SECONDS, **extra}


def run_hook(portal: PortalProcess, payload: dict[str, Any] | str, *args: str,
             **env: str) -> Hook:
    text = payload if isinstance(payload, str) else json.dumps(payload)
    return Hook(hook_env(portal, **env), text, *args)


def question_of(client: PortalClient, name: str, hook: Hook) -> dict[str, Any]:
    """The active question of project `name` (the hook's), once it is there: polled with a
    bound; a hook that exits first fails it with what it said."""
    deadline = time.monotonic() + FIND_SECONDS
    while True:
        for item in client.list("active", 100)["interactions"]:
            if item.get("project") == name:
                return dict(item)
        if hook.process.poll() is not None:
            raise AssertionError(f"the hook exited before asking: {hook.finish()}")
        if time.monotonic() > deadline:
            hook.kill()
            raise AssertionError(f"no question for {name} within {FIND_SECONDS} s")
        time.sleep(0.02)  # a polling interval, not a synchronization
