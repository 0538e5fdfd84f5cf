"""The agent's name a question shows when the MCP request does not say (`context.agent`):
the calling client's own name, from its `initialize` request (`clientInfo.name`).

Known clients get the name people know them by (`codex-mcp-client` is Codex); any other is
shown as the client gave it, made printable and one line, and cut to `NAME_MAX`: it is
whatever the client sent, like everything else in a request. No name at all: `mcp`.
"""

from __future__ import annotations

import re

from choice.contract.safe_text import safe_text

UNNAMED = "mcp"
NAME_MAX = 40
KNOWN = {
    "claude-code": "Claude Code",
    "codex-mcp-client": "Codex",
    "claude-ai": "Claude Desktop",
    "cursor-vscode": "Cursor",
    "visual studio code": "VS Code",
}
"""`clientInfo.name` as each client sends it (any case) -> the name shown."""


def agent_name(client_name: object) -> str:
    """The name shown for a client that introduced itself as `client_name`."""
    if not isinstance(client_name, str):
        return UNNAMED
    cleaned = re.sub(r"\s+", " ", safe_text(client_name, keep_newlines=False)).strip()
    if not cleaned:
        return UNNAMED
    known = KNOWN.get(cleaned.lower())
    if known is not None:
        return known
    return cleaned if len(cleaned) <= NAME_MAX else cleaned[:NAME_MAX - 1] + "…"
