"""The WebSocket protocol `choice serve` gives uvicorn: its own sans-I/O one, which says
why it closes a socket that sent a message over the limit.

uvicorn 0.54 answers a frame over `ws_max_size` with a close frame (1009) and closes the
TCP connection at once. The client is often still sending that frame: closing a socket with
unread bytes makes the kernel send a reset, and a client that hits it while writing (the
`websockets` client does) drops the connection before it reads the close frame, so it sees
"connection reset", not "message too big" (2 runs in 15 of the socket tests on a loaded
machine). Here the close frame goes out with the end of our half (EOF), and what the client
still sends is read and dropped until it closes its half, or `LINGER_SECONDS` pass: nothing
is buffered, and a client that never stops sending holds the socket that long.

Only `data_received` and the parser-error path are overridden; the lock pins uvicorn, and
`tests/security/test_sockets.py` checks the close code on a real server.
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

LINGER_SECONDS = 5.0
"""How long a socket refused for its message's size keeps reading (and dropping) the rest."""


class LingeringCloseProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol, with a lingering close after a parser error."""

    lingering = False

    def data_received(self, data: bytes) -> None:
        if self.lingering:
            return  # the rest of a refused message: dropped unread by the parser
        super().data_received(data)

    def handle_parser_exception(self) -> None:
        close = self.conn.close_sent
        assert close is not None  # the parser failed the connection, which sends a close
        self.queue.put_nowait(
            {"type": "websocket.disconnect", "code": close.code, "reason": close.reason})
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.close_sent = True
        self.lingering = True
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.close_timer = self.loop.call_later(LINGER_SECONDS, self.transport.close)
