"""What `choice mcp` never reads for an attachment's `path`, from `choice.mcp.file_access`,
the same lists the bridge checks."""

from __future__ import annotations

from choice.mcp.file_access import listed
from docs.gen._markdown import table


def render(arg: str = "") -> str:
    return table(("Refused", "Why"), listed())
