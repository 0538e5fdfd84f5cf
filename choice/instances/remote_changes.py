"""What this instance does with changes other portal instances made (PostgreSQL only).

A change heard from another instance (`relay.py`) is read back from the database and
published here as a remote change: it wakes this instance's blocked agents, open pages,
sockets and event streams, and keeps this instance's deadline scheduler in step (every
instance schedules every open deadline; the first to expire an interaction wins in the
database, the others find it already ended), and every review's fallback timer alike.
After the listening connection comes back, `catch_up` re-reads what may have changed
unheard: every open deadline and review, every interaction an agent here waits on, and
every interaction that ended meanwhile; and once a minute it reads the open deadlines and
reviews again, for a change whose note never went out (its instance died between its
commit and its reply).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, cast

from choice.contract import COMPLETED_STATUSES, OPEN_STATUSES
from choice.contract.errors import NotFound
from choice.core.background import BackgroundTask
from choice.core.extension import Extension
from choice.core.notifier import KINDS, Change, ChangeKind
from choice.core.replies import listing
from choice.instances.relay import ChangeRelay
from choice.store.records import Interaction

if TYPE_CHECKING:
    from choice.core.service import InteractionService

log = logging.getLogger("choice.relay")
LISTEN_WAIT = 10.0
RECONCILE_SECONDS = 60.0
"""How often every open deadline and review is read again: a backstop for a change whose
note never went out (an instance that died after its commit, before its reply)."""
RESYNC_MARGIN = 5.0
"""Seconds before the listener was found down from which ended interactions are announced
again (a change may have been sent just before the connection was seen to drop)."""


def kind_of(row: Interaction) -> ChangeKind:
    """The change that brings a page or a waiter to where `row` is now."""
    if row.status in COMPLETED_STATUSES:
        return "interaction.completed"
    return "interaction.deferred" if row.status == "deferred" else "interaction.updated"


class RemoteChanges(Extension):
    """A feature, registered by the composition root when the database is shared."""

    def __init__(self, service: InteractionService) -> None:
        self._service = service
        self.relay = ChangeRelay(service.settings.db_url, self.heard, self.catch_up)
        self._reconciler = BackgroundTask("choice-reconcile", self._reconcile_periodically)

    @property
    def listening(self) -> bool:
        return self.relay.listening

    async def start(self) -> None:
        """Start listening, and wait (bounded) until this instance hears the others: it
        should not take a waiting agent before it can be woken."""
        self._service.notifier.relay = self.relay
        self.relay.start()
        self._reconciler.start()
        try:
            await self.relay.until_listening(LISTEN_WAIT)
        except TimeoutError:
            log.warning("not listening to the other instances' changes after %.0f s; "
                        "starting anyway (waiters here wake at their next poll)", LISTEN_WAIT)

    async def stop(self) -> None:
        self._service.notifier.relay = None
        await self._reconciler.stop()
        await self.relay.stop()

    async def heard(self, kind: str, interaction_id: str, data: dict[str, Any]) -> None:
        if kind not in KINDS:  # a newer instance's change: the row read below is still true
            kind = "interaction.updated"
        try:
            row = await self._service.get(interaction_id)
        except NotFound:  # pruned meanwhile: nobody can be waiting on it
            return
        change = self._announce(row, cast(ChangeKind, kind), data)
        await self._service.extensions.react(change)  # e.g. a review's timer follows it

    async def catch_up(self) -> None:
        """Listening (again): catch up with what the other instances did meanwhile."""
        service, since = self._service, self.relay.lost_at
        await self._reconcile()
        if since is None:
            return  # the first connection: nothing here was listening before
        ids = set(service.notifier.waited_on())
        rows = await asyncio.gather(*(self._current(interaction_id) for interaction_id in ids))
        ended = await service.store.scan(service.store.repo.ended_since, since - RESYNC_MARGIN)
        for row in [*[row for row in rows if row is not None], *ended]:
            if row.status not in OPEN_STATUSES:
                self._announce(row, kind_of(row), {})

    async def _reconcile(self) -> None:
        """Schedule every open deadline and review as the database has them."""
        service = self._service
        for interaction_id, expires_at in await service.store.scan(service.store.repo.deadlines):
            service.deadlines.schedule(interaction_id, expires_at)
        await service.extensions.resync()

    async def _reconcile_periodically(self) -> None:
        while True:
            await asyncio.sleep(RECONCILE_SECONDS)
            try:
                await self._reconcile()
            except Exception:  # the database is away: the next round tries again
                log.exception("reading the open deadlines failed; trying again in %.0f s",
                              RECONCILE_SECONDS)

    async def _current(self, interaction_id: str) -> Interaction | None:
        try:
            return await self._service.get(interaction_id)
        except NotFound:
            return None

    def _announce(self, row: Interaction, kind: ChangeKind, data: dict[str, Any]) -> Change:
        deadlines = self._service.deadlines
        if row.status in OPEN_STATUSES:
            deadlines.schedule(row.id, row.expires_at)
        else:
            deadlines.forget(row.id)
        change = Change(kind, row.id, {**listing(row), **data}, row)
        self._service.notifier.publish(change, remote=True)
        return change
