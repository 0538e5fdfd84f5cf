"""Exiting when idle: a portal that `choice mcp` started on demand shuts itself down once
nothing needs it (no pending interaction, no open tab, no request for a while).

`choice serve` runs until stopped; only `--idle-exit SECONDS` (`CHOICE_IDLE_EXIT`) turns
this on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import time
from collections.abc import Callable, Iterator

log = logging.getLogger("choice")


class Activity:
    """Requests in flight and when the last one ended (sockets count while open)."""

    def __init__(self) -> None:
        self.in_flight = 0
        self.last = time.monotonic()

    @contextlib.contextmanager
    def request(self) -> Iterator[None]:
        self.in_flight += 1
        try:
            yield
        finally:
            self.in_flight -= 1
            self.last = time.monotonic()


async def exit_when_idle(seconds: float, activity: Activity, pending: Callable[[], int]) -> None:
    """Send ourselves SIGINT (uvicorn's graceful stop) after `seconds` with nothing to do."""
    while True:
        await asyncio.sleep(min(30.0, seconds / 4))
        quiet_for = time.monotonic() - activity.last
        if activity.in_flight == 0 and pending() == 0 and quiet_for >= seconds:
            log.warning("nothing pending and no requests for %.0f s: stopping", quiet_for)
            os.kill(os.getpid(), signal.SIGINT)
            return
