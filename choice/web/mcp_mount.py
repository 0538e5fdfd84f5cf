"""The `/mcp` mount: serves the MCP app the app factory is given, built in the background
so the portal starts fast.

The web transport imports nothing of `choice.mcp`: `create_app(mcp=...)` is handed an
`McpFactory` (the portal's is `choice.mcp.asgi.portal_mcp_app`). Building it imports the
MCP SDK, ~1.7 s here (pydantic models of every protocol type), more than the rest of the
portal together. `McpMount.running()` (entered by the app's lifespan) calls the factory on
a worker thread while the portal already serves pages and the API, then keeps the app's
sessions running in their own task for the life of the app. A request to `/mcp` that
arrives before it is built waits for it; if building failed, it gets a 503 saying why. A
body over `MCP_BODY_MAX` gets the portal's 413 (`mcp_body.py`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any, Protocol

from litestar.enums import ScopeType
from litestar.types import Receive, Scope, Send

from choice.core.background import finish
from choice.core.config import Settings
from choice.web.mcp_body import (
    MCP_BODY_MAX,
    BodyTooLarge,
    LimitedBody,
    declared_length,
    refuse_too_large,
)
from choice.web.security.auth import CODE_SECONDS, LoginCodes, login_link
from choice.web.security.guards import send_error

if TYPE_CHECKING:
    from choice.web.deps import PortalParts

log = logging.getLogger("choice.mcp")
READY_SECONDS = 30.0
STOP_SECONDS = 5.0
"""How long shutdown lets the MCP app's sessions close before its task is cancelled."""
SignInLink = Callable[[str, float], str]
"""(path, seconds) -> a one-time sign-in link to that page, good for that long."""


class McpApp(Protocol):
    """An MCP transport as the mount serves it: an ASGI app, and the sessions it runs for
    as long as it serves (the SDK's session manager)."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None: ...

    def running(self) -> AbstractAsyncContextManager[object]: ...


class McpFactory(Protocol):
    """Builds the MCP app for this portal (its service and features) and settings;
    `sign_in_link` is None when the portal has no sign-in codes to hand out. Called once, on
    a worker thread (it may import something slow)."""

    def __call__(self, portal: PortalParts, settings: Settings,
                 sign_in_link: SignInLink | None) -> McpApp: ...


class McpMount:
    """ASGI app for `/mcp`; delegates to the MCP app once it is built."""

    def __init__(self, factory: McpFactory, portal: PortalParts, settings: Settings,
                 codes: LoginCodes | None = None) -> None:
        self._factory = factory
        self._portal = portal
        self._settings = settings
        self._codes = codes
        self._app: McpApp | None = None
        self._failure: str | None = None
        self._ready = asyncio.Event()

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        stop, self._ready, self._app, self._failure = asyncio.Event(), asyncio.Event(), None, None
        task = asyncio.create_task(self._serve(stop), name="mcp-session-manager")
        try:
            yield
        finally:
            stop.set()  # the session manager's exit closes open sessions: bounded, then cut
            await finish(task, grace=STOP_SECONDS if self._ready.is_set() else 0.0)

    async def _serve(self, stop: asyncio.Event) -> None:
        try:
            app = await asyncio.to_thread(self._factory, self._portal, self._settings,
                                          self._sign_in_link if self._codes else None)
        except Exception as error:  # reported to every MCP request instead of crashing the portal
            log.exception("the MCP server could not be loaded")
            self._failure = f"{type(error).__name__}: {error}"
            self._ready.set()
            return
        async with app.running():
            self._app = app
            self._ready.set()
            await stop.wait()

    def _sign_in_link(self, path: str, seconds: float) -> str:
        """The link a URL elicitation hands the MCP client: one use, alive as long as the
        question (at least a minute), on the portal's public origin if it has one."""
        assert self._codes is not None  # handed to the server only with codes
        return login_link(self._settings, self._codes, path, max(seconds, CODE_SECONDS),
                          self._settings.link_base)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await asyncio.wait_for(self._ready.wait(), READY_SECONDS)
        except TimeoutError:
            await send_error(send, 503, "mcp_unavailable",
                             "the MCP server is still loading: try again shortly.", "request")
            return
        if self._app is None:
            reason = self._failure or "the MCP server is not running"
            await send_error(send, 503, "mcp_unavailable", f"{reason}; see the portal's log.",
                             "request")
            return
        if scope["type"] != ScopeType.HTTP:
            await self._app(scope, receive, send)
            return
        if (declared_length(scope) or 0) > MCP_BODY_MAX:
            await refuse_too_large(send)
            return
        limited = LimitedBody(receive, send)
        # The SDK's error handler re-raises what its app raised: answered below.
        with contextlib.suppress(BodyTooLarge):
            await self._app(scope, limited.receive, limited.send)
        if limited.tripped and not limited.started:
            await refuse_too_large(send)
