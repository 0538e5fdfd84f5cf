"""`choice mcp-config [client]`: ready-to-paste MCP client configuration.

Two forms: the command form (`choice mcp`, stdio; it reads the token itself and starts a
portal when none runs) and the HTTP form (`/mcp` with the bearer token header). The command
is the installed `choice` by absolute path, whichever way it was installed (uv tool, pipx,
a wheel in a venv, editable): desktop clients do not start from the user's shell and often
lack `~/.local/bin` or the venv on their PATH.

With `CHOICE_URL` set, both forms reach that team server instead, with `CHOICE_TOKEN`: the
command form's `env` carries the two (and no `CHOICE_HOST`, `CHOICE_PORT` or
`CHOICE_DATA_DIR`, which it ignores), the HTTP form is the server's `/mcp`. The token itself
is printed, not a placeholder, as the local HTTP form prints the local one: not every client
expands variables in its configuration (Claude Desktop does not, Codex passes a server only
what its table names), so a placeholder would give a configuration that fails at the first
call. The warning on stderr (`note`) says where the file may go and how to revoke a token
that leaked.

Codex reads TOML (`~/.codex/config.toml`): `codex` prints the `[mcp_servers.choice]` table
alone, so stdout can be appended to that file as it is; what to do with it (`note`) goes to
stderr. Codex passes a server only the environment its table names, and stops a tool call
after `tool_timeout_sec` (60 s unless set): the table names both.
"""

from __future__ import annotations

import json
import shlex
from typing import Any

from choice.client.connection import team_server
from choice.core.config import Settings, choice_command
from choice.core.token import ensure_token


def render(client: str, settings: Settings | None = None) -> str:
    settings = settings or Settings.from_env()
    remote = team_server(settings)
    if remote is not None:  # nothing of a team server lives in the data dir
        assert remote.token is not None  # `Settings.from_env` requires it with CHOICE_URL
        token, url = remote.token, f"{remote.base_url}/mcp"
        env = {"CHOICE_URL": remote.base_url, "CHOICE_TOKEN": remote.token,
               **{name: value for name, value in settings.environment_of_the_bridge().items()
                  if name not in settings.environment_to_reach()}}
        started = f"asks the team server at {remote.base_url}"
        served = "straight to the team server"
    else:
        settings.prepare_data_dir()
        token, url = ensure_token(settings.token_path), f"{settings.base_url}/mcp"
        env = settings.environment_of_the_bridge()
        started, served = "starts a portal when none runs", "against a running `choice serve`"
    program, *args = [*choice_command(), "mcp"]
    command: dict[str, Any] = {"command": program, "args": args, **({"env": env} if env else {})}
    http: dict[str, Any] = {"url": url, "headers": {"Authorization": f"Bearer {token}"}}
    if client == "claude":
        env_flags = "".join(f" -e {k}={shlex.quote(v)}" for k, v in env.items())
        return "\n".join([
            f"# Claude Code, command form ({started}):",
            f"claude mcp add choice{env_flags} -- {shlex.join([program, *args])}",
            f"# or the HTTP form, {served}:",
            f"claude mcp add --transport http choice {url} "
            f"--header {shlex.quote('Authorization: Bearer ' + token)}",
        ])
    if client == "vscode":
        return json.dumps({"servers": {
            "choice": {"type": "stdio", **command},
            "choice-http": {"type": "http", **http},
        }}, indent=2)
    if client in ("cursor", "claude-desktop"):
        return json.dumps({"mcpServers": {"choice": command, "choice-http": http}}, indent=2)
    if client == "codex":
        return codex_table(program, args, env, codex_tool_timeout(settings))
    return json.dumps({"command_form": command, "http_form": http}, indent=2)


def note(client: str, settings: Settings | None = None) -> str | None:
    """What to do with the printed configuration, for stderr (stdout is the configuration
    alone), when it is not said by the configuration itself."""
    said = []
    if client == "codex":
        said.append("# Append this to ~/.codex/config.toml (or to the same file in a trusted "
                    "project's .codex folder), replacing any [mcp_servers.choice] table there.")
    if team_server(settings or Settings.from_env()) is not None:
        said.append(TOKEN_WARNING)
    return "\n".join(said) or None


TOKEN_WARNING = ("# This configuration holds your CHOICE_TOKEN: keep it in your own user "
                 "settings, never in a project's shared or committed files; if it leaks, revoke "
                 "the token on the team server's settings page.")
"""Said on stderr whenever a team server's token is printed."""


CODEX_TIMEOUT_MARGIN = 30
"""Seconds over the portal's wait (`CHOICE_MCP_WAIT_SECONDS`) before Codex gives up on a
call: a first call may also wait for the portal the bridge starts, on a busy machine."""


def codex_tool_timeout(settings: Settings) -> int:
    """Codex's `tool_timeout_sec`: a waiting call answers `pending` after the portal's
    wait, well before Codex would end it (its own default, 60 s, is barely over 50)."""
    return settings.mcp_wait_seconds + CODEX_TIMEOUT_MARGIN


def codex_table(program: str, args: list[str], env: dict[str, str], timeout: int) -> str:
    """`[mcp_servers.choice]` in TOML. A JSON string is a TOML basic string (the same
    escapes), so `json.dumps` quotes every value; keys are `CHOICE_*` names (bare keys)."""
    lines = ["[mcp_servers.choice]", f"command = {json.dumps(program)}",
             f"args = [{', '.join(json.dumps(arg) for arg in args)}]",
             f"tool_timeout_sec = {timeout}",
             # each call is a question to the person already: Codex asking first to allow
             # the call would ask twice
             'default_tools_approval_mode = "approve"']
    if env:
        lines += ["", "[mcp_servers.choice.env]",
                  *(f"{name} = {json.dumps(value)}" for name, value in env.items())]
    return "\n".join(lines)
