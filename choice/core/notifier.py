"""Who hears about a change: blocked waiters and live subscribers (SSE, WebSockets).

The service persists first, then publishes here. `LocalNotifier` delivers inside this
process; with several portal instances on one PostgreSQL database it also hands each change
to the `relay` (`choice/instances/relay.py`), and the changes other instances made come back through
`publish(..., remote=True)`: they wake waiters and subscribers here, and only the listeners
that asked for them (a webhook is sent, a browser opened, by the instance that made the
change).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from typing import Any, Literal, Protocol, get_args

from msgspec import Struct, field

ChangeKind = Literal[
    "interaction.created", "interaction.completed", "interaction.updated", "interaction.opened",
    "interaction.widened", "discussion.changed", "interaction.reminder",
    "interaction.deferred", "interaction.resumed", "decision.changed", "interaction.draft",
    "agent.waiting",
]
KINDS: tuple[ChangeKind, ...] = get_args(ChangeKind)
AGENT_WAKING: tuple[ChangeKind, ...] = ("interaction.completed", "interaction.deferred")
"""Changes that end an agent's wait; any other change does too if its data says
`wakes_agent` (a widening with `continue`, the owner asking the agent for a summary)."""
SUBSCRIBER_QUEUE = 256


class Change(Struct, frozen=True):
    kind: ChangeKind
    interaction_id: str
    data: dict[str, Any] = field(default_factory=dict)
    row: Any = None
    """The stored row after the change (in-process only; saves waiters a database read)."""


class Waiter:
    """Set when its interaction completes or is deferred, or the agent has something to do
    (see `AGENT_WAKING`); `row` then holds the row as changed."""

    def __init__(self) -> None:
        self.event = asyncio.Event()
        self.row: Any = None
        self.count = 0


class Subscription:
    """A bounded queue of changes. A subscriber too slow to keep up is dropped, not waited on.

    Two options keep a crowd of subscribers cheap (a thousand open tabs, a burst of answers):
    it hears only changes of its `kinds` (the others are not even offered to it); and a change
    `collapse` matches is queued only if none like it is waiting, until the reader calls
    `reopen()`. A reader that only needs to know that something changed (the list did) is
    woken once, not once per change.
    """

    def __init__(self, notifier: LocalNotifier, kinds: Collection[ChangeKind] | None = None,
                 collapse: Callable[[Change], bool] | None = None) -> None:
        self._notifier = notifier
        self.kinds = frozenset(KINDS if kinds is None else kinds)
        self.collapse = collapse
        self.collapsed = False
        self.queue: asyncio.Queue[Change | None] = asyncio.Queue(SUBSCRIBER_QUEUE)

    def offer(self, change: Change) -> None:
        if self.collapse is not None and self.collapse(change):
            if self.collapsed:
                return
            self.collapsed = True
        try:
            self.queue.put_nowait(change)
        except asyncio.QueueFull:
            self._notifier.unsubscribe(self)
            self.queue.get_nowait()
            self.queue.put_nowait(None)  # tells the reader it fell behind

    def reopen(self) -> None:
        """The reader has acted on the collapsed changes: queue the next one again."""
        self.collapsed = False


class Relay(Protocol):
    """Passes this instance's changes on to the others (`instances/relay.ChangeRelay`)."""

    @property
    def listening(self) -> bool:
        """Whether this instance hears the others now."""

    @property
    def reconnects(self) -> int:
        """How often the listening connection came back."""

    def publish(self, change: Change) -> None: ...

    async def flush(self) -> None:
        """Return once every change published so far has been passed on."""


class LocalNotifier:
    def __init__(self) -> None:
        self._waiters: dict[str, Waiter] = {}
        self._subscribers: dict[ChangeKind, set[Subscription]] = {kind: set() for kind in KINDS}
        self._listeners: list[tuple[Callable[[Change], None], bool]] = []
        self.relay: Relay | None = None
        """Told of every change made here, for the other instances (None: only this one)."""

    @contextmanager
    def waiter(self, interaction_id: str) -> Iterator[Waiter]:
        """A waiter for `interaction_id`; register it before reading state, so no completion
        can slip between the read and the wait."""
        waiter = self._waiters.setdefault(interaction_id, Waiter())
        waiter.count += 1
        try:
            yield waiter
        finally:
            waiter.count -= 1
            if waiter.count == 0 and self._waiters.get(interaction_id) is waiter:
                del self._waiters[interaction_id]

    def publish(self, change: Change, remote: bool = False) -> None:
        """`remote`: another instance made the change (and told its own listeners)."""
        if change.kind in AGENT_WAKING or change.data.get("wakes_agent"):
            waiter = self._waiters.pop(change.interaction_id, None)
            if waiter is not None:
                waiter.row = change.row
                waiter.event.set()
        for subscription in list(self._subscribers[change.kind]):
            subscription.offer(change)
        for listener, hears_remote in self._listeners:
            if hears_remote or not remote:
                listener(change)
        if self.relay is not None and not remote and change.interaction_id:
            self.relay.publish(change)  # (a notice of no question stays on this instance)

    async def announced(self) -> None:
        """Every change published here so far has reached the other instances (at once
        without any): awaited before a reply goes out."""
        if self.relay is not None:
            await self.relay.flush()

    def listen(self, listener: Callable[[Change], None], remote: bool = False) -> None:
        """Call `listener` inside every publish: it decides at once and must not block.
        `remote`: also for changes other instances made (a cache of what pages show)."""
        self._listeners.append((listener, remote))

    @contextmanager
    def subscribe(self, kinds: Collection[ChangeKind] | None = None,
                  collapse: Callable[[Change], bool] | None = None) -> Iterator[Subscription]:
        subscription = Subscription(self, kinds, collapse)
        for kind in subscription.kinds:
            self._subscribers[kind].add(subscription)
        try:
            yield subscription
        finally:
            self.unsubscribe(subscription)

    def unsubscribe(self, subscription: Subscription) -> None:
        for kind in subscription.kinds:
            self._subscribers[kind].discard(subscription)

    def waited_on(self) -> list[str]:
        """The interactions someone here is blocked on."""
        return list(self._waiters)

    @property
    def waiting(self) -> int:
        return len(self._waiters)
