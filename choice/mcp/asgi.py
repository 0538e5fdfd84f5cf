"""The portal's MCP server as the ASGI app a web transport mounts at `/mcp`, with the
sessions it must run for as long as it serves.

`portal_mcp_app` is what the composition root hands the web app factory (`choice/portal.py`): the
web transport imports nothing of this package, it only calls what it is given. Light to
import: the SDK (slow to import, and large: pydantic models) is imported when `portal_mcp_app`
runs, which the mount does on a worker thread when `/mcp` is first asked for.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Receive, Scope, Send

    from choice.core.config import Settings
    from choice.mcp.server import McpParts, PortalMCP, SignInLink


class McpAsgi:
    """The SDK's streamable HTTP app at the mount's root, and its session manager."""

    def __init__(self, server: PortalMCP, app: ASGIApp) -> None:
        self._server = server
        self._app = app

    def running(self) -> AbstractAsyncContextManager[object]:
        """Entered once, for the life of the app: open sessions close when it exits."""
        return self._server.session_manager.run()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self._app(scope, receive, send)


def portal_mcp_app(portal: McpParts, settings: Settings,
                   sign_in_link: SignInLink | None) -> McpAsgi:
    """The portal's tools over Streamable HTTP, calling its service and features in-process.
    `sign_in_link` makes the links a URL elicitation hands an MCP client (None: the client
    is asked by form only). Slow the first time: it imports the SDK."""
    from choice.mcp.server import PortalMCP, security_for  # the SDK: off the event loop

    server = PortalMCP(lambda: portal, settings, sign_in_link)
    app = server.streamable_http_app(streamable_http_path="/",
                                     transport_security=security_for(settings))
    return McpAsgi(server, app)
