"""The one poll loop: wait for the decision on a question, window after window.

`Watch` holds the loop's decisions and does no I/O: given each poll's reply (or the
`PortalNotRunning` it raised) it says what to do next: `Settled` (the question is over or
deferred: here is the reply), `PollAgain` (still open; `widened` carries the first widened
reply, said once however many windows repeat it), or `RetryAfter` (nothing answers: a
restarting portal is waited out, since pending questions survive restarts, until the
outage has lasted `reconnect_seconds`, when the error is raised). `follow` drives it with
blocking calls, for `choice ask` and `Client`; `AsyncClient` drives it with awaits
(`choice.client.aio`). The drivers hold no rule of their own, and this module neither makes
requests nor reads replies beyond `status`: the caller types them. Standard library only.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from choice.client.errors import PortalNotRunning

OPEN_STATUSES = ("pending", "widened")
"""`choice.contract.OPEN_STATUSES`, spelled out: the commands that poll do not load pydantic
to read two words (a unit test keeps the two equal)."""
RECONNECT_SECONDS = 30.0
"""How long an outage is waited out by default: a portal restart takes a second or two."""
RETRY_PACE = 1.0
"""Seconds between tries while the portal restarts (a gentle pace, not a busy loop)."""

Reply = dict[str, Any]
OnWidenedReply = Callable[[Reply], None]


@dataclass(frozen=True)
class Settled:
    """Stop: `reply` is the result, or the deferral."""
    reply: Reply


@dataclass(frozen=True)
class PollAgain:
    """Poll once more; tell the caller about `widened` first if it is set."""
    widened: Reply | None = None


@dataclass(frozen=True)
class RetryAfter:
    """The portal does not answer: wait `seconds`, then poll again."""
    seconds: float


Step = Settled | PollAgain | RetryAfter


class Watch:
    """One wait for one question's decision; feed it every reply or failure in turn."""

    def __init__(self, reconnect_seconds: float = RECONNECT_SECONDS, *,
                 pace: float = RETRY_PACE, clock: Callable[[], float] = time.monotonic) -> None:
        self.reconnect_seconds = reconnect_seconds
        self.pace = pace
        self.clock = clock
        self.widened_heard = False
        self.unreachable_since: float | None = None

    def replied(self, reply: Reply) -> Step:
        self.unreachable_since = None  # the portal is back: a later outage starts afresh
        status = reply.get("status")
        if status not in OPEN_STATUSES:
            return Settled(reply)
        if status == "widened" and not self.widened_heard:
            self.widened_heard = True
            return PollAgain(widened=reply)
        return PollAgain()

    def failed(self, error: PortalNotRunning) -> Step:
        """`RetryAfter` while the outage is young; raises `error` once it lasted too long."""
        now = self.clock()
        if self.unreachable_since is None:
            self.unreachable_since = now
        if now - self.unreachable_since > self.reconnect_seconds:
            raise error
        return RetryAfter(self.pace)


def follow(poll: Callable[[], Reply], first: Reply | None = None, *,
           on_widened: OnWidenedReply | None = None,
           reconnect_seconds: float = RECONNECT_SECONDS,
           sleep: Callable[[float], None] = time.sleep) -> Reply:
    """Poll until the question is settled and return that reply. `first`: a reply already
    in hand (the create's), read before any poll."""
    watch = Watch(reconnect_seconds)
    step: Step = PollAgain() if first is None else watch.replied(first)
    while not isinstance(step, Settled):
        if isinstance(step, RetryAfter):
            sleep(step.seconds)  # the portal is restarting: nothing else to wait on
        elif step.widened is not None and on_widened is not None:
            on_widened(step.widened)
        try:
            step = watch.replied(poll())
        except PortalNotRunning as error:
            step = watch.failed(error)
    return step.reply
