"""The one completion function: every way a question ends goes through `Completer.complete`.

A person's answer (page, terminal, API, MCP elicitation), an owner's decision after a
discussion, the team's quorum, a cancel, a withdrawal and the deadline each hand in a
`decide` callback (built on `endings.py`, which builds on `choice.contract.normalize`).
`complete` then, in one transaction: reads the row, checks its status, lets the deadline
win over a late decision (it writes the expiry and the caller gets `AlreadyCompleted`),
calls `decide` with the `Completion` (when, where, by whom (in team mode the owner's
member), with the facts extensions add),
and writes the result, the audit events and the draft's removal (its files go with a
person's answer, or go). After the commit, one
clean-up: the deadline timer, the opened marker, each extension's `on_completed`, then
`interaction.completed` is published.

Must not: know any feature, or decide anything a `decide` callback decides.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from msgspec import Struct

from choice.contract import OPEN_STATUSES, UNRESOLVED_STATUSES, Interface
from choice.contract.errors import AlreadyCompleted, NotFound
from choice.contract.normalize import Completion
from choice.core.actors import SYSTEM, Actor
from choice.core.attachments import file_url, sent_file
from choice.core.deadlines import DeadlineScheduler
from choice.core.endings import expired
from choice.core.extension import Extensions
from choice.core.i18n import translator
from choice.core.notifier import Change, LocalNotifier
from choice.core.replies import listing
from choice.store import Store
from choice.store.members import find_member
from choice.store.records import Interaction, StoredFile
from choice.store.repository import Completed

Decide = Callable[[Interaction, Completion], Completed]
"""How a question ends now, given its row and when/where/by whom (see `endings.py`)."""


def interface_of(where: str, actor: Actor) -> Interface:
    """A question asked in an MCP client but answered by a person elsewhere (the page, the
    API) was answered on the web; only the client's own answer (or the deadline) is `client`."""
    if where == "client":
        return "web" if actor.is_owner and actor.channel != "client" else "client"
    return "terminal" if where == "terminal" else "web"


class NotDue(Exception):
    """The deadline moved (another instance extended it): expire nothing."""


class Completer(Struct):
    store: Store
    notifier: LocalNotifier
    deadlines: DeadlineScheduler
    extensions: Extensions
    clock: Callable[[], float]
    language_for: Callable[[Interaction], str]
    opened: set[str]
    """The questions this instance audited as opened (forgotten once they end)."""
    link_base: str
    """Where a person's files are fetched from (`CHOICE_PUBLIC_URL` or the portal's URL)."""

    def _draft_files(self, row: Interaction, actor: Actor) -> list[StoredFile]:
        """The files a person attached to the draft: a person's answer sends them (the
        deadline's and the team's never do)."""
        return self.store.repo.draft_files(row.id) if actor.is_owner else []

    def completion(self, row: Interaction, interface: str | None, at: float,
                   actor: Actor = SYSTEM) -> Completion:
        """When, where and how `row` ends now, with what the extensions add (a widened
        question's teammates and votes: read here, inside the completing transaction, so
        nothing can be voted in between)."""
        def url_of(attachment_id: str) -> str:
            return file_url(self.link_base, row.id, attachment_id)

        facts = self.extensions.completion_facts(row)
        member = (find_member(self.store.engine, row.member_id)
                  if actor.is_owner and row.member_id is not None else None)
        return Completion(
            interaction_id=row.id, interface=interface_of(interface or row.interface, actor),
            created_at=row.created_at, completed_at=at, placeholder_shown=row.placeholder_shown,
            translate=translator(self.language_for(row)), via=actor.answered_via,
            participants=facts.participants, votes=facts.votes,
            files=tuple(sent_file(file, url_of(file.attachment_id))
                        for file in self._draft_files(row, actor)),
            file_url=url_of, member=member.email if member is not None else None)

    def decided_in_time(self, row: Interaction, decide: Decide, interface: str | None,
                        actor: Actor) -> tuple[Completed, bool]:
        """What ends `row` now, and whether it came too late: a decision counts only
        before the deadline of an open question; after it, the expiry is what ends it (a
        deferred question has no running deadline)."""
        at = self.clock()
        if row.status in OPEN_STATUSES and row.expires_at <= at:
            return expired(row, self.completion(row, None, at)), True
        return decide(row, self.completion(row, interface, at, actor)), False

    async def complete(self, interaction_id: str, decide: Decide, *,
                       interface: str | None = None, actor: Actor = SYSTEM,
                       statuses: Collection[str] = UNRESOLVED_STATUSES) -> Interaction:
        """End the question with what `decide` returns, once (see the module's docstring).
        `AlreadyCompleted` if it was over, or its deadline had passed (then the expiry is
        written); `NotFound`; `InvalidInput` from `decide`: nothing changes then."""
        too_late = False

        def in_transaction(row: Interaction) -> Completed:
            nonlocal too_late
            done, too_late = self.decided_in_time(row, decide, interface, actor)
            return done

        row = await self._finish(interaction_id, in_transaction, statuses)
        if too_late:
            raise AlreadyCompleted(row)
        return row

    async def check(self, interaction_id: str, decide: Decide, *,
                    interface: str | None = None, actor: Actor = SYSTEM,
                    statuses: Collection[str] = UNRESOLVED_STATUSES) -> Completed:
        """What `complete` would do now, stored nowhere: the same checks in the same order
        (over, then the deadline, then the question's rules), with the same exceptions.
        Past the deadline, `AlreadyCompleted` with the row as the expiry leaves it (the
        scheduler writes that; a check writes nothing)."""
        row = await self.store.read(self.store.repo.get, interaction_id)
        if row.status not in statuses:
            raise AlreadyCompleted(row)
        done, too_late = self.decided_in_time(row, decide, interface, actor)
        if too_late:
            raise AlreadyCompleted(done.applied_to(row))
        return done

    async def expire(self, interaction_id: str) -> None:
        """The deadline: the request's `on_timeout` (called by the scheduler)."""
        def decide(row: Interaction) -> Completed:
            at = self.clock()
            if row.expires_at > at:
                raise NotDue
            return expired(row, self.completion(row, None, at))

        try:
            await self._finish(interaction_id, decide, OPEN_STATUSES)
        except NotDue:
            row = await self.store.read(self.store.repo.get, interaction_id)
            self.deadlines.schedule(row.id, row.expires_at)
        except (AlreadyCompleted, NotFound):
            pass

    async def _finish(self, interaction_id: str, decide: Callable[[Interaction], Completed],
                      statuses: Collection[str]) -> Interaction:
        row = await self.store.write(self.store.repo.complete, interaction_id, decide, statuses)
        self.deadlines.forget(row.id)
        self.opened.discard(row.id)
        self.extensions.completed(row)
        self.notifier.publish(Change("interaction.completed", row.id, listing(row), row))
        return row
