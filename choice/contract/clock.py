"""Time as the portal stores and shows it: epoch seconds inside, ISO 8601 UTC outside."""

from __future__ import annotations

import time
from datetime import UTC, datetime


def now() -> float:
    return time.time()


def iso(epoch: float) -> str:
    """`1764126545.5` -> `2025-11-26T03:09:05.500Z`."""
    stamp = datetime.fromtimestamp(epoch, UTC).isoformat(timespec="milliseconds")
    return stamp.replace("+00:00", "Z")


def parse_iso(text: str) -> float:
    """ISO 8601 with a timezone -> epoch seconds; ValueError when it has none."""
    parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if parsed.tzinfo is None:
        raise ValueError("no timezone")
    return parsed.timestamp()
