"""MCP tests talk to a real portal with the SDK's own client, over HTTP and over stdio."""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx2
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import Implementation

from tests.portal_process import PortalProcess

FAST = {"CHOICE_MCP_WAIT_SECONDS": "2", "CHOICE_MCP_PROGRESS_SECONDS": "0.5"}


@pytest.fixture(scope="module")
def portal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PortalProcess]:
    """One portal for a module: each test asks its own, uniquely titled questions."""
    process = PortalProcess(tmp_path_factory.mktemp("mcp-portal"), **FAST).start()
    yield process
    process.stop()


@asynccontextmanager
async def http_session(portal: PortalProcess, token: str | None = None,
                       client_info: Implementation | None = None) -> AsyncIterator[ClientSession]:
    """`client_info`: what the client says it is in `initialize` (the SDK's own by default)."""
    headers = {"Authorization": f"Bearer {token or portal.token}"}
    async with httpx2.AsyncClient(headers=headers, timeout=30) as http, \
            streamable_http_client(f"{portal.base_url}/mcp", http_client=http) as streams, \
            ClientSession(streams[0], streams[1], client_info=client_info) as session:
        await session.initialize()
        yield session


@asynccontextmanager
async def stdio_session(data_dir: Path, port: int, *, cwd: Path | None = None,
                        client_info: Implementation | None = None,
                        **env_overrides: str) -> AsyncIterator[ClientSession]:
    """`choice mcp` launched as a client launches it: `cwd` is the agent's working
    directory (this process's by default), `client_info` what the client says it is."""
    env = {**os.environ, "CHOICE_DATA_DIR": str(data_dir), "CHOICE_PORT": str(port),
           "CHOICE_OPEN_BROWSER": "0", **FAST, **env_overrides}
    params = StdioServerParameters(command=sys.executable, args=["-m", "choice.cli", "mcp"],
                                   env=env, cwd=cwd)
    async with stdio_client(params) as (read, write), \
            ClientSession(read, write, client_info=client_info) as session:
        await session.initialize()
        yield session


def ask(**overrides: object) -> dict[str, object]:
    request: dict[str, object] = {
        "title": f"Pick a database {uuid.uuid4().hex[:8]}",
        "prompt": "The service needs a store; both fit.",
        "options": [{"id": "pg", "label": "PostgreSQL"}, {"id": "lite", "label": "SQLite"}],
    }
    request.update(overrides)
    return request
