"""Writes `listing.json`, the answers the stdio bridge gives without the portal (`listing.py`).

They are asked of the real server: the portal's MCP app, in memory, over its own HTTP
transport, so the file holds exactly what `/mcp` answers to `initialize` and `tools/list`.
Run `scripts/mcp-listing` after changing a tool, its schemas, the instructions or the SDK
version; `tests/mcp/test_bridge.py` fails until then. A development tool: the
portal and the bridge never import it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, LATEST_HANDSHAKE_VERSION
from starlette.testclient import TestClient

from choice.core.config import Settings
from choice.mcp.server import PortalMCP, security_for

TARGET = Path(__file__).with_name("listing.json")
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": LATEST_HANDSHAKE_VERSION, "capabilities": {},
    "clientInfo": {"name": "snapshot", "version": "1"}}}


def _message(body: str) -> dict[str, Any]:
    """The one JSON-RPC message of a reply sent as JSON or as one SSE event."""
    data = [line[5:].strip() for line in body.splitlines() if line.startswith("data:")]
    message: dict[str, Any] = json.loads(data[0] if data else body)
    return message


def ask_the_server() -> dict[str, Any]:
    settings = Settings.from_env()
    server = PortalMCP(lambda: None, settings)  # type: ignore[arg-type, return-value]
    app = server.streamable_http_app(streamable_http_path="/",
                                     transport_security=security_for(settings))
    # Entering the client runs the app's lifespan, which runs the SDK's session manager.
    with TestClient(app, base_url=settings.base_url) as client:
        opened = client.post("/", json=INITIALIZE, headers=HEADERS)
        session = {"Mcp-Session-Id": opened.headers["mcp-session-id"],
                   "MCP-Protocol-Version": LATEST_HANDSHAKE_VERSION}
        initialize = _message(opened.text)["result"]
        client.post("/", json={"jsonrpc": "2.0", "method": "notifications/initialized"},
                    headers={**HEADERS, **session})
        listed = client.post("/", json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
                             headers={**HEADERS, **session})
        tools = _message(listed.text)["result"]
    initialize.pop("protocolVersion")
    return {
        "generated_by": "scripts/mcp-listing: the portal's own answers; do not edit",
        "handshake_versions": list(HANDSHAKE_PROTOCOL_VERSIONS),
        "latest_handshake_version": LATEST_HANDSHAKE_VERSION,
        "initialize": initialize,
        "tools": tools["tools"],
    }


def main() -> int:
    TARGET.write_text(json.dumps(ask_the_server(), indent=1, ensure_ascii=False) + "\n", "utf-8")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
