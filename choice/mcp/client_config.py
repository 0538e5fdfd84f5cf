"""`choice mcp-config [client]`: ready-to-paste MCP client configuration.

Two forms: the command form (`choice mcp`, stdio; it reads the token itself and starts a
portal when none runs) and the HTTP form (`/mcp` with the bearer token header). The command
is the installed `choice` by absolute path, whichever way it was installed (uv tool, pipx,
a wheel in a venv, editable): desktop clients do not start from the user's shell and often
lack `~/.local/bin` or the venv on their PATH.
"""

from __future__ import annotations

import json
import shlex
from typing import Any

from choice.core.config import Settings, choice_command
from choice.core.token import ensure_token


def render(client: str, settings: Settings | None = None) -> str:
    settings = settings or Settings.from_env()
    settings.prepare_data_dir()
    token, url = ensure_token(settings.token_path), f"{settings.base_url}/mcp"
    env = settings.environment_to_reach()
    program, *args = [*choice_command(), "mcp"]
    command: dict[str, Any] = {"command": program, "args": args, **({"env": env} if env else {})}
    http: dict[str, Any] = {"url": url, "headers": {"Authorization": f"Bearer {token}"}}
    if client == "claude":
        env_flags = "".join(f" -e {k}={shlex.quote(v)}" for k, v in env.items())
        return "\n".join([
            "# Claude Code, command form (starts a portal when none runs):",
            f"claude mcp add choice{env_flags} -- {shlex.join([program, *args])}",
            "# or the HTTP form, against a running `choice serve`:",
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
    return json.dumps({"command_form": command, "http_form": http}, indent=2)
