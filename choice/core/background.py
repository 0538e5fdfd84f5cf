"""A long-running task of the portal (the deadline scheduler, reminders, webhook delivery,
retention): started once with the service, cancelled and awaited at shutdown.

Owns only the start and the stop; what the task does is its owner's. Stopping waits for
the task to finish its cancellation, so nothing of it runs after the store is closed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

log = logging.getLogger("choice")
STOP_POLL_SECONDS = 1.0
"""How long `stop` waits for a cancelled task before cancelling it again."""


class BackgroundTask:
    def __init__(self, name: str, run: Callable[[], Coroutine[Any, Any, None]]) -> None:
        self.name = name
        self._run = run
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=self.name)

    async def stop(self) -> None:
        """Cancel until it ends: on Python 3.11 `asyncio.wait_for` can swallow a cancellation
        that arrives as its wait completes (fixed in 3.12), and a loop that swallowed one
        would keep the portal from shutting down."""
        task, self._task = self._task, None
        if task is not None:
            await finish(task)


async def finish(task: asyncio.Task[Any], grace: float = 0.0) -> None:
    """Let `task` end by itself for up to `grace` seconds, then cancel it until it has
    ended (a swallowed cancellation is repeated); a failure is logged, not raised."""
    if grace > 0:
        await asyncio.wait({task}, timeout=grace)
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=STOP_POLL_SECONDS)
    if not task.cancelled() and task.exception() is not None:
        log.error("the task %s had failed", task.get_name(), exc_info=task.exception())


async def woken(event: asyncio.Event, seconds: float | None) -> bool:
    """Wait for `event` at most `seconds` (None: no bound); False when the time ran out.
    A loop's wait, cancellable at any moment (`asyncio.timeout`, not `wait_for`)."""
    try:
        async with asyncio.timeout(seconds):
            await event.wait()
    except TimeoutError:
        return False
    return True
