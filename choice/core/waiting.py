"""The waiting policy: when an agent's blocking call returns.

An agent waits (`?wait=` over HTTP, an MCP tool call in progress windows, the Python
client's polls) until there is something for it to hear: the question ended or was
deferred, a change that wakes agents arrived (a widening it may carry on past, the owner
asking it for a summary: `wakes_agent`), or an extension says it is the agent's turn now.
Otherwise the window runs out and it hears the question as it stands. Every transport
waits through `AgentWait`, so they all return at the same moments.

Must not: poll the database in a loop (a waiter is woken by the notifier), or know which
feature made a change.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from contextlib import ExitStack

from msgspec import Struct

from choice.contract import OPEN_STATUSES
from choice.core.extension import Extensions
from choice.core.notifier import LocalNotifier, Waiter
from choice.store.records import Interaction


class Waited(Struct, frozen=True):
    row: Interaction
    woken: bool
    """There is something for the agent to hear now (not just the window running out)."""


class AgentWait:
    """One agent's wait on one question, across as many windows as its call takes. It
    hears changes from the moment it is made: one published between two windows (while a
    progress notification goes out) ends the next window at once."""

    def __init__(self, interaction_id: str, notifier: LocalNotifier, extensions: Extensions,
                 read: Callable[[str], Awaitable[Interaction]], stack: ExitStack) -> None:
        self._id, self._notifier, self._extensions = interaction_id, notifier, extensions
        self._read, self._stack = read, stack
        self._waiter: Waiter | None = stack.enter_context(notifier.waiter(interaction_id))

    async def next(self, seconds: float, agent_turns: bool = True) -> Waited:
        """Wait up to `seconds`. `agent_turns`: also return at once while an extension
        waits on the agent (a poller that cannot act on it, like `choice ask`, says False)."""
        if self._waiter is None:  # woken before: hear what comes next from now on
            self._waiter = self._stack.enter_context(self._notifier.waiter(self._id))
        waiter = self._waiter
        if not waiter.event.is_set():
            row = await self._read(self._id)
            if row.status not in OPEN_STATUSES:
                return Waited(row, True)
            if agent_turns and await self._extensions.agent_turn(row):
                return Waited(row, True)
            if seconds <= 0:
                return Waited(row, False)
            try:
                await asyncio.wait_for(waiter.event.wait(), seconds)
            except TimeoutError:  # the deadline may have moved meanwhile: read it again
                return Waited(await self._read(self._id), False)
        # A woken waiter is no longer registered (the publish took it off).
        self._waiter = None
        return Waited(waiter.row if waiter.row is not None else await self._read(self._id), True)
