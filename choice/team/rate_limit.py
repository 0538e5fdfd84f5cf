"""How often one person may post or change their vote: a sliding one-minute window per
author, kept in memory (a limit against a runaway bot, not an accounting: a restart forgets
it).
"""

from __future__ import annotations

import time
from collections import deque
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
    def __init__(self, limit: int, what: Limited = "comments") -> None:
        self.limit = limit
        self.what: Limited = what
        self._recent: dict[str, deque[float]] = {}

    def take(self, key: str) -> None:
        """Count one more for `key`; `RateLimited` (counting nothing) past the limit."""
        window = self._recent.setdefault(key, deque())
        current = time.monotonic()
        while window and window[0] <= current - 60:
            window.popleft()
        if len(window) >= self.limit:
            raise RateLimited(window[0] + 60 - current, self.what)
        window.append(current)
