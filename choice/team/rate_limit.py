"""How often one person may post: a sliding one-minute window per author, kept in memory
(a limit against a runaway bot, not an accounting: a restart forgets it).
"""

from __future__ import annotations

import time
from collections import deque

COMMENTS_PER_MINUTE = 20
"""Per participant: a person typing never reaches it; a runaway bot does."""


class RateLimited(Exception):
    def __init__(self, retry_after: float) -> None:
        self.retry_after = max(1, round(retry_after))
        super().__init__(f"retry after {self.retry_after} s")


class PerMinute:
    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._recent: dict[str, deque[float]] = {}

    def take(self, key: str) -> None:
        """Count one more for `key`; `RateLimited` (counting nothing) past the limit."""
        window = self._recent.setdefault(key, deque())
        current = time.monotonic()
        while window and window[0] <= current - 60:
            window.popleft()
        if len(window) >= self.limit:
            raise RateLimited(window[0] + 60 - current)
        window.append(current)
