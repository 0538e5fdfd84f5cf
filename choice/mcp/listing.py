"""What `choice mcp` answers by itself, before and without the portal: `initialize` and
`tools/list`.

Both answers are static. `listing.json` beside this module holds the portal's own answers,
asked of the real server by `scripts/mcp-listing` (`snapshot.py`); a test checks that they
equal what a running portal's `/mcp` answers, so the two cannot drift. The bridge's
`tools/list` adds the one field only it takes, an attachment's `path` (`local_files.py`).
Standard library only: the bridge must answer in a fraction of a second, and the SDK import
alone takes longer.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from choice.mcp.local_files import advertised

LISTING: dict[str, Any] = json.loads(Path(__file__).with_name("listing.json").read_text("utf-8"))


def negotiated_version(requested: object) -> str:
    """The SDK's rule: the client's version if the server speaks it, else its newest."""
    versions: list[str] = LISTING["handshake_versions"]
    return requested if isinstance(requested, str) and requested in versions \
        else str(LISTING["latest_handshake_version"])


def initialize_result(params: object) -> dict[str, Any] | None:
    """The portal's answer to `initialize`, or None when the params are not well-formed
    (the portal then answers, with the SDK's own error)."""
    if not isinstance(params, dict):
        return None
    client = params.get("clientInfo")
    if not (isinstance(params.get("protocolVersion"), str)
            and isinstance(params.get("capabilities"), dict)
            and isinstance(client, dict)
            and isinstance(client.get("name"), str) and isinstance(client.get("version"), str)):
        return None
    return {**LISTING["initialize"], "protocolVersion": negotiated_version(params["protocolVersion"])}


BRIDGE_TOOLS = advertised(LISTING["tools"])
"""The portal's tools, with the one field only the bridge takes (an attachment's `path`)."""


def tools_result() -> dict[str, Any]:
    return {"tools": BRIDGE_TOOLS}


def answer(request_id: Any, result: dict[str, Any]) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "result": result},
                      ensure_ascii=False, separators=(",", ":")).encode()
