"""One webhook POST and what became of it, and the retry policy that decides what comes next.

The POST is stdlib `urllib` (it honours `HTTPS_PROXY` / `NO_PROXY`; no new dependency), run
on a daemon thread so the event loop never waits on the network, and a receiver that hangs
up to the timeout cannot hold back the portal's exit. Redirects are not followed: a webhook
URL that redirects is misconfigured, and following it would re-send the body elsewhere.

Must not touch the database: the outbox records the outcome.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

from choice.webhooks.formats import Rendered

RETRYABLE_4XX = frozenset({408, 425, 429})
"""Client errors that say "later", not "never" (timeout, too early, rate limited)."""
ERROR_CHARS = 200


@dataclass(frozen=True)
class Reply:
    """The receiver's HTTP status, or why there was none (`error`), and how long it took."""

    status: int | None
    error: str | None
    seconds: float

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300

    @property
    def final(self) -> bool:
        """The receiver refused this message for good: retrying would send the same bytes
        to the same refusal (Slack: 400 invalid_payload, 403, 404 no_service, 410)."""
        return self.status is not None and 300 <= self.status < 500 and \
            self.status not in RETRYABLE_4XX

    def describe(self) -> str:
        return f"HTTP {self.status}" if self.status is not None else str(self.error)


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with full jitter (AWS's "full jitter": uniform between 0 and
    min(cap, base * 2^(n-1))), so receivers that come back are not hit by every portal at
    once; given up after `max_attempts` or once a message is `max_age` old."""

    base: float = 2.0
    cap: float = 600.0
    max_attempts: int = 200
    max_age: float = 86_400.0
    timeout: float = 10.0

    def backoff(self, attempt: int, rng: random.Random | None = None) -> float:
        ceiling = min(self.cap, self.base * 2 ** min(attempt - 1, 60))
        return (rng or random).uniform(0, ceiling)

    def next_attempt(self, created_at: float, attempt: int, at: float,
                     rng: random.Random | None = None) -> float | None:
        """When to try again after failed attempt number `attempt`; None: give up."""
        if attempt >= self.max_attempts:
            return None
        later = at + self.backoff(attempt, rng)
        return later if later - created_at <= self.max_age else None


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # urllib then raises HTTPError with the 3xx status


_OPENER = urllib.request.build_opener(_NoRedirects())


def post(url: str, rendered: Rendered, timeout: float) -> Reply:
    """POST and wait (blocking): the status, or the error that stood in its way."""
    started = time.perf_counter()
    request = urllib.request.Request(url, data=rendered.body, headers=rendered.headers,
                                     method="POST")
    try:
        with _OPENER.open(request, timeout=timeout) as response:
            response.read(64 * 1024)  # let the receiver finish; the body is not used
            return Reply(response.status, None, time.perf_counter() - started)
    except urllib.error.HTTPError as refused:
        return Reply(refused.code, None, time.perf_counter() - started)
    except (OSError, ValueError, urllib.error.URLError) as failed:  # refused, reset, timeout
        reason = getattr(failed, "reason", None) or failed
        error = f"{type(failed).__name__}: {reason}"[:ERROR_CHARS]
        return Reply(None, error, time.perf_counter() - started)
    except Exception as failed:  # http.client's protocol errors (e.g. RemoteDisconnected)
        return Reply(None, f"{type(failed).__name__}: {failed}"[:ERROR_CHARS],
                     time.perf_counter() - started)


async def post_off_loop(url: str, rendered: Rendered, timeout: float) -> Reply:
    """`post` on a daemon thread; the caller awaits the reply without blocking the loop."""
    loop = asyncio.get_running_loop()
    replied: asyncio.Future[Reply] = loop.create_future()

    def settle(reply: Reply) -> None:
        if not replied.done():
            replied.set_result(reply)

    def run() -> None:
        reply = post(url, rendered, timeout)
        # If the loop closed while the POST was out, the lease makes the message due again.
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(settle, reply)

    threading.Thread(target=run, name="choice-webhook-post", daemon=True).start()
    return await replied
