"""HTTP between `choice mcp` and the portal's `/mcp`: POST one JSON-RPC message and relay
what comes back (a JSON body, or SSE events as they arrive), and DELETE a session.

One keep-alive connection per thread, so concurrent calls never share a socket; https and a
path prefix for a team server (`CHOICE_URL`). Standard library only (`http.client`): the
bridge must start fast. This is not a second client of
the portal's API: it relays the MCP protocol's bytes and SSE events, which the portal's own
`/mcp` answers, and reads none of them; the address, the token header and the errors are
`choice.client`'s (`address`, `auth_headers`, `PortalNotRunning`).
"""

from __future__ import annotations

import http.client
import json
import threading
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from choice.client.errors import PortalNotRunning
from choice.client.portal_client import address

READ_TIMEOUT = 600.0
DRAIN_SECONDS = 2.0
CLOSE_SECONDS = 2.0
PATH = "/mcp"

OnMessage = Callable[[bytes], None]


class PortalLink:
    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.host, self.port = address(base_url)
        parts = urlsplit(base_url)
        self.https = parts.scheme == "https"
        self.path = parts.path.rstrip("/") + PATH
        self._local = threading.local()

    def _open(self, timeout: float) -> http.client.HTTPConnection:
        if self.https:  # a team server's: `ssl` is loaded only then (`choice mcp` skips it)
            return http.client.HTTPSConnection(self.host, self.port, timeout=timeout)
        return http.client.HTTPConnection(self.host, self.port, timeout=timeout)

    def _connection(self, fresh: bool = False) -> http.client.HTTPConnection:
        """This thread's keep-alive connection to the portal."""
        conn: http.client.HTTPConnection | None = getattr(self._local, "conn", None)
        if conn is None or fresh:
            if conn is not None:
                conn.close()
            conn = self._open(READ_TIMEOUT)
            self._local.conn = conn
        return conn

    def post(self, line: bytes, headers: dict[str, str], request_id: Any,
             on_message: OnMessage) -> tuple[int, dict[str, str], bytes]:
        """POST one message; each message that comes back (a JSON body, or SSE events as
        they arrive, until the answer to `request_id`) goes to `on_message`. An error
        status's body is returned instead: it answers no request id of the client's."""
        try:
            try:
                conn = self._connection()
                conn.request("POST", self.path, body=line, headers=headers)
                response = conn.getresponse()
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                conn = self._connection(fresh=True)  # the kept-alive connection had expired
                conn.request("POST", self.path, body=line, headers=headers)
                response = conn.getresponse()
            got = {k.lower(): v for k, v in response.getheaders()}
            if response.status >= 400:
                return response.status, got, response.read()
            if got.get("content-type", "").startswith("text/event-stream"):
                if not _relay_events(conn, response, request_id, on_message):
                    self._connection(fresh=True)  # stream left open: do not reuse it
            else:
                body = response.read()
                if body.strip():
                    on_message(body)
            return response.status, got, b""
        except (ConnectionError, OSError) as exc:
            self._connection(fresh=True)
            raise PortalNotRunning(self.base_url, str(exc)) from exc

    def delete(self, headers: dict[str, str]) -> int | None:
        """End a session (on a connection of its own: it may run while others are busy);
        the status, or None if the portal did not answer in time."""
        conn = self._open(CLOSE_SECONDS)
        try:
            conn.request("DELETE", self.path, headers=headers)
            response = conn.getresponse()
            response.read()
            return response.status
        except OSError:
            return None
        finally:
            conn.close()


def _relay_events(conn: http.client.HTTPConnection, response: http.client.HTTPResponse,
                  request_id: Any, on_message: OnMessage) -> bool:
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
            if request_id is not None and id_of(message) == request_id:
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


def error_text(body: bytes) -> str:
    """The reason in an error body: a JSON-RPC error (the SDK's) or `errors` (the portal's)."""
    try:
        parsed = json.loads(body)
        if isinstance(parsed.get("error"), dict):
            return str(parsed["error"].get("message", ""))
        return "; ".join(str(e.get("message", "")) for e in parsed.get("errors", []))
    except (ValueError, AttributeError, TypeError):
        return body[:200].decode(errors="replace")


def id_of(message: bytes) -> Any:
    try:
        return json.loads(message).get("id")
    except (ValueError, AttributeError):
        return None
