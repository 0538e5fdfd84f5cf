"""InteractionService: the one place interactions are created, read, waited on, ended,
re-timed and switched. Every transport (HTTP API, web pages, MCP, terminal, CLI) goes
through it; every feature plugs into it (`extension.py`) and it names none of them.

Order of work for every change: persist (one transaction, with its audit event), then wake
waiters and subscribers. Every ending goes through `completion.Completer`; deadlines live in
one scheduler; the database stays the truth.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import ExitStack, contextmanager, suppress
from typing import Any

from choice.contract import (
    OPEN_STATUSES,
    UNRESOLVED_STATUSES,
    DeadlineChange,
    Interface,
    Preferences,
    PreferencesPatch,
    Shape,
    Submission,
)
from choice.contract.clock import now
from choice.contract.compat import parse_request
from choice.contract.errors import AlreadyCompleted, DeadlinePassed
from choice.contract.normalize import Completion
from choice.contract.notices import AgentMovedOn, AgentWaiting
from choice.contract.result import DiscussionData
from choice.core.actors import AGENT, OWNER, SYSTEM, Actor
from choice.core.answer_files import AnswerFiles
from choice.core.attachments import files_of
from choice.core.completion import Completer, Decide
from choice.core.config import Settings
from choice.core.creation import NO_CLIENT_WARNING, Created, stored_question
from choice.core.deadlines import DeadlineScheduler, new_deadline
from choice.core.endings import answered, audit, cancelled, withdrawn
from choice.core.extension import Extension, Extensions, ReplyHints
from choice.core.i18n import resolve_language
from choice.core.moved_on import REASONS, moot
from choice.core.notifier import Change, LocalNotifier
from choice.core.replies import AgentReply, listing, reply
from choice.core.retention import Retention
from choice.core.scans import Scans
from choice.core.waiting import AgentWait
from choice.store import Store
from choice.store.preferences import load_preferences, save_preferences, saved_language
from choice.store.records import AuditEvent, Interaction
from choice.store.repository import Completed, Which


def _answering(submission: Submission, actor: Actor) -> Decide:
    def decide(row: Interaction, done: Completion) -> Completed:
        return answered(row, submission, done, actor)

    return decide


class InteractionService:
    def __init__(self, store: Store, settings: Settings, notifier: LocalNotifier | None = None,
                 clock: Callable[[], float] = now) -> None:
        self.store = store
        self.settings = settings
        self.notifier = notifier or LocalNotifier()
        self.clock = clock
        self.extensions = Extensions()
        """The features plugged in (`register`), called at the core's extension points."""
        self._opened: set[str] = set()
        self._completer = Completer(store, self.notifier, DeadlineScheduler(self.expire, clock),
                                    self.extensions, clock, self.owners_language, self._opened,
                                    settings.link_base)
        self.deadlines = self._completer.deadlines
        self.scans = Scans(self.notifier, clock, settings.reminder_scan_seconds)
        """Periodic work the features register (reminders), run by one task."""
        self._prefs: Preferences | None = None
        """Read at the first `preferences()`: validating them built pydantic's first
        validator, which a start that needs only the saved language should not wait for."""
        self._saved_language: str | None = None
        self._member_languages: dict[str, str | None] = {}
        """Team mode: each member's saved language as this instance last read or wrote it
        (`preferences(member_id)`: every page reads them first), for `language_for`."""
        self._retention = Retention(store, settings, clock)
        self.answer_files = AnswerFiles(store, self.notifier, clock, settings.link_base)
        """A person's files for the answer being written (`answer_files.py`)."""

    def register(self, extension: Extension) -> None:
        """Plug a feature in (before `start`): the composition root does, in order."""
        self.extensions.add(extension)

    # -- lifecycle of the service itself -------------------------------------------------
    async def start(self) -> None:
        """Prune, bring back pending interactions with their deadlines, start the scheduler
        and the extensions. Interactions whose deadline passed while the portal was down
        expire at once."""
        self.store.open()  # a migration may wait for another process: nothing serves yet
        await self.prune()
        self._saved_language = await self.store.read(saved_language, self.store.engine)
        for interaction_id, expires_at in await self.store.scan(self.store.repo.deadlines):
            self.deadlines.schedule(interaction_id, expires_at)
        self.deadlines.start()
        self._retention.start()
        await self.extensions.start()
        self.scans.start()

    async def stop(self) -> None:
        await self.deadlines.stop()
        await self.scans.stop()
        await self.extensions.stop()
        await self._retention.stop()

    async def prune(self) -> int:
        """Apply retention now; returns how many interactions are stored."""
        return await self._retention.prune()

    # -- preferences -----------------------------------------------------------------------
    async def preferences(self, member_id: str | None = None) -> Preferences:
        """The owner's saved preferences (local mode), or in team mode `member_id`'s: read
        from the database each time, so every instance sees a member's latest change."""
        if member_id is not None:
            prefs = await self.store.read(load_preferences, self.store.engine, member_id)
            self._member_languages[member_id] = prefs.language
            return prefs
        if self._prefs is None:
            self._prefs = await self.store.read(load_preferences, self.store.engine)
        return self._prefs

    async def update_preferences(self, patch: PreferencesPatch,
                                 member_id: str | None = None) -> Preferences:
        """Change the owner's preferences, or in team mode `member_id`'s only."""
        if member_id is not None:
            prefs = await self.store.write(save_preferences, self.store.engine, patch,
                                           member_id)
            self._member_languages[member_id] = prefs.language
            return prefs
        self._prefs = await self.store.write(save_preferences, self.store.engine, patch)
        return self._prefs

    async def owners_preferences(self, row: Interaction) -> Preferences:
        """The preferences of whoever `row` belongs to: in team mode its member's, else the
        owner's."""
        return await self.preferences(row.member_id if self.settings.team_mode else None)

    def owners_language(self, row: Interaction) -> str:
        """The language of what `row`'s owner reads of it outside a page (the result's
        summary, the terminal's screen, an MCP client's form): in team mode its member's
        saved language, as this instance last read it (`preferences(member_id)`: the create,
        the member's pages, the terminal's and the MCP form's read them first)."""
        return self.language_for(row, member_id=row.member_id if self.settings.team_mode
                                 else None)

    def language_for(self, row: Interaction | None, browser: str | None = None,
                     member_id: str | None = None) -> str:
        """Per-request language > saved preference (the owner's, or team mode's `member_id`'s
        as this instance last read it) > CHOICE_LANG > the browser's (a page's
        `Accept-Language`, when the web layer passes it) > English."""
        if member_id is not None:
            saved = self._member_languages.get(member_id)
        else:
            saved = self._prefs.language if self._prefs else self._saved_language
        return resolve_language(row.language if row else None, saved, self.settings.language,
                                browser)

    # -- reading -----------------------------------------------------------------------------
    async def get(self, interaction_id: str) -> Interaction:
        return await self.store.read(self.store.repo.get, interaction_id)

    async def recent(self, which: Which = "all", limit: int = 50,
                     member_id: str | None = None) -> list[Interaction]:
        """Newest first. `member_id`: only that member's (team mode); None: every one."""
        return await self.store.scan(self.store.repo.recent, which, limit, member_id)

    async def events(self, interaction_id: str, after: int | None = None,
                     limit: int | None = None) -> list[AuditEvent]:
        """The audit trail oldest first (after the event `after`, at most `limit`)."""
        await self.get(interaction_id)  # NotFound for an unknown id, not an empty list
        return await self.store.scan(self.store.repo.events, interaction_id, after, limit)

    async def discussion(self, row: Interaction) -> DiscussionData | None:
        """The discussion `row` was widened to, if an extension keeps one."""
        return await self.extensions.shared_discussion(row)

    # -- the agent's side --------------------------------------------------------------------
    @contextmanager
    def waiting(self, interaction_id: str) -> Iterator[AgentWait]:
        """An agent's wait on a question, window after window (`waiting.py`)."""
        with ExitStack() as stack:
            yield AgentWait(interaction_id, self.notifier, self.extensions, self.get, stack)

    async def wait(self, interaction_id: str, seconds: float,
                   agent_turns: bool = True) -> Interaction:
        """The question once there is something for the agent to hear, or as it stands
        when `seconds` run out (see `waiting.py`)."""
        with self.waiting(interaction_id) as waiting:
            return (await waiting.next(seconds, agent_turns)).row

    async def reply(self, row: Interaction, hints: ReplyHints) -> AgentReply:
        """What an agent gets for `row`: the result with its status once over, else the
        hand-off, as the extensions have it (a widened question, a deferral, a request for
        the agent's summary)."""
        base = reply(row, self.settings, hints.poll_hint)
        if row.status == "pending" or row.result_json is None:
            return await self.extensions.agent_reply(row, base, hints)
        return base

    # -- changes -----------------------------------------------------------------------------
    async def create(self, payload: Any, shape: Shape | None = None,
                     actor: Actor = AGENT, in_client: bool = False,
                     source_paths: Sequence[str | None] = (),
                     member_id: str | None = None) -> Created:
        """`in_client`: the asker is an MCP client that can ask its user (elicitation), so
        `interface: client` stays; anyone else asking for it gets the saved interface and a
        warning. `source_paths`: where `choice mcp` read each attachment (in order; the
        payload cannot say). `member_id`: in team mode, the member whose token or session
        asks: the question is theirs."""
        prefs = await self.preferences(member_id)  # the asking member's defaults
        validated = parse_request(payload, prefs, shape)
        req, created = validated.request, self.clock()
        warnings = validated.warnings
        if req.interface == "client" and not in_client:
            req = req.model_copy(update={"interface": prefs.interface})
            warnings = [*warnings, NO_CLIENT_WARNING.format(interface=prefs.interface)]
        interaction_id = secrets.token_hex(8)
        files, req = files_of(req, interaction_id, created, source_paths)
        row, events = stored_question(req, interaction_id, created, prefs.show_placeholder,
                                      warnings, files, actor, member_id)
        limit = self._retention.limit_for_one_more()
        self._retention.counted(await self.store.insert(row, events, limit, files))
        self.deadlines.schedule(row.id, row.expires_at)
        self.notifier.publish(Change("interaction.created", row.id, listing(row), row))
        return Created(row, warnings)

    async def complete(self, interaction_id: str, decide: Decide, *,
                       interface: str | None = None, actor: Actor = SYSTEM,
                       statuses: Collection[str] = UNRESOLVED_STATUSES) -> Interaction:
        """End an undecided question (open, or deferred unless `statuses` says otherwise)
        with what `decide` returns: the one completion function (`completion.py`), for
        every ending here and the features' (a resolve, a quorum)."""
        return await self._completer.complete(interaction_id, decide, interface=interface,
                                              actor=actor, statuses=statuses)

    async def submit(self, interaction_id: str, submission: Submission,
                     interface: Interface | None = None, actor: Actor = OWNER) -> Interaction:
        """A person's answer (on a widened or deferred question: the owner's decision, in
        their own words). `InvalidInput` if it breaks the request's rules,
        `AlreadyCompleted` if someone else finished first or the deadline has passed;
        either way the answer changes nothing."""
        return await self.complete(interaction_id, _answering(submission, actor),
                                   interface=interface, actor=actor)

    async def check(self, interaction_id: str, submission: Submission,
                    interface: Interface | None = None, actor: Actor = OWNER) -> Completed:
        """What `submit` would do now, stored nowhere (a review step and the terminal ask
        this before the real submit): the same checks, order and exceptions."""
        return await self._completer.check(interaction_id, _answering(submission, actor),
                                           interface=interface, actor=actor)

    async def cancel(self, interaction_id: str, note: str | None = None,
                     interface: Interface | None = None, actor: Actor = OWNER) -> Interaction:
        def decide(row: Interaction, done: Completion) -> Completed:
            return cancelled(row, note, done, actor)

        # A deferred question is taken up again (or decided) before it can be cancelled.
        return await self.complete(interaction_id, decide, interface=interface, actor=actor,
                                   statuses=OPEN_STATUSES)

    async def withdraw(self, interaction_id: str, reason: str, actor: Actor = AGENT) -> Interaction:
        """The agent takes its question back: open or deferred, it ends `withdrawn`; a later
        answer is refused (409) like any on an ended question."""
        def decide(row: Interaction, done: Completion) -> Completed:
            return withdrawn(row, reason, done, actor)

        return await self.complete(interaction_id, decide, actor=actor,
                                   statuses=UNRESOLVED_STATUSES)

    async def expire(self, interaction_id: str) -> None:
        """Called by the scheduler at the deadline; honours the request's `on_timeout`."""
        await self._completer.expire(interaction_id)

    async def expire_late(self, interaction_id: str) -> AlreadyCompleted:
        """A change that found the deadline passed (`DeadlinePassed`): the expiry is
        written instead, as for a late answer; the caller raises what this returns."""
        await self.expire(interaction_id)
        return AlreadyCompleted(await self.get(interaction_id))

    async def set_deadline(self, interaction_id: str, change: DeadlineChange,
                           actor: Actor = OWNER) -> Interaction:
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
            raise await self.expire_late(interaction_id) from None
        self.deadlines.schedule(row.id, row.expires_at)
        self.notifier.publish(Change("interaction.updated", row.id, listing(row), row))
        return row

    async def switch_interface(self, interaction_id: str, interface: Interface,
                               actor: Actor) -> Interaction:
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

    async def announce(self, change: Change) -> None:
        """Publish a change made here, then await the extensions' reactions to it (a
        question taken up again may already have its quorum)."""
        self.notifier.publish(change)
        await self.extensions.react(change)

    async def agent_moved_on(self, notice: AgentMovedOn,
                             member_id: str | None = None) -> list[str]:
        """The agent went on without the portal (`POST /api/agent-moved-on`): each question
        its hook asked that this makes moot (`moved_on.py`) is withdrawn, with why; one that
        ended meanwhile stays as it ended. The ids withdrawn. `member_id`: in team mode,
        only that member's questions."""
        rows = [*await self.recent("active", 200, member_id),
                *await self.recent("deferred", 200, member_id)]
        withdrawn_ids = []
        for row in moot(rows, notice, self.clock()):
            with suppress(AlreadyCompleted):
                await self.withdraw(row.id, REASONS[notice.event], Actor.agent("hook"))
                withdrawn_ids.append(row.id)
        return withdrawn_ids

    def agent_waiting(self, notice: AgentWaiting, member_id: str | None = None) -> None:
        """An agent waits for its person in its own terminal (`POST /api/agent-waiting`): the
        open pages say so. No question, nothing stored: only who is told now hears it (in
        team mode, the pages of `member_id`, whose token sent it)."""
        whose = {"member_id": member_id} if member_id is not None else {}
        self.notifier.publish(Change("agent.waiting", "", {**notice.model_dump(), **whose}))

    async def mark_opened(self, interaction_id: str, interface: Interface, actor: Actor) -> None:
        """Audit the first time a human opens an interaction (a page's socket, the
        terminal UI); later tabs and reconnects add nothing."""
        if interaction_id in self._opened:
            return
        self._opened.add(interaction_id)
        row = await self.get(interaction_id)
        await self.store.write(self.store.repo.append_event,
                               audit(row.id, "opened", actor, {"interface": interface}))
        self.notifier.publish(Change("interaction.opened", row.id, listing(row), row))

