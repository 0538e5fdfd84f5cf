"""A real webhook receiver for tests: a `ThreadingHTTPServer` on a free local port that
records every POST (raw body bytes, headers, arrival time) and answers as scripted, so a
test can make the first attempts fail: an HTTP status, `drop` (read the request, close the
connection without a reply), `hang:<seconds>` (answer 200 that late) or `hold` (answer 200
once the test calls `release()`, so it decides what happens while the POST is held open).
And `outbox_rows`,
what a portal's outbox table holds, read straight from its SQLite file.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

Behaviour = int | str
HOLD_BOUND = 60.0
"""The longest a `hold` waits for `release()`: a test that forgets it fails, not hangs."""


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    at: float
    """`time.time()` when the request had arrived (before the reply)."""
    answered: Behaviour

    @property
    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def event_type(self) -> str:
        return self.headers.get("x-choice-event", "")


def accepted(received: Received) -> bool:
    answered = received.answered
    return answered in (200, "hold") or (isinstance(answered, str) and answered.startswith("hang:"))


def outbox_rows(data_dir: Path) -> list[dict[str, Any]]:
    """Every row of the outbox table of the portal whose data dir this is, oldest first."""
    with sqlite3.connect(f"file:{data_dir / 'choice.db'}?mode=ro", uri=True) as db:
        db.row_factory = sqlite3.Row
        return [dict(row) for row in db.execute("SELECT * FROM outbox ORDER BY id")]


class WebhookReceiver:
    def __init__(self, script: Iterable[Behaviour] = (), then: Behaviour = 200) -> None:
        self.script = list(script)
        self.then = then
        self.received: list[Received] = []
        self._changed = threading.Condition()
        self._released = threading.Event()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                behaviour = receiver._next()
                receiver._record(Received(self.path, {k.lower(): v for k, v in self.headers.items()},
                                          body, time.time(), behaviour))
                if behaviour == "drop":
                    self.close_connection = True
                    return
                if isinstance(behaviour, str) and behaviour.startswith("hang:"):
                    time.sleep(float(behaviour.split(":", 1)[1]))
                    behaviour = 200
                if behaviour == "hold":
                    receiver._released.wait(HOLD_BOUND)
                    behaviour = 200
                self.send_response(int(behaviour))
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self._thread = threading.Thread(target=self.server.serve_forever,
                                        kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def _next(self) -> Behaviour:
        with self._changed:
            return self.script.pop(0) if self.script else self.then

    def _record(self, received: Received) -> None:
        with self._changed:
            self.received.append(received)
            self._changed.notify_all()

    def release(self) -> None:
        """Answer every request held by `hold` (now and from now on)."""
        self._released.set()

    def answer(self, then: Behaviour, script: Iterable[Behaviour] = ()) -> None:
        """From now on: `script` first, then `then` for every request (a new `hold` holds
        until the next `release()`)."""
        with self._changed:
            self.script, self.then = list(script), then
            if then == "hold" or "hold" in self.script:
                self._released.clear()

    def wait_until(self, condition: Callable[[list[Received]], bool], timeout: float = 15.0,
                   what: str = "the receiver's condition") -> list[Received]:
        """Block until `condition(received)` holds (checked on every arrival), bounded."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not condition(self.received):
                left = deadline - time.monotonic()
                if left <= 0:
                    kinds = [(r.event_type, r.answered) for r in self.received]
                    raise AssertionError(f"{what}: not within {timeout} s; received {kinds}")
                self._changed.wait(left)
            return list(self.received)

    def wait_for(self, count: int, timeout: float = 15.0) -> list[Received]:
        return self.wait_until(lambda got: len(got) >= count, timeout, f"{count} request(s)")

    def delivered(self, event_type: str | None = None) -> list[Received]:
        """The requests answered 2xx (of one event type), in arrival order."""
        with self._changed:
            return [r for r in self.received
                    if accepted(r) and (event_type is None or r.event_type == event_type)]

    def __enter__(self) -> WebhookReceiver:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
        self.server.shutdown()
        self.server.server_close()
