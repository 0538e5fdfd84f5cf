"""What the portal tells the team's webhook, and when: the bridge from the service's changes
to the outbox. Installed only when `CHOICE_WEBHOOK_URL` is set (`webhooks_for`).

- a widening: `TeamService.on_widened` hands over the participants' links (they exist only
  in the widen reply; the database keeps their hashes), so the invitation can carry them.
  It is awaited: the owner's 201 comes after the invitation is stored;
- a comment (`discussion.changed`, change `comment`): folded into a coalesced message;
- a reminder (`interaction.reminder`): of a widened question's idle discussion
  (`team/reminders.py`); with `CHOICE_WEBHOOK_CREATED`, also of a question nobody has
  opened, or in its last minute (`choice/reminders/waiting.py`);
- the end of a widened interaction (`interaction.completed` with a widening): the outcome,
  who decided and where the answer came from;
- a widened interaction deferred (`interaction.deferred`): the owner's rationale;
- with `CHOICE_WEBHOOK_CREATED`, every new question (`interaction.created`): the whole
  question and the request's context, for a chat UI (off by default: a team channel hears
  of widened questions only).

The notifier calls listeners inside `publish`, on the request's path: for the other three
the listener only schedules a task (the enqueue is a database write) and returns, so a
comment's reply does not wait for it. `stop()` lets the tasks already scheduled finish, so a
change published before shutdown still reaches the outbox.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from choice.contract import WAITING_REASONS
from choice.core.config import Settings
from choice.core.extension import Extension
from choice.core.notifier import Change
from choice.store.records import Interaction
from choice.team.service import Invited, TeamService
from choice.webhooks import messages
from choice.webhooks.outbox import Outbox
from choice.webhooks.sender import RetryPolicy

if TYPE_CHECKING:
    from choice.core.service import InteractionService

log = logging.getLogger("choice.webhooks")
DRAIN_SECONDS = 5.0


class WebhookListener(Extension):
    """Registered on the core by the composition root before the features, so it stops after
    them: what they publish while stopping is still queued."""

    def __init__(self, service: InteractionService, team: TeamService, outbox: Outbox,
                 settings: Settings) -> None:
        self.service = service
        self.team = team
        self.outbox = outbox
        self.link_base = settings.link_base
        self.window = settings.webhook_coalesce_seconds
        self.created = settings.webhook_created
        self._tasks: set[asyncio.Task[None]] = set()

    # -- hooks (inside publish: schedule, never wait; and the widen hook) -------------------
    def __call__(self, change: Change) -> None:
        if change.kind == "interaction.created" and self.created and change.row is not None:
            self._later(self._created(change.row))
        elif change.kind == "discussion.changed" and change.data.get("change") == "comment":
            self._later(self._comment(change))
        elif change.kind == "interaction.reminder" and change.data.get("reason") in WAITING_REASONS:
            if self.created and change.row is not None:  # the webhook hears personal questions
                self._later(self._waiting(change.row, change.data))
        elif change.kind == "interaction.reminder":
            self._later(self._reminder(change.interaction_id))
        elif change.kind == "interaction.completed":
            self._later(self._resolved(change.interaction_id))
        elif change.kind == "interaction.deferred":
            self._later(self._deferred(change.interaction_id, str(change.data.get("rationale") or "")))

    async def invited(self, invited: Invited) -> None:
        """Awaited by `widen` (one insert, quick): once the owner has the links, so has the
        outbox. A failure is logged, never raised: the widening itself is done."""
        try:
            await self.outbox.enqueue(invited.row.id, messages.widened(invited, self.link_base))
        except Exception:
            log.exception("the invitation to %s could not be queued for the webhook",
                          invited.row.id)

    def _later(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a webhook message could not be queued", exc_info=task.exception())

    # -- the work (a task each) ----------------------------------------------------------------
    async def _comment(self, change: Change) -> None:
        comment_id = change.data.get("comment_id")
        if change.row is not None and isinstance(comment_id, int):
            await self.outbox.add_comment(change.row, comment_id, self.link_base, self.window)

    async def _created(self, row: Interaction) -> None:
        await self.outbox.enqueue(row.id, messages.created(row, self.link_base))

    async def _reminder(self, interaction_id: str) -> None:
        discussion = await self.team.discussion(interaction_id)
        event = messages.reminder(discussion, self.link_base, self.service.clock())
        await self.outbox.enqueue(interaction_id, event)

    async def _waiting(self, row: Interaction, data: dict[str, Any]) -> None:
        event = messages.waiting_reminder(row, self.link_base, data, self.service.clock())
        await self.outbox.enqueue(row.id, event)

    async def _resolved(self, interaction_id: str) -> None:
        if not await self._widened(interaction_id):
            return  # never widened: nobody on the team is waiting to hear
        discussion = await self.team.discussion(interaction_id)
        await self.outbox.enqueue(interaction_id, messages.resolved(discussion, self.link_base))

    async def _deferred(self, interaction_id: str, rationale: str) -> None:
        if not await self._widened(interaction_id):
            return
        discussion = await self.team.discussion(interaction_id)
        event = messages.deferred(discussion, self.link_base, rationale, self.service.clock())
        await self.outbox.enqueue(interaction_id, event)

    async def _widened(self, interaction_id: str) -> bool:
        return await self.team.mode(interaction_id) is not None

    # -- lifecycle ------------------------------------------------------------------------------
    async def start(self) -> None:
        self.outbox.start()  # delivers what a previous run left in the outbox too

    async def stop(self) -> None:
        """Let the enqueues already scheduled land (bounded), then stop delivering."""
        if self._tasks:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(
                    asyncio.gather(*self._tasks, return_exceptions=True), DRAIN_SECONDS)
        await self.outbox.stop()


def webhooks_for(service: InteractionService, team: TeamService,
                 settings: Settings) -> WebhookListener | None:
    """The webhook, listening to `service` and the team, when `CHOICE_WEBHOOK_URL` is set
    (else None); the caller registers it on the service."""
    if not settings.webhook_url:
        return None
    outbox = Outbox(service.store, settings.webhook_url, settings.webhook_format,
                    settings.webhook_secret, service.clock,
                    RetryPolicy(base=settings.webhook_retry_seconds),
                    language=lambda: service.language_for(None))
    listener = WebhookListener(service, team, outbox, settings)
    service.notifier.listen(listener)
    team.on_widened.append(listener.invited)
    return listener
