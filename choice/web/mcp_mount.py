"""The `/mcp` mount: serves the MCP app the app factory is given, built when `/mcp` is
first asked for, so a portal no agent talks to over MCP never loads the SDK.

The web transport imports nothing of `choice.mcp`: `create_app(mcp=...)` is handed an
`McpFactory` (the portal's is `choice.mcp.asgi.portal_mcp_app`). Building it imports the
MCP SDK, slow to import and large (pydantic models of every protocol type): about as much
memory as the rest of the portal's code together. The first request to `/mcp` calls the factory on
a worker thread (pages and the API are served meanwhile) and waits for it; the app's
sessions then run in their own task, started in the lifespan's context, for the life of
the app (`McpMount.running()`, entered by the lifespan, stops them). Requests that arrive
while it is built wait for it; if building failed, they get a 503 saying why. The stdio
bridge opens its session as soon as the portal answers, so the SDK loads while the MCP
client is still starting. A body over `MCP_BODY_MAX` gets the portal's 413 (`mcp_body.py`).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any, Protocol

from litestar.connection import ASGIConnection
from litestar.enums import ScopeType
from litestar.types import Message, Receive, Scope, Send

from choice.core.actors import MEMBER_SCOPE_KEY
from choice.core.background import finish
from choice.core.config import Settings
from choice.web.mcp_body import (
    MCP_BODY_MAX,
    BodyTooLarge,
    LimitedBody,
    refuse_too_large,
)
from choice.web.security.auth import CODE_SECONDS, Access, Credentials, LoginCodes, login_link
from choice.web.security.guards import header, send_error
from choice.web.security.large_bodies import announced_size
from choice.web.security.live_access import AccessWatch, disconnect_when_access_ends

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
    a worker thread, when `/mcp` is first asked for (it may import something slow)."""

    def __call__(self, portal: PortalParts, settings: Settings,
                 sign_in_link: SignInLink | None) -> McpApp: ...


class McpMount:
    """ASGI app for `/mcp`; builds the MCP app on the first request, then delegates to it."""

    def __init__(self, factory: McpFactory, portal: PortalParts, settings: Settings,
                 codes: LoginCodes | None = None, credentials: Credentials | None = None
                 ) -> None:
        """`credentials`: checked again while a team member's reply streams
        (`live_access.py`): a revoked token or an ended session ends it."""
        self._factory = factory
        self._credentials = credentials
        self._portal = portal
        self._settings = settings
        self._codes = codes
        self._app: McpApp | None = None
        self._failure: str | None = None
        self._ready = asyncio.Event()
        self._stop: asyncio.Event | None = None
        """Set while the lifespan runs: `/mcp` may start the MCP app."""
        self._context: contextvars.Context | None = None
        self._task: asyncio.Task[None] | None = None
        self._sessions = SessionMembers()

    @property
    def started(self) -> bool:
        """Whether the MCP app was asked for (it may still be loading, or have failed)."""
        return self._task is not None

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        stop = asyncio.Event()
        self._stop, self._ready, self._app, self._failure, self._task = \
            stop, asyncio.Event(), None, None, None
        self._context = contextvars.copy_context()  # the lifespan's, not the first request's
        try:
            yield
        finally:
            self._stop = None
            stop.set()  # the session manager's exit closes open sessions: bounded, then cut
            task, self._task = self._task, None
            if task is not None:
                await finish(task, grace=STOP_SECONDS if self._ready.is_set() else 0.0)

    def _start(self) -> bool:
        """Start building the MCP app unless it was; False outside the lifespan."""
        if self._task is None:
            if self._stop is None or self._context is None:
                return False
            self._task = asyncio.create_task(self._serve(self._stop), name="mcp-session-manager",
                                             context=self._context.copy())
        return True

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
        if not self._start():
            await send_error(send, 503, "mcp_unavailable", "the portal is not serving: it is "
                             "starting or stopping; try again shortly.", "request")
            return
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
        access = scope.get("auth")
        member = access.member_id if isinstance(access, Access) else None
        # Team mode: whose agent calls, for the tools (`MEMBER_SCOPE_KEY`).
        handed: Any = {**scope, MEMBER_SCOPE_KEY: member}
        if scope["type"] != ScopeType.HTTP:
            await self._app(handed, receive, send)
            return
        if member is not None:
            session = header(scope, b"mcp-session-id")
            if session is not None and not self._sessions.belongs(session, member):
                # Another member's session: as the SDK answers one it does not know.
                await send_error(send, 404, "not_found", "no MCP session with this id: "
                                 "initialize a new one.", "Mcp-Session-Id")
                return
            if session is None:
                send = self._sessions.recording(send, member)
            if self._credentials is not None:
                watch = AccessWatch(self._credentials, ASGIConnection(scope, receive))
                receive = disconnect_when_access_ends(watch, receive)
        if (announced_size(scope) or 0) > MCP_BODY_MAX:
            await refuse_too_large(send)
            return
        limited = LimitedBody(receive, send)
        # The SDK's error handler re-raises what its app raised: answered below.
        with contextlib.suppress(BodyTooLarge):
            await self._app(handed, limited.receive, limited.send)
        if limited.tripped and not limited.started:
            await refuse_too_large(send)


class SessionMembers:
    """Team mode: which member opened each MCP session (the `Mcp-Session-Id` the SDK hands
    out in answer to an `initialize`), so that a session is only ever used with its own
    member's credentials: another member's token with that id is told the session does not
    exist, and never reaches its stream or its questions. The newest `KEEP` are kept (an
    evicted session's member can no longer use it and initializes again)."""

    KEEP = 10_000

    def __init__(self) -> None:
        self._members: OrderedDict[str, str] = OrderedDict()

    def belongs(self, session: str, member: str) -> bool:
        return self._members.get(session) == member

    def recording(self, send: Send, member: str) -> Send:
        """`send`, noting the session id its response hands out as `member`'s."""

        async def noting(message: Message) -> None:
            if message["type"] == "http.response.start":
                for name, value in message.get("headers", ()):
                    if name.lower() == b"mcp-session-id":
                        self._members[value.decode("latin-1")] = member
                        while len(self._members) > self.KEEP:
                            self._members.popitem(last=False)
            await send(message)

        return noting
