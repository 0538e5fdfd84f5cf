"""The `/mcp` mount loads the SDK in the background; if loading fails, MCP says so (503)
and the rest of the portal keeps working."""

from __future__ import annotations

import importlib
from types import ModuleType

import pytest
from litestar.testing import TestClient

from choice.portal import create_app
from tests.api.conftest import BASE_URL, token

INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                         "clientInfo": {"name": "test", "version": "0"}}}
MCP_HEADERS = {"Accept": "application/json, text/event-stream"}


def test_mcp_answers_once_loaded() -> None:
    app = create_app()
    with TestClient(app, base_url=BASE_URL) as client:
        client.headers["Authorization"] = f"Bearer {token()}"
        response = client.post("/mcp/", json=INITIALIZE, headers=MCP_HEADERS)
    assert response.status_code == 200
    assert "choice-portal" in response.text


def test_a_failed_sdk_import_gives_503_and_the_portal_still_serves(
        monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = importlib.import_module

    def broken(name: str, package: str | None = None) -> ModuleType:
        if name == "choice.mcp.server":
            raise ImportError("No module named 'mcp'")
        return real_import(name, package)

    monkeypatch.setattr(importlib, "import_module", broken)
    app = create_app()
    with TestClient(app, base_url=BASE_URL) as client:
        client.headers["Authorization"] = f"Bearer {token()}"
        refused = client.post("/mcp/", json=INITIALIZE, headers=MCP_HEADERS)
        health = client.get("/healthz")
    assert refused.status_code == 503
    error = refused.json()["errors"][0]
    assert error["code"] == "mcp_unavailable" and "No module named 'mcp'" in error["message"]
    assert health.status_code == 200
