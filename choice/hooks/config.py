"""`choice hook-config claude|codex`: the settings that make the agent ask through the
portal, ready to merge: JSON alone on stdout (where to merge it goes to stderr).

- `PermissionRequest` for every tool, running this installation's `choice` by absolute
  path, with a timeout 10 s above `CHOICE_HOOK_WAIT_SECONDS` so the hook always ends before
  the agent gives up on it.
- The events after which the agent went on without the portal (`payload.MOVED_ON`:
  `PostToolUse`, `UserPromptSubmit`, `Stop`, `SessionEnd`), to the same command: a question
  whose answer the person gave in the agent's own dialog is withdrawn at once. Both agents
  run them in the background (`async`), so no tool call waits on them.
- Claude Code's `Notification` hook for `idle_prompt` and `permission_prompt`: the
  portal's open pages then say when it waits at its own prompt (Codex has no such event).
- Claude Code's `permissions.allow` for the portal's own MCP server, so calling it never
  raises a permission question (the hook would also allow it at once).

Every `CHOICE_*` setting that differs from its default is written into the command itself
(`env NAME=value … choice hook`): the agent runs its hooks with its own environment (Codex
from a long-lived daemon), never the shell's that ran this. Secrets are left out, and said
so on stderr. With a team server (`CHOICE_URL`), the command carries `CHOICE_URL` and
`CHOICE_TOKEN` instead of where the local portal is: the token itself, since the agent's
environment may not hold it (see `choice.mcp.client_config` for why not a placeholder), and
a warning on stderr. Both agents read the same JSON shape: Claude Code in `~/.claude/settings.json`
(or a project's `.claude/settings.json`), Codex in `~/.codex/hooks.json`.
"""

from __future__ import annotations

import json
import os
import shlex
from urllib.parse import urlsplit

from choice.client.connection import team_server
from choice.core.config import Settings, choice_command
from choice.core.variables import VARIABLES
from choice.hooks.payload import MOVED_ON, PORTAL_MCP_SERVERS

WHERE = {"claude": "~/.claude/settings.json (or .claude/settings.json in a project)",
         "codex": "~/.codex/hooks.json (or .codex/hooks.json in a project)"}
MARGIN_SECONDS = 10
NOTICE_TIMEOUT = 10
"""A notice is one request to a running portal (none is started for it)."""
SECRET = ("CHOICE_WEBHOOK_SECRET", "CHOICE_OIDC_CLIENT_SECRET")
"""Never written into an agent's settings file."""


def render(agent: str, settings: Settings | None = None,
           env: dict[str, str] | None = None) -> str:
    """The JSON to merge, as text."""
    settings = settings or Settings.from_env(env)
    command = hook_command(agent, carried(settings, env)[0])
    asking = {"type": "command", "command": command,
              "timeout": settings.hook_wait_seconds + MARGIN_SECONDS}
    notice = {"type": "command", "command": command, "timeout": NOTICE_TIMEOUT}
    telling = {**notice, "async": True}
    tools = "|".join(settings.hook_tools) or "*"
    hooks: dict[str, list[dict[str, object]]] = {
        "PermissionRequest": [{"matcher": "*", "hooks": [asking]}]}
    for event in MOVED_ON:
        matched = {"matcher": tools} if event == "PostToolUse" else {}
        hooks[event] = [{**matched, "hooks": [telling]}]
    if agent == "claude":
        hooks["Notification"] = [{"matcher": "idle_prompt|permission_prompt",
                                  "hooks": [notice]}]
        snippet: dict[str, object] = {
            "permissions": {"allow": [f"mcp__{server}" for server in PORTAL_MCP_SERVERS]},
            "hooks": hooks}
    else:
        snippet = {"hooks": hooks}
    return json.dumps(snippet, indent=2)


def advice(agent: str, settings: Settings | None = None,
           env: dict[str, str] | None = None) -> str:
    """What goes to stderr: where to merge the JSON, and any setting left out of it."""
    settings = settings or Settings.from_env(env)
    lines = [f"choice hook-config: merge this into {WHERE[agent]}"]
    if agent == "codex":
        lines.append("choice hook-config: Codex asks you to review and trust a new or "
                     "changed hooks.json once, in its own terminal, before it runs it")
    lines += [f"choice hook-config: {name} is not written into the agent's settings (a "
              "secret): a portal the hook starts goes without it; run `choice serve` with "
              "it yourself" for name in carried(settings, env)[1]]
    if team_server(settings) is not None:
        lines.append("choice hook-config: the command holds your CHOICE_TOKEN: keep it in "
                      "your own user settings, never in a project's shared or committed "
                      "files; if it leaks, revoke the token on the team server's settings page")
    return "\n".join(lines)


def hook_command(agent: str, variables: dict[str, str]) -> str:
    """`choice hook AGENT` by absolute path, through `env` when it carries settings: a
    command line that both a shell and a direct exec run the same way."""
    assignments = [f"{name}={value}" for name, value in variables.items()]
    return shlex.join([*(["env", *assignments] if assignments else []),
                       *choice_command(), "hook", agent])


def carried(settings: Settings, env: dict[str, str] | None = None) -> tuple[dict[str, str],
                                                                            list[str]]:
    """The `CHOICE_*` variables the hook command carries (set, and not their default), and
    the names of those left out as secrets."""
    env = dict(os.environ if env is None else env)
    remote = team_server(settings)
    if remote is not None:  # the team server, instead of where the local portal is
        variables = {"CHOICE_URL": remote.base_url, "CHOICE_TOKEN": str(remote.token)}
    else:
        variables = settings.environment_to_reach()
    # Set above, as normalised; or read only with a team server (CHOICE_TOKEN), or ignored then.
    reached = {"CHOICE_HOST", "CHOICE_PORT", "CHOICE_DATA_DIR", "CHOICE_URL", "CHOICE_TOKEN"}
    left_out = []
    for variable in VARIABLES:
        value = env.get(variable.name, "")
        if variable.name in reached or not value or \
                variable.read({variable.name: value}) == variable.read({}):
            continue
        if variable.name in SECRET or _holds_credentials(variable.kind, value):
            left_out.append(variable.name)
        else:
            variables[variable.name] = value
    return variables, left_out


def _holds_credentials(kind: str, value: str) -> bool:
    return kind == "url" and bool(urlsplit(value).password)
