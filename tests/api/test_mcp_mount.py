"""The `/mcp` mount serves the MCP app `create_app` is given, built when `/mcp` is first
asked for (a portal nobody reaches over MCP never loads the SDK); if building fails, MCP
says so (503) and the rest of the portal keeps working. The web
transport reaches the MCP transport only through what it is given."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

from litestar import Litestar
from litestar.testing import TestClient

from choice.core.config import Settings
from choice.portal import build, create_app
from choice.web.app import create_app as web_app
from choice.web.deps import PortalParts
from choice.web.mcp_mount import McpFactory, SignInLink
from tests.api.conftest import BASE_URL, token

INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                         "clientInfo": {"name": "test", "version": "0"}}}
MCP_HEADERS = {"Accept": "application/json, text/event-stream"}


class FakeMcp:
    """An MCP app that answers every request with what it was built with."""

    def __init__(self, portal: PortalParts, sign_in_link: SignInLink | None) -> None:
        self.portal, self.sign_in_link = portal, sign_in_link
        self.sessions: list[str] = []

    @asynccontextmanager
    async def _sessions(self) -> AsyncIterator[None]:
        self.sessions.append("started")
        yield
        self.sessions.append("stopped")

    def running(self) -> AbstractAsyncContextManager[object]:
        return self._sessions()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        body = json.dumps({"fake": True, "path": scope["path"],
                           "link": self.sign_in_link("/choice/x", 1.0)
                           if self.sign_in_link else None}).encode()
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": body})


def given(mcp: McpFactory) -> Litestar:
    """The web app of a portal built as `choice serve` builds it, serving `mcp`."""
    return web_app(build(Settings.from_env()), mcp)


def test_mcp_answers_once_loaded() -> None:
    app = create_app()
    with TestClient(app, base_url=BASE_URL) as client:
        client.headers["Authorization"] = f"Bearer {token()}"
        response = client.post("/mcp/", json=INITIALIZE, headers=MCP_HEADERS)
    assert response.status_code == 200
    assert "choice-portal" in response.text


def test_mcp_serves_the_app_it_is_given_for_the_life_of_the_portal() -> None:
    built: list[FakeMcp] = []

    def factory(portal: PortalParts, settings: Settings,
                sign_in_link: SignInLink | None) -> FakeMcp:
        built.append(FakeMcp(portal, sign_in_link))
        return built[-1]

    app = given(factory)
    with TestClient(app, base_url=BASE_URL) as client:
        assert client.get("/healthz").status_code == 200
        assert client.post("/mcp/", json=INITIALIZE).status_code == 401  # still the token's
        assert built == []  # started, served, refused: the MCP app is not built yet
        client.headers["Authorization"] = f"Bearer {token()}"
        answered = client.post("/mcp/", json=INITIALIZE, headers=MCP_HEADERS)
        again = client.post("/mcp/", json=INITIALIZE, headers=MCP_HEADERS)
        assert [fake.sessions for fake in built] == [["started"]]
    assert answered.status_code == again.status_code == 200
    assert answered.json()["fake"] is True
    assert answered.json()["link"].startswith(f"{BASE_URL}/login?code=")  # it can sign people in
    assert built[0].portal.service is app.dependencies["service"].dependency()
    assert built[0].sessions == ["started", "stopped"]


def test_a_failed_build_gives_503_and_the_portal_still_serves() -> None:
    def broken(portal: PortalParts, settings: Settings,
               sign_in_link: SignInLink | None) -> FakeMcp:
        raise ImportError("No module named 'mcp'")

    app = given(broken)
    with TestClient(app, base_url=BASE_URL) as client:
        client.headers["Authorization"] = f"Bearer {token()}"
        refused = client.post("/mcp/", json=INITIALIZE, headers=MCP_HEADERS)
        again = client.post("/mcp/", json=INITIALIZE, headers=MCP_HEADERS)
        health = client.get("/healthz")
    assert refused.status_code == again.status_code == 503
    error = refused.json()["errors"][0]
    assert error["code"] == "mcp_unavailable" and "No module named 'mcp'" in error["message"]
    assert health.status_code == 200


PROBE = textwrap.dedent("""
    import json, pkgutil, sys, importlib
    import choice.web
    for module in pkgutil.walk_packages(choice.web.__path__, "choice.web."):
        importlib.import_module(module.name)
    from litestar.testing import TestClient
    from tests.api.test_mcp_mount import FakeMcp, given
    app = given(lambda portal, settings, link: FakeMcp(portal, link))
    with TestClient(app, base_url="http://127.0.0.1:8765") as client:
        status = client.get("/healthz").status_code
    print(json.dumps({"status": status, "modules": sorted(sys.modules)}))
""")


def test_the_web_transport_loads_nothing_of_the_mcp_transport_when_given_its_app() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                          timeout=120, check=True)
    probed = json.loads(done.stdout.strip().splitlines()[-1])
    assert probed["status"] == 200  # the probe really served
    assert "choice.web.app" in probed["modules"]
    assert [name for name in probed["modules"]
            if name == "mcp" or name.startswith(("choice.mcp", "mcp."))] == []
