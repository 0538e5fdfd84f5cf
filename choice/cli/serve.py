"""Running the portal: in the foreground (`choice serve`, `python server.py`) or on a
background thread of the current process (`choice ask` when no portal answers).
"""

from __future__ import annotations

import contextlib
import gc
import socket
import threading
import time
from typing import Any

import uvicorn

from choice.cli.language import cli_translator
from choice.client.portal_client import PortalClient
from choice.core.config import Settings
from choice.core.token import ensure_token
from choice.store.schema import SchemaError, upgrade_url
from choice.web.live.socket_limits import INBOUND_BYTES
from choice.web.security.auth import issue_code

GRACEFUL_SHUTDOWN_SECONDS = 3
BANNER_LINK_SECONDS = 600.0
"""How long the sign-in link `choice serve` prints works (once): long enough to read it."""


def port_is_free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


class OwnScope:
    """Hands the app a copy of each connection's scope, so the access log shows the path
    that was asked for: Litestar rewrites `scope["path"]` in place for a mounted app
    (`/mcp` becomes `/`), and uvicorn's access log reads the scope it made, so every MCP
    request was logged as `POST /`. Costs one shallow dict copy per request."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await self.app(scope if scope["type"] == "lifespan" else dict(scope), receive, send)


def _config(app: Any, settings: Settings, log_level: str) -> uvicorn.Config:
    return uvicorn.Config(
        OwnScope(app), host=settings.host, port=settings.port, log_level=log_level,
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS, server_header=False,
        proxy_headers=False,
        # Countdown messages are short: deflate saves nothing and doubles the memory
        # of every open socket (`bench/web_bench.py --ws-compression` compares).
        ws_per_message_deflate=False,
        # A frame over this is refused from its header, before it is buffered (the
        # default, 16 MiB, let the sockets of one link hold gigabytes); the sockets check
        # it too, for other servers (`web/live/socket_limits.py`).
        ws_max_size=INBOUND_BYTES,
    )


def serve(app: Any = None, settings: Settings | None = None) -> None:
    """Serve in the foreground until Ctrl-C."""
    settings = settings or Settings.from_env()
    settings.prepare_data_dir()
    try:  # before the app opens its store: a database this version cannot serve is one line
        upgrade_url(settings.db_url)
    except SchemaError as error:
        raise SystemExit(f"choice serve: {error}") from None
    if app is None:
        from choice.portal import create_app

        app = create_app(settings)
    if not port_is_free(settings.host, settings.port):
        if PortalClient(settings.base_url, None).is_portal():
            raise SystemExit(f"a choice portal is already running at {settings.base_url}")
        raise SystemExit(f"port {settings.port} on {settings.host} is taken by another program: "
                         "set CHOICE_PORT to a free port.")
    token = ensure_token(settings.token_path)
    _ = cli_translator(settings)
    print(_("choice portal on {url}  (data: {path})").format(
        url=settings.base_url, path=settings.data_dir), flush=True)
    if settings.team_mode:  # a code link would open nothing: members sign in at the provider
        print(_("Team mode: members sign in at {url}").format(
            url=f"{settings.link_base}/login"), flush=True)
    else:
        # A one-time link, never the token: this line may end up in a log (`portal.log`).
        link = (f"{settings.base_url}/login?code="
                f"{issue_code(token, BANNER_LINK_SECONDS, time.time())}")
        print(_("Open it signed in (once, within 10 minutes; `choice open` makes another): "
                "{url}").format(url=link), flush=True)
    print(_("API token: `choice token` (stored in {path})").format(path=settings.token_path),
          flush=True)
    # `choice serve` builds the app with the collector off (`cli/commands.py`): start-up
    # makes many long-lived objects and little garbage. Serving makes garbage: collect again.
    gc.enable()
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn re-raises Ctrl-C once it has shut down
        uvicorn.Server(_config(app, settings, "info")).run()


class BackgroundPortal:
    """A portal on a daemon thread of this process; it ends when this process does."""

    def __init__(self, settings: Settings) -> None:
        from choice.portal import create_app

        self.settings = settings
        app = create_app(settings, log_level="WARNING")
        self.server = uvicorn.Server(_config(app, settings, "warning"))
        self.thread = threading.Thread(target=self.server.run, name="choice-portal", daemon=True)

    def start(self, timeout: float = 15.0) -> None:
        self.thread.start()
        client = PortalClient(self.settings.base_url, None)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.server.started and client.is_portal():
                return
            if not self.thread.is_alive():
                break
            time.sleep(0.05)  # waiting for another thread's socket: nothing to wait on instead
        raise RuntimeError(f"the portal did not start on {self.settings.base_url}")

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=GRACEFUL_SHUTDOWN_SECONDS + 2)
