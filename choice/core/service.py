"""InteractionService: the one place interactions are created, waited on, answered, cancelled,
re-timed and expired. Every transport (HTTP API, web pages, MCP, terminal, CLI) goes through it.

Order of work for every change: persist (one transaction, with its audit event), then wake
waiters and subscribers. Deadlines live in one scheduler; the database stays the truth.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from choice.contract import (
    OPEN_STATUSES,
    DeadlineChange,
    Interface,
    Preferences,
    PreferencesPatch,
    Shape,
    Submission,
)
from choice.contract.clock import now
from choice.contract.compat import parse_request
from choice.contract.errors import AlreadyCompleted, DeadlinePassed, NotFound
from choice.contract.normalize import Completion
from choice.core.background import BackgroundTask
from choice.core.config import Settings
from choice.core.deadlines import DeadlineScheduler, new_deadline
from choice.core.endings import answered, audit, cancelled, expired, via_of
from choice.core.i18n import resolve_language, translator
from choice.core.notifier import Change, LocalNotifier
from choice.core.replies import listing
from choice.decision.service import DecisionService
from choice.drafts.keeper import DraftKeeper
from choice.store import Store
from choice.store.preferences import load_preferences, save_preferences
from choice.store.records import AuditEvent, Interaction
from choice.store.repository import Completed, Which
from choice.team.service import TeamService

if TYPE_CHECKING:
    from choice.instances.remote_changes import RemoteChanges

log = logging.getLogger("choice.core.service")
RETENTION_EVERY = 3600.0
NO_CLIENT_WARNING = (
    "interface 'client' asks inside an MCP client that supports elicitation; this request "
    "did not come from one, so it is asked in the {interface} interface instead.")
Decide = Callable[[Interaction, float], Completed]
"""How a human ends a pending row at a given time (answer, cancel)."""


@dataclass(frozen=True)
class Created:
    row: Interaction
    warnings: list[str]


def _interface_of(where: str, actor: str) -> Interface:
    """A question asked in an MCP client but answered by a person elsewhere (the page, the
    API) was answered on the web; only the client's own answer (or the deadline) is `client`."""
    if where == "client":
        return "web" if actor.startswith("human") and actor != "human:client" else "client"
    return "terminal" if where == "terminal" else "web"


class _NotDue(Exception):
    """The deadline moved (another instance extended it): expire nothing."""


class InteractionService:
    def __init__(self, store: Store, settings: Settings, notifier: LocalNotifier | None = None,
                 clock: Callable[[], float] = now) -> None:
        self.store = store
        self.settings = settings
        self.notifier = notifier or LocalNotifier()
        self.clock = clock
        self.deadlines = DeadlineScheduler(self.expire, clock)
        self._prefs: Preferences | None = None
        self._retention = BackgroundTask("choice-retention", self._prune_periodically)
        self._stored = 0
        """How many interactions are stored, give or take other processes: the count limit
        is checked in the database only when this passes it."""
        self._opened: set[str] = set()
        self.team = TeamService(self)
        """Widening to teammates and their discussion (`choice/team/`)."""
        self.decision = DecisionService(self)
        """The write-back: review, candidate, resolve, defer, quorum (`choice/decision/`)."""
        self.drafts = DraftKeeper(self)
        """What was typed on open questions and not sent yet (`choice/drafts/keeper.py`)."""
        self.remote: RemoteChanges | None = None
        """Other instances' changes, on a shared (PostgreSQL) database."""
        if store.shared:  # psycopg is the `postgres` extra: imported only when used
            from choice.instances.remote_changes import RemoteChanges
            self.remote = RemoteChanges(self)

    # -- lifecycle of the service itself -------------------------------------------------
    async def start(self) -> None:
        """Prune, bring back pending interactions with their deadlines, start the scheduler.
        Interactions whose deadline passed while the portal was down expire at once."""
        self.store.open()  # a migration may wait for another process: nothing serves yet
        await self.prune()
        self._prefs = await self.store.read(load_preferences, self.store.engine)
        for row in await self.store.read(self.store.repo.pending):
            self.deadlines.schedule(row.id, row.expires_at)
        self.deadlines.start()
        self._retention.start()
        await self.decision.start()
        if self.remote is not None:
            await self.remote.start()

    async def stop(self) -> None:
        if self.remote is not None:
            await self.remote.stop()
        await self.deadlines.stop()
        await self.drafts.flush()
        await self.decision.stop()
        await self._retention.stop()

    async def prune(self) -> int:
        """Apply retention now; returns how many interactions are stored."""
        s = self.settings
        self._stored = await self.store.write(self.store.repo.prune, self.clock(),
                                              s.retention_days, s.max_sessions)
        return self._stored

    async def _prune_periodically(self) -> None:
        while True:
            await asyncio.sleep(RETENTION_EVERY)
            try:
                await self.prune()
            except Exception:
                log.exception("retention failed; will try again in an hour")

    # -- preferences -----------------------------------------------------------------------
    async def preferences(self) -> Preferences:
        if self._prefs is None:
            self._prefs = await self.store.read(load_preferences, self.store.engine)
        return self._prefs

    async def update_preferences(self, patch: PreferencesPatch) -> Preferences:
        self._prefs = await self.store.write(save_preferences, self.store.engine, patch)
        return self._prefs

    def language_for(self, row: Interaction | None) -> str:
        """Per-request language > saved preference > CHOICE_LANG > English."""
        saved = self._prefs.language if self._prefs else None
        return resolve_language(row.language if row else None, saved, self.settings.language)

    # -- reading -----------------------------------------------------------------------------
    async def get(self, interaction_id: str) -> Interaction:
        return await self.store.read(self.store.repo.get, interaction_id)

    async def recent(self, which: Which = "all", limit: int = 50) -> list[Interaction]:
        return await self.store.read(self.store.repo.recent, which, limit)

    async def events(self, interaction_id: str) -> list[AuditEvent]:
        await self.get(interaction_id)  # NotFound for an unknown id, not an empty list
        return await self.store.read(self.store.repo.events, interaction_id)

    async def wait(self, interaction_id: str, seconds: float,
                   agent_turns: bool = True) -> Interaction:
        """The interaction once completed (or deferred), or as it is when `seconds` run
        out. With `agent_turns`, also at once while the owner waits on the agent's summary
        (a poller that cannot write one, like `choice ask`, says False)."""
        with self.notifier.waiter(interaction_id) as waiter:
            row = await self.get(interaction_id)
            if row.status not in OPEN_STATUSES or seconds <= 0 or (
                    agent_turns and await self.decision.agent_turn(row)):
                return row
            try:
                await asyncio.wait_for(waiter.event.wait(), seconds)
            except TimeoutError:
                return await self.get(interaction_id)  # the deadline may have moved meanwhile
        return waiter.row if waiter.row is not None else await self.get(interaction_id)

    # -- changes -----------------------------------------------------------------------------
    async def create(self, payload: Any, shape: Shape | None = None,
                     actor: str = "agent", in_client: bool = False) -> Created:
        """`in_client`: the asker is an MCP client that can ask its user (elicitation), so
        `interface: client` stays; anyone else asking for it gets the saved interface and a
        warning."""
        validated = parse_request(payload, await self.preferences(), shape)
        req, prefs, created = validated.request, await self.preferences(), self.clock()
        warnings = validated.warnings
        if req.interface == "client" and not in_client:
            req = req.model_copy(update={"interface": prefs.interface})
            warnings = [*warnings, NO_CLIENT_WARNING.format(interface=prefs.interface)]
        assert req.timeout_seconds is not None and req.interface != "auto"
        row = Interaction(
            id=secrets.token_hex(8), status="pending", title=req.title,
            selection_mode="questions" if req.several else req.selection_mode,
            interface=req.interface,
            agent=req.context.agent, project=req.context.project, language=req.language,
            placeholder_shown=prefs.show_placeholder and any(
                question.placeholder for question in req.asked()),
            created_at=created, expires_at=created + req.timeout_seconds,
            request_json=req.model_dump_json(),
        )
        detail = {"context": req.context.model_dump(exclude_none=True),
                  "timeout_seconds": req.timeout_seconds, "warnings": warnings}
        event = audit(row.id, "created", actor, detail, at=created)
        self._stored += 1
        over_limit = self._stored > self.settings.max_sessions
        stored = await self.store.insert(row, [event],
                                         self.settings.max_sessions if over_limit else None)
        if stored is not None:
            self._stored = stored
        self.deadlines.schedule(row.id, row.expires_at)
        self.notifier.publish(Change("interaction.created", row.id, listing(row), row))
        return Created(row, warnings)

    def completion(self, row: Interaction, interface: str | None, at: float,
                   actor: str = "system") -> Completion:
        """When, where and how `row` ends now; a widened (or deferred) one's result also
        carries its teammates and their votes (read here: on the writer thread, inside the
        completing transaction, nothing can be voted in between)."""
        participants, votes = self.team.facts(row) if row.status != "pending" else ((), ())
        return Completion(
            interaction_id=row.id,
            interface=_interface_of(interface or row.interface, actor),
            created_at=row.created_at, completed_at=at, placeholder_shown=row.placeholder_shown,
            translate=translator(self.language_for(row)), via=via_of(actor),
            participants=participants, votes=votes,
        )

    async def _complete(self, interaction_id: str,
                        decide: Callable[[Interaction], Completed]) -> Interaction:
        row = await self.store.write(self.store.repo.complete, interaction_id, decide)
        self.deadlines.forget(row.id)
        self._opened.discard(row.id)
        self.drafts.forget(row.id)
        self.notifier.publish(Change("interaction.completed", row.id, listing(row), row))
        return row

    def _decide_in_time(self, row: Interaction, decide: Decide) -> tuple[Completed, bool]:
        """What ends the pending `row` now, and whether it came too late: a human's
        completion counts only before the deadline; after it, the expiry is what ends it."""
        at = self.clock()
        if row.expires_at > at:
            return decide(row, at), False
        return expired(row, self.completion(row, None, at)), True

    async def _complete_in_time(self, interaction_id: str, decide: Decide) -> Interaction:
        """A completion that arrives after the deadline, before the scheduler got there,
        finds the interaction expired: the expiry is written instead and the caller gets
        `AlreadyCompleted`, as if the scheduler had been first (the outcome follows the
        deadline, not the scheduler's lag)."""
        too_late = False

        def decide_in_time(row: Interaction) -> Completed:
            nonlocal too_late
            done, too_late = self._decide_in_time(row, decide)
            return done

        row = await self._complete(interaction_id, decide_in_time)
        if too_late:
            raise AlreadyCompleted(row)
        return row

    def _answer(self, submission: Submission, interface: Interface | None,
                actor: str) -> Decide:
        def decide(row: Interaction, at: float) -> Completed:
            return answered(row, submission, self.completion(row, interface, at, actor), actor)

        return decide

    async def submit(self, interaction_id: str, submission: Submission,
                     interface: Interface | None = None, actor: str = "human") -> Interaction:
        """The human's answer. `InvalidInput` if it breaks the request's rules,
        `AlreadyCompleted` if someone else finished first or the deadline has passed;
        either way the answer changes nothing."""
        return await self._complete_in_time(interaction_id,
                                            self._answer(submission, interface, actor))

    async def check(self, interaction_id: str, submission: Submission,
                    interface: Interface | None = None, actor: str = "human") -> Completed:
        """What `submit` would do now, stored nowhere: the same checks in the same order
        (over, then the deadline, then the request's rules), on the same clock, with the
        same exceptions. A review step and the terminal ask this before the real submit.

        Past the deadline it raises `AlreadyCompleted` with the row as the expiry leaves it
        (the scheduler writes that; a check writes nothing, not even the expiry)."""
        row = await self.get(interaction_id)
        if row.status not in OPEN_STATUSES:
            raise AlreadyCompleted(row)
        done, too_late = self._decide_in_time(row, self._answer(submission, interface, actor))
        if too_late:
            raise AlreadyCompleted(done.applied_to(row))
        return done

    async def cancel(self, interaction_id: str, note: str | None = None,
                     interface: Interface | None = None, actor: str = "human") -> Interaction:
        def decide(row: Interaction, at: float) -> Completed:
            return cancelled(row, note, self.completion(row, interface, at, actor), actor)

        return await self._complete_in_time(interaction_id, decide)

    async def expire(self, interaction_id: str) -> None:
        """Called by the scheduler at the deadline; honours the request's `on_timeout`."""
        def decide(row: Interaction) -> Completed:
            at = self.clock()
            if row.expires_at > at:
                raise _NotDue
            return expired(row, self.completion(row, None, at))

        try:
            await self._complete(interaction_id, decide)
        except _NotDue:
            row = await self.get(interaction_id)
            self.deadlines.schedule(row.id, row.expires_at)
        except (AlreadyCompleted, NotFound):
            pass

    async def set_deadline(self, interaction_id: str, change: DeadlineChange,
                           actor: str = "human") -> Interaction:
        """Move the deadline while it is still ahead. Once it has passed, the expiry is
        written instead (as for a late answer) and the caller gets `AlreadyCompleted`."""
        row = await self.get(interaction_id)
        at = self.clock()
        deadline = new_deadline(row.created_at, change, at)
        # `at` as the deadline was counted from it: `to - at` is the time the person gave
        # (what "Use as default" offers, `time_defaults.py`)
        event = audit(row.id, "deadline_changed", actor,
                      {"from": row.expires_at, "to": deadline}, at)
        try:
            row = await self.store.write(self.store.repo.update_pending, interaction_id,
                                         {"expires_at": deadline}, [event], at)
        except DeadlinePassed:
            await self.expire(interaction_id)
            raise AlreadyCompleted(await self.get(interaction_id)) from None
        self.deadlines.schedule(row.id, row.expires_at)
        self.notifier.publish(Change("interaction.updated", row.id, listing(row), row))
        return row

    async def switch_interface(self, interaction_id: str, interface: Interface,
                               actor: str) -> Interaction:
        """Continue a pending interaction elsewhere (terminal -> web): same request, same
        deadline; audited as `interface_switched`."""
        row = await self.get(interaction_id)
        before = row.interface
        event = audit(row.id, "interface_switched", actor, {"from": before, "to": interface})
        row = await self.store.write(self.store.repo.update_pending, interaction_id,
                                     {"interface": interface}, [event])
        self.notifier.publish(Change("interaction.updated", row.id,
                                     {**listing(row), "switched_from": before}, row))
        return row

    async def mark_opened(self, interaction_id: str, interface: Interface, actor: str) -> None:
        """Audit the first time a human opens an interaction (a page's socket, the
        terminal UI); later tabs and reconnects add nothing."""
        if interaction_id in self._opened:
            return
        self._opened.add(interaction_id)
        row = await self.get(interaction_id)
        await self.store.write(self.store.repo.append_event,
                               audit(row.id, "opened", actor, {"interface": interface}))
        self.notifier.publish(Change("interaction.opened", row.id, listing(row), row))
