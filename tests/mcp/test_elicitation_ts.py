"""The TypeScript MCP SDK client (what IDE clients embed) answers a form elicitation.

The SDK is installed with npm, pinned, into `~/.cache/choice-portal/` (`tests/npm_cache.py`:
once; later runs reuse it). Without node or npm, or when the install fails (no registry),
the test is skipped with the reason.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from tests.mcp.conftest import ask
from tests.npm_cache import npm_package
from tests.portal_process import PortalProcess

SDK_VERSION = "1.32.2"
SCRIPT = Path(__file__).parent / "ts" / "elicit_client.mjs"


def ts_sdk() -> Path:
    """The cache dir with the SDK installed and the client script beside its node_modules."""
    cache = npm_package("@modelcontextprotocol/sdk", SDK_VERSION, "the TypeScript SDK client")
    shutil.copyfile(SCRIPT, cache / SCRIPT.name)
    return cache


def test_the_typescript_client_answers_the_form(portal: PortalProcess) -> None:
    cache = ts_sdk()
    request = ask(interface="client", options=[
        {"id": "pg", "label": "PostgreSQL", "recommended": True},
        {"id": "lite", "label": "SQLite"}])
    ran = subprocess.run(
        ["node", str(cache / SCRIPT.name), f"{portal.base_url}/mcp", portal.token,
         json.dumps(request), json.dumps({"answer": "lite", ":note": "from the IDE"})],
        capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    out = json.loads(ran.stdout.strip().splitlines()[-1])
    assert out["seen"]["requestedSchema"]["properties"]["answer"]["oneOf"][0]["title"] == \
        "PostgreSQL (recommended)"
    body = out["result"]["structuredContent"]  # the client validated it against outputSchema
    assert body["status"] == "submitted" and body["selected_ids"] == ["lite"]
    assert body["interface"] == "client" and body["global_annotation"] == "from the IDE"
