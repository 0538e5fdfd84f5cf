"""`choice mcp`: a byte bridge between an MCP client's stdio and the portal's `/mcp`.

Each JSON-RPC line from stdin is POSTed to `/mcp` (token, session id and protocol version
headers kept); what comes back, a JSON body or SSE events (progress included), goes to
stdout one message per line. After `initialize`, requests are forwarded concurrently, so a
long `tools/call` never blocks a `ping` or a cancel. If no portal answers, one is started
detached (it exits by itself once idle). If the portal restarted and forgot the session,
the bridge initializes again and retries once. Standard library only: it must start fast.
"""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import IO, Any

from choice.api_token import read_token
from choice.config import Settings
from choice.portal_client import PortalClient

START_TIMEOUT = 30.0
IDLE_EXIT_SECONDS = 600
READ_TIMEOUT = 600.0
DRAIN_SECONDS = 2.0
PARSE_ERROR = b'{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}'


class PortalGone(ConnectionError):
    pass


class Bridge:
    def __init__(self, settings: Settings, output: IO[bytes]) -> None:
        self.settings = settings
        self.output = output
        self.write_lock = threading.Lock()
        self.session_lock = threading.Lock()
        self.session_id: str | None = None
        self.protocol_version: str | None = None
        self.initialize_line: bytes | None = None
        self.initialized_line: bytes | None = None
        self.token: str | None = None
        self.local = threading.local()
        self.pool = ThreadPoolExecutor(max_workers=16, thread_name_prefix="choice-mcp")

    # -- the portal ---------------------------------------------------------------------
    def ensure_portal(self) -> None:
        client = PortalClient(self.settings.base_url, None)
        if not client.is_portal():
            self._start_portal()
            deadline = time.monotonic() + START_TIMEOUT
            while not client.is_portal():
                if time.monotonic() > deadline:
                    raise PortalGone(f"no portal answers at {self.settings.base_url} "
                                     f"(see {self.settings.data_dir / 'portal.log'})")
                time.sleep(0.1)  # another process is starting: nothing to wait on but its port
        self.token = read_token(self.settings.token_path)

    def _start_portal(self) -> None:
        self.settings.prepare_data_dir()
        log = open(self.settings.data_dir / "portal.log", "ab")  # noqa: SIM115 - handed to the child
        subprocess.Popen(
            [sys.executable, "-m", "choice.cli", "serve", "--idle-exit", str(IDLE_EXIT_SECONDS)],
            stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True,
            env={**os.environ, "CHOICE_OPEN_BROWSER": os.environ.get("CHOICE_OPEN_BROWSER", "1")},
        )
        log.close()

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
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        if self.session_id:
            headers["Mcp-Session-Id"] = self.session_id
        if self.protocol_version:
            headers["MCP-Protocol-Version"] = self.protocol_version
        return headers

    def _connection(self, fresh: bool = False) -> http.client.HTTPConnection:
        """This thread's keep-alive connection to the portal."""
        conn: http.client.HTTPConnection | None = getattr(self.local, "conn", None)
        if conn is None or fresh:
            if conn is not None:
                conn.close()
            host, port = self.settings.base_url.removeprefix("http://").rsplit(":", 1)
            conn = http.client.HTTPConnection(host.strip("[]"), int(port), timeout=READ_TIMEOUT)
            self.local.conn = conn
        return conn

    def post(self, line: bytes, request_id: Any,
             on_message: Callable[[bytes], None]) -> tuple[int, dict[str, str]]:
        """POST one message; each message that comes back (a JSON body, or SSE events as
        they arrive, until the answer to `request_id`) goes to `on_message`."""
        try:
            try:
                conn = self._connection()
                conn.request("POST", "/mcp", body=line, headers=self.headers())
                response = conn.getresponse()
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                conn = self._connection(fresh=True)  # the kept-alive connection had expired
                conn.request("POST", "/mcp", body=line, headers=self.headers())
                response = conn.getresponse()
            headers = {k.lower(): v for k, v in response.getheaders()}
            if headers.get("content-type", "").startswith("text/event-stream"):
                if not _relay_events(conn, response, request_id, on_message):
                    self._connection(fresh=True)  # stream left open: do not reuse it
            else:
                body = response.read()
                if body.strip():
                    on_message(body)
            return response.status, headers
        except (ConnectionError, OSError) as exc:
            self._connection(fresh=True)
            raise PortalGone(str(exc)) from exc

    def forward(self, line: bytes, message: dict[str, Any], retry: bool = True) -> None:
        request_id = message.get("id")
        answered: list[bytes] = []

        def relay(body: bytes) -> None:
            answered.append(body)
            self.emit(body)

        try:
            status, headers = self.post(line, request_id, relay)
        except PortalGone:
            if not retry:
                self.emit_error(request_id, "the choice portal is not reachable")
                return
            self.recover()
            self.forward(line, message, retry=False)
            return
        if status == 404 and self.session_id and retry and not answered:
            self.recover()  # the portal restarted and forgot the session
            self.forward(line, message, retry=False)
            return
        if message.get("method") == "initialize" and status < 400:
            self.session_id = headers.get("mcp-session-id", self.session_id)
            for body in answered:
                self.protocol_version = _protocol_of(body) or self.protocol_version
        if status >= 400 and not answered:
            self.emit_error(request_id, f"the portal answered HTTP {status}")

    def recover(self) -> None:
        """Portal down or restarted: make sure one runs, then replay the handshake
        (its answers were already given to the client, so they are not relayed again)."""
        with self.session_lock:
            self.ensure_portal()
            self.session_id = None
            if self.initialize_line is None:
                return
            status, headers = self.post(self.initialize_line, _id_of(self.initialize_line),
                                        lambda _body: None)
            if status < 400:
                self.session_id = headers.get("mcp-session-id")
            if self.initialized_line is not None:
                self.post(self.initialized_line, None, lambda _body: None)

    def run(self, source: IO[bytes]) -> None:
        self.ensure_portal()
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
                self.forward(line, {})
                continue
            method = message.get("method")
            if method == "initialize":
                self.initialize_line = line
            elif method == "notifications/initialized":
                self.initialized_line = line
            if self.session_id is None or method in ("initialize", "notifications/initialized"):
                self.forward(line, message)  # the handshake stays in order
            else:
                self.pool.submit(self.forward, line, message)
        self.pool.shutdown(wait=True)


def _relay_events(conn: http.client.HTTPConnection, response: http.client.HTTPResponse,
                  request_id: Any, on_message: Callable[[bytes], None]) -> bool:
    """Relay SSE events; True when the stream was read to its end (reusable connection)."""
    data: list[bytes] = []
    for raw in iter(response.readline, b""):
        line = raw.rstrip(b"\r\n")
        if line.startswith(b"data:"):
            data.append(line[5:].lstrip())
        elif not line and data:
            message = b"\n".join(data)
            data = []
            on_message(message)
            if request_id is not None and _id_of(message) == request_id:
                return _drained(conn, response)
    return True


def _drained(conn: http.client.HTTPConnection, response: http.client.HTTPResponse) -> bool:
    """The server ends the stream right after the answer; read that end, briefly."""
    sock = conn.sock
    try:
        if sock is not None:
            sock.settimeout(DRAIN_SECONDS)
        response.read()
        return True
    except OSError:
        return False
    finally:
        if sock is not None:
            sock.settimeout(READ_TIMEOUT)


def _id_of(message: bytes) -> Any:
    try:
        return json.loads(message).get("id")
    except (ValueError, AttributeError):
        return None


def _protocol_of(body: bytes) -> str | None:
    try:
        return json.loads(body).get("result", {}).get("protocolVersion")
    except (ValueError, AttributeError):
        return None


def main() -> int:
    settings = Settings.from_env()
    bridge = Bridge(settings, sys.stdout.buffer)
    try:
        bridge.run(sys.stdin.buffer)
    except PortalGone as exc:
        print(f"choice mcp: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return 0

