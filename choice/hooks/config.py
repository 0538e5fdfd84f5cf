"""`choice hook-config claude|codex`: the settings that make the agent ask through the
portal, ready to paste: the `PermissionRequest` event, every tool (`CHOICE_HOOK_TOOLS`
narrows it), this installation's `choice` by absolute path, and a timeout 10 s above
`CHOICE_HOOK_WAIT_SECONDS` so the hook always ends before the agent gives up on it.
Both agents read the same JSON shape: Claude Code in `~/.claude/settings.json` (or a
project's `.claude/settings.json`), Codex in `~/.codex/hooks.json`. Claude Code also gets
its `Notification` hook for `idle_prompt` and `permission_prompt`: the portal's open pages
then say when it waits at its own prompt (Codex has no such event).
"""

from __future__ import annotations

import json
import shlex

from choice.core.config import Settings, choice_command

WHERE = {"claude": "~/.claude/settings.json (or .claude/settings.json in a project)",
         "codex": "~/.codex/hooks.json (or .codex/hooks.json in a project)"}
MARGIN_SECONDS = 10
NOTICE_TIMEOUT = 10
"""A notice is one request to a running portal (none is started for it)."""


def render(agent: str, settings: Settings | None = None) -> str:
    settings = settings or Settings.from_env()
    env = settings.environment_to_reach()
    command = shlex.join([*choice_command(), "hook", agent])
    if env:
        command = " ".join(f"{key}={shlex.quote(value)}" for key, value in env.items()) + \
            " " + command
    hooks: dict[str, list[dict[str, object]]] = {"PermissionRequest": [{"matcher": "*", "hooks": [{
        "type": "command", "command": command,
        "timeout": settings.hook_wait_seconds + MARGIN_SECONDS}]}]}
    if agent == "claude":
        hooks["Notification"] = [{"matcher": "idle_prompt|permission_prompt", "hooks": [{
            "type": "command", "command": command, "timeout": NOTICE_TIMEOUT}]}]
    snippet = {"hooks": hooks}
    return f"// merge into {WHERE[agent]}\n" + json.dumps(snippet, indent=2)
