"""How big a body `/mcp` takes, and the 413 in the portal's words when one is bigger.

A tool call may ask a question with its files (base64), so `/mcp` takes what the asking
route takes (`ASKING_BODY_MAX`, 16 MiB), not the portal's 256 KiB. The MCP SDK enforces the
same number itself (`choice/mcp/server.py`), but answers a plain-text "Request body too
large"; this check runs first and says which limit and why, as the API's 413 does. A body
that declares its length is refused before it is read; one sent in chunks is counted as it
arrives and refused once past the limit. Either way nothing reaches a tool, and, as with the
API's 413, the server reads and drops the rest of the body (closing at once would reset a
client still sending, which then never reads the answer).
"""

from __future__ import annotations

from litestar.types import Message, Receive, ReceiveMessage, Send

from choice.contract.attachments import ASKING_BODY_MAX, TOTAL_MAX, MiB
from choice.web.security.guards import send_error

MCP_BODY_MAX = ASKING_BODY_MAX
"""The largest `/mcp` request body: a tool call that asks a question with its files."""
TOO_LARGE = (f"the request body is too large: keep it under {MCP_BODY_MAX // MiB} MiB (a "
             f"question's attachments: at most {TOTAL_MAX // MiB} MiB of files in all, "
             "base64).")


class BodyTooLarge(Exception):
    """Raised into the MCP app from `receive` once a chunked body passes the limit."""


class LimitedBody:
    """One request's `receive` and `send`: counts the body; past the limit the MCP app's
    read fails, and whatever it answers then is dropped (the caller sends the 413)."""

    def __init__(self, receive: Receive, send: Send, limit: int = MCP_BODY_MAX) -> None:
        self._receive, self._send, self._limit = receive, send, limit
        self.received = 0
        self.tripped = False
        self.started = False

    async def receive(self) -> ReceiveMessage:
        message = await self._receive()
        if message["type"] == "http.request":
            self.received += len(message.get("body", b""))
            if self.received > self._limit:
                self.tripped = True
                raise BodyTooLarge
        return message

    async def send(self, message: Message) -> None:
        if self.tripped:
            return
        if message["type"] == "http.response.start":
            self.started = True
        await self._send(message)


async def refuse_too_large(send: Send) -> None:
    await send_error(send, 413, "too_large", TOO_LARGE, "request")
