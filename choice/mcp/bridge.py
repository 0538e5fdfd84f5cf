"""`choice mcp`: the MCP client's stdio, bridged to the portal's `/mcp`.

`initialize`, `tools/list` and `ping` are answered here at once, from the portal's own
answers (`listing.py`), while the portal is found or started in the background: an MCP
client lists the tools at once even when the portal needs a second or two to start. Every
other message (a `tools/call`, a cancel) waits for the portal and for this bridge's own
session there, opened by replaying the client's `initialize`, then goes through as is: each
JSON-RPC line is POSTed to `/mcp` (token, session id and protocol version headers kept),
and what comes back, a JSON body or SSE events (progress included), goes to stdout one
message per line. Messages are forwarded concurrently, so a long `tools/call` never blocks
a cancel. A call's attachment may name a local file by `path`: the bridge reads it and
sends its bytes, when it is one it may send (`local_files.py`, `file_access.py`). If the
portal restarted and forgot the session, the bridge opens a new one and retries once. With
`CHOICE_URL` set it talks to that team server with `CHOICE_TOKEN` instead, and starts
nothing (`choice.client.connection.team_server`). On
exit (stdin closed, SIGTERM, SIGHUP, Ctrl-C) it ends its session on the portal, which would
otherwise keep it in memory until the SDK's idle timeout.
Standard library only: it must start fast and stay small.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from functools import cached_property
from types import FrameType
from typing import IO, Any

from choice.client.autostart import ensure_portal
from choice.client.connection import discover, team_server
from choice.client.errors import (
    REMOTE_HINT,
    REMOTE_TOKEN_HINT,
    ClientError,
    PortalNotRunning,
    PortalRefused,
)
from choice.client.portal_client import auth_headers
from choice.core.config import Settings
from choice.mcp import listing
from choice.mcp.file_access import Places
from choice.mcp.local_files import Refused, refusal, with_local_files
from choice.mcp.relay import PortalLink, error_text

PARSE_ERROR = b'{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}'
INITIALIZED = b'{"jsonrpc":"2.0","method":"notifications/initialized"}'


class Bridge:
    def __init__(self, settings: Settings, output: IO[bytes]) -> None:
        self.settings = settings
        self.output = output
        self.remote = team_server(settings)
        self.link = PortalLink(self.remote.base_url if self.remote else settings.base_url)
        self.write_lock = threading.Lock()
        self.session_lock = threading.Lock()
        self.session_id: str | None = None
        self.protocol_version: str | None = None
        self.initialize_line: bytes | None = None
        self.token: str | None = None
        self.portal_up: Future[None] = Future()
        self.closing = False
        self.pool = ThreadPoolExecutor(max_workers=16, thread_name_prefix="choice-mcp")

    @cached_property
    def places(self) -> Places:
        """Where this bridge may read files from: resolved once (its working directory and
        the configured roots do not move under it), not again for every message."""
        return Places.of(self.settings.mcp_file_roots, self.settings.data_dir)

    # -- the portal and this bridge's session on it -----------------------------------------
    def find_portal(self) -> None:
        """Run on a thread of its own from the start: the first call waits for it."""
        try:
            self._portal()
        except PortalNotRunning as gone:
            self.portal_up.set_exception(gone)
        else:
            self.portal_up.set_result(None)

    def _portal(self) -> None:
        if self.remote is not None:  # a team server: nothing to start, the token is given
            self.token = self.remote.token
            return
        ensure_portal(self.settings)
        self.token = discover(settings=self.settings).token

    def what_to_check(self) -> str:
        """Where a person looks when the portal cannot be reached."""
        if self.remote is not None:
            return REMOTE_HINT
        return f"see {self.settings.data_dir / 'portal.log'}"

    def ready(self) -> None:
        """Block until the portal answers and this bridge's session there is open."""
        with self.session_lock:
            if self.session_id is not None:
                return
            if self.token is None:
                self.portal_up.result()  # PortalNotRunning if that failed: `recover` retries
            self._handshake()

    def _handshake(self) -> None:
        """Open a session by replaying the client's `initialize` (its answer was given
        already). Without one there is no session: messages go as they are."""
        if self.initialize_line is None:
            return
        status, headers, error = self.link.post(self.initialize_line, self.headers(),
                                                None, lambda _body: None)
        if status >= 400 or not headers.get("mcp-session-id"):
            token_hint = REMOTE_TOKEN_HINT if status == 401 and self.remote is not None else ""
            raise PortalRefused(status, [{"field": "mcp", "code": "session_refused",
                                          "message": error_text(error) or "no session id"}],
                                token_hint)
        self.session_id = headers["mcp-session-id"]
        self.link.post(INITIALIZED, self.headers(), None, lambda _body: None)

    def recover(self, failed_session: str | None) -> None:
        """Portal down or restarted: make sure one runs, then open a new session, unless
        another thread has done so since `failed_session` failed."""
        with self.session_lock:
            if self.session_id is not None and self.session_id != failed_session:
                return
            self.session_id, self.token = None, None
            self._portal()
            self._handshake()

    def close(self) -> None:
        """End this bridge's session on the portal."""
        session, self.session_id = self.session_id, None
        if session is not None:
            self.link.delete({**self.headers(), "Mcp-Session-Id": session})

    # -- writing ------------------------------------------------------------------------
    def emit(self, message: bytes) -> None:
        with self.write_lock:
            self.output.write(message.rstrip(b"\n") + b"\n")
            self.output.flush()

    def emit_error(self, request_id: Any, message: str) -> None:
        if request_id is not None:
            self.emit(json.dumps({"jsonrpc": "2.0", "id": request_id,
                                  "error": {"code": -32000, "message": message}}).encode())

    # -- forwarding ---------------------------------------------------------------------
    def headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json",
                   "Accept": "application/json, text/event-stream"}
        headers.update(auth_headers(self.token))
        if self.session_id:
            headers["Mcp-Session-Id"] = self.session_id
        if self.protocol_version:
            headers["MCP-Protocol-Version"] = self.protocol_version
        return headers

    def call(self, line: bytes, message: dict[str, Any]) -> None:
        """Forward one message, with the local files a `tools/call` names by `path` read
        in first (`local_files.py`); one that cannot be read is refused here, unsent."""
        try:
            line = with_local_files(line, message, self.places)
        except Refused as refused:
            if message.get("id") is not None:
                self.emit(refusal(message["id"], refused))
            return
        self.forward(line, message)

    def forward(self, line: bytes, message: dict[str, Any], retry: bool = True) -> None:
        request_id = message.get("id")
        answered: list[bytes] = []

        def relay(body: bytes) -> None:
            answered.append(body)
            self.emit(body)

        session = self.session_id
        try:
            self.ready()
            session = self.session_id
            status, _headers, error = self.link.post(line, self.headers(), request_id, relay)
        except ClientError as failure:  # none answers, or it refused this bridge's session
            if retry:
                self._retry(line, message, session)
            else:
                said = "is not reachable" if isinstance(failure, PortalNotRunning) else \
                    "refused this bridge"
                self.emit_error(request_id, f"the choice portal {said} ({failure}); "
                                f"{self.what_to_check()}")
            return
        if retry and not answered and ((status == 404 and session) or status == 401):
            # The portal restarted and forgot the session, or was started on a new data
            # dir with a new token: read the token again, open a new session, retry once.
            self._retry(line, message, session)
        elif status >= 400:
            refused = REMOTE_TOKEN_HINT if status == 401 and self.remote is not None else ""
            self.emit_error(request_id,
                            f"the portal answered HTTP {status}: {error_text(error)}{refused}")

    def _retry(self, line: bytes, message: dict[str, Any], failed_session: str | None) -> None:
        with contextlib.suppress(ClientError):  # the second attempt reports it
            self.recover(failed_session)
        self.forward(line, message, retry=False)

    def answer_here(self, line: bytes, message: dict[str, Any]) -> bool:
        """Answer what needs no portal; False for everything else."""
        method, request_id = message.get("method"), message.get("id")
        if method == "initialize" and request_id is not None:
            result = listing.initialize_result(message.get("params"))
            if result is None:
                return False  # not well-formed: the portal answers with the SDK's error
            self.initialize_line = line
            self.protocol_version = result["protocolVersion"]
            self.emit(listing.answer(request_id, result))
            self.portal_up.add_done_callback(self._open_early)
            return True
        if method == "notifications/initialized":
            return True  # the bridge's own handshake sends it
        if method == "tools/list" and request_id is not None:
            self.emit(listing.answer(request_id, listing.tools_result()))
            return True
        if method == "ping" and request_id is not None:
            self.emit(listing.answer(request_id, {}))
            return True
        return False

    def _open_early(self, portal_up: Future[None]) -> None:
        """Once the portal is up, open the session, so that the first call need not."""
        if portal_up.exception() is not None or self.closing:
            return  # the first call tries again and reports it
        with contextlib.suppress(RuntimeError):  # stdin closed meanwhile: no session needed
            self.pool.submit(self._quietly_ready)

    def _quietly_ready(self) -> None:
        with contextlib.suppress(ClientError):  # the first call tries again and reports it
            self.ready()

    def run(self, source: IO[bytes]) -> None:
        threading.Thread(target=self.find_portal, name="choice-mcp-portal", daemon=True).start()
        for line in iter(source.readline, b""):
            line = line.strip()
            if not line:
                continue
            try:
                message = json.loads(line)
            except ValueError:
                self.emit(PARSE_ERROR)
                continue
            if not isinstance(message, dict):
                self.pool.submit(self.forward, line, {})
            elif not self.answer_here(line, message):
                self.pool.submit(self.call, line, message)
        self.closing = True  # what was sent is still answered; nothing new is started
        self.pool.shutdown(wait=True)


def main() -> int:
    settings = Settings.from_env()
    bridge = Bridge(settings, sys.stdout.buffer)

    def end(signum: int, _frame: FrameType | None) -> None:
        """The client is done with us (MCP clients send SIGTERM after closing stdin, or
        instead of it): end the session, then exit without waiting for open calls."""
        bridge.close()
        os._exit(128 + signum)

    signal.signal(signal.SIGTERM, end)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, end)
    try:
        bridge.run(sys.stdin.buffer)
    except KeyboardInterrupt:
        end(signal.SIGINT, None)
    bridge.close()
    return 0
