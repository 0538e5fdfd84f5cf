"""The webhook outbox: messages persisted first (a row each, before any attempt), then
delivered by one worker task, retried with backoff, and audited attempt by attempt.

`enqueue` is one quick insert on the store's writer; nothing on a request's path waits for
the network. The worker claims due messages (`rows.claim`: the attempt is counted and the
message leased before the POST), posts them off the event loop with a short timeout, and
records the outcome with a `webhook_delivered` or `webhook_failed` audit event (actor
`system`: the attempt number, the HTTP status or the error, the next attempt's time). A
receiver that fails is retried with exponential backoff and full jitter until it accepts,
refuses for good (a 4xx), or `RetryPolicy` gives up: then `failed_at` is set.

Nothing lives only in memory: after a restart (or a kill -9) the worker finds the pending
rows where they were; an attempt cut off mid-POST is due again once its lease runs out, so
delivery is at least once, and the `X-Choice-Delivery` id lets a receiver drop a repeat.

A widened message's payload holds every participant's link, which is a capability (it lets
its holder read, comment and vote): the outbox row is as sensitive as the link itself. It
goes with its interaction at retention (`store.retention.BELONGINGS`).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable

from choice.contract.clock import iso
from choice.core.actors import SYSTEM
from choice.core.background import BackgroundTask, woken
from choice.core.endings import audit
from choice.store import Store
from choice.store.records import AuditEvent, Interaction
from choice.webhooks import ntfy
from choice.webhooks.formats import render
from choice.webhooks.messages import Event
from choice.webhooks.rows import Message, OutboxRepository
from choice.webhooks.sender import RetryPolicy, post_off_loop

log = logging.getLogger("choice.webhooks")
BATCH = 16
"""Messages claimed at once; each is its interaction's oldest, so they may go out together."""
LEASE_MARGIN = 5.0
"""A claimed message is due again this long after its POST would have timed out."""
IDLE_SECONDS = 30.0
"""The longest the worker sleeps without looking (another process may have enqueued)."""
ERROR_PAUSE = 5.0


class Outbox:
    def __init__(self, store: Store, url: str, fmt: str, secret: str | None,
                 clock: Callable[[], float], policy: RetryPolicy | None = None,
                 rng: random.Random | None = None,
                 language: Callable[[], str] = lambda: "en") -> None:
        self.store = store
        self.language = language
        """The portal's language now: a Slack message's, when its question names none."""
        self.rows = OutboxRepository(store.repo)
        self.url, self.fmt, self.secret = url, fmt, secret
        self.clock = clock
        self.policy = policy or RetryPolicy()
        self._rng = rng or random.Random()
        self._wake = asyncio.Event()
        self._task = BackgroundTask("choice-webhooks", self._run)

    # -- enqueue (on the caller's path: one insert) ------------------------------------------
    async def enqueue(self, interaction_id: str | None, event: Event, delay: float = 0.0) -> int:
        at = self.clock()
        message = Message(interaction_id, event["type"], event, created_at=at,
                          next_attempt_at=at + delay)
        message_id = await self.store.write(self.rows.add, message)
        self._wake.set()
        return message_id

    async def add_comment(self, row: Interaction, comment_id: int, link_base: str,
                          window: float) -> None:
        """A comment joins the interaction's comments message still waiting to go, or
        starts one that goes `window` from now: a burst of comments is one message."""
        added = await self.store.write(self.rows.add_comment, row, comment_id, link_base,
                                       self.clock(), window)
        if added is not None:
            self._wake.set()

    # -- the worker -------------------------------------------------------------------------
    def start(self) -> None:
        if self.fmt == "json" and not self.secret:
            log.warning("CHOICE_WEBHOOK_SECRET is not set: webhook messages go out unsigned. "
                        "Set it so the receiver can check X-Choice-Signature-256.")
        if self.fmt == "ntfy" and ntfy.target(self.url).unreadable_auth:
            log.warning("The auth parameter of CHOICE_WEBHOOK_URL is not ntfy's base64 of an "
                        "Authorization value, so pushes go without it. Encode "
                        "\"Bearer tk_...\" or \"Basic ...\" as unpadded base64url, or put "
                        "the credentials before the host: https://user:password@host/topic.")
        self._task.start()

    async def stop(self) -> None:
        await self._task.stop()

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            try:
                claimed = await self.store.write(self.rows.claim, self.clock(),
                                                 self.policy.timeout + LEASE_MARGIN, BATCH)
                if claimed:
                    outcomes = await asyncio.gather(*(self._attempt(m) for m in claimed),
                                                    return_exceptions=True)
                    for outcome in outcomes:
                        if isinstance(outcome, Exception):  # its lease makes it due again
                            log.error("recording a webhook attempt failed", exc_info=outcome)
                    continue
                due = await self.store.read(self.rows.next_due)
            except Exception:  # the database hiccuped: the rows are still there
                log.exception("the webhook outbox failed; trying again in %s s", ERROR_PAUSE)
                due = self.clock() + ERROR_PAUSE
            delay = IDLE_SECONDS if due is None else min(IDLE_SECONDS, max(due - self.clock(), 0.01))
            await woken(self._wake, delay)

    async def _attempt(self, message: Message) -> None:
        assert message.id is not None
        event = message.event
        rendered = render(event, self.fmt, self.secret, self.language(), self.url)
        reply = await post_off_loop(rendered.url, rendered, self.policy.timeout)
        at = self.clock()
        detail: dict[str, object] = {"attempt": message.attempts, "event": message.kind,
                                     "delivery_id": event["id"], "ms": round(reply.seconds * 1000)}
        detail.update({"status": reply.status} if reply.status is not None
                      else {"error": reply.error})
        if reply.ok:
            await self.store.write(self.rows.delivered, message.id, at,
                                   self._audit(message, "webhook_delivered", detail, at))
            return
        next_at = None if reply.final else self.policy.next_attempt(
            message.created_at, message.attempts, at, self._rng)
        if next_at is None:
            detail["gave_up"] = True
            log.warning("webhook %s (%s) given up after %s attempt(s): %s", message.id,
                        message.kind, message.attempts, reply.describe())
            await self.store.write(self.rows.failed, message.id, at, reply.describe(),
                                   self._audit(message, "webhook_failed", detail, at))
            return
        detail["next_attempt_at"] = iso(next_at)
        log.info("webhook %s attempt %s failed (%s); next at %s", message.id, message.attempts,
                 reply.describe(), iso(next_at))
        await self.store.write(self.rows.retry, message.id, next_at, reply.describe(),
                               self._audit(message, "webhook_failed", detail, at))

    @staticmethod
    def _audit(message: Message, kind: str, detail: dict[str, object],
               at: float) -> list[AuditEvent]:
        if message.interaction_id is None:
            return []
        return [audit(message.interaction_id, kind, SYSTEM, detail, at)]
