"""A long-running task of the portal (the deadline scheduler, reminders, webhook delivery,
retention): started once with the service, cancelled and awaited at shutdown.

Owns only the start and the stop; what the task does is its owner's. Stopping waits for
the task to finish its cancellation, so nothing of it runs after the store is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine
from typing import Any


class BackgroundTask:
    def __init__(self, name: str, run: Callable[[], Coroutine[Any, Any, None]]) -> None:
        self.name = name
        self._run = run
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=self.name)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
