"""How often one person may post or change their vote: a sliding one-minute window per
author, kept in memory (a limit against a runaway bot, not an accounting: a restart forgets
it). An author idle for a whole window is forgotten, so what it holds is bounded by who
wrote within the last minute, not by everyone who ever did.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import Literal

COMMENTS_PER_MINUTE = 20
"""Per participant: a person typing never reaches it; a runaway bot does."""
VOTES_PER_MINUTE = 10
"""Vote changes per participant link: a person weighing the options never needs more; a
script flipping a vote (each change is a write, and may resolve the question) gets 429."""
Limited = Literal["comments", "votes"]


class RateLimited(Exception):
    def __init__(self, retry_after: float, what: Limited = "comments") -> None:
        self.retry_after = max(1, round(retry_after))
        self.what = what
        super().__init__(f"{what}: retry after {self.retry_after} s")


class PerMinute:
    """At most `limit` per key in any `window` seconds (a minute)."""

    def __init__(self, limit: int, what: Limited = "comments", window: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.what: Limited = what
        self.window = window
        self.clock = clock
        self._recent: dict[str, deque[float]] = {}
        self._swept = clock()

    def __len__(self) -> int:
        """How many keys are remembered (each with a hit inside the window, give or take
        one window before the next sweep)."""
        return len(self._recent)

    def take(self, key: str) -> None:
        """Count one more for `key`; `RateLimited` (counting nothing) past the limit."""
        current = self.clock()
        self._forget_idle(current)
        window = self._recent.setdefault(key, deque())
        while window and window[0] <= current - self.window:
            window.popleft()
        if len(window) >= self.limit:
            raise RateLimited(window[0] + self.window - current, self.what)
        window.append(current)

    def _forget_idle(self, current: float) -> None:
        """Drop every key whose newest hit is a window old. Once a window at most, so the
        sweep costs each hit O(1) on average."""
        if current - self._swept < self.window:
            return
        self._swept = current
        idle = [key for key, hits in self._recent.items()
                if not hits or hits[-1] <= current - self.window]
        for key in idle:
            del self._recent[key]
