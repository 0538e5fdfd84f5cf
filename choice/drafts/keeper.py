"""Drafts: what a person has typed or picked on an open question and not sent yet, kept on
the server so a reload, a re-rendered form, another device or the terminal UI starts from it.

A draft mirrors a `Submission` (selections, custom input, per-option notes, several
questions' answers, the global note) plus the cancel reason. It is never an answer: nothing
reads it to decide a question, the deadline's `submit_defaults` submits the defaults, and the
transaction that ends a question deletes its draft. Option ids are not checked against the
question (a draft is half-done work): the form and the terminal skip ids they do not show.

Writes are coalesced: at most one stored write per second per question, the latest wins; the
newest draft is served from memory meanwhile and written on stop. Each accepted change is
published as `interaction.draft` (pages and the terminal follow it; the webhook and the
agent's stream do not).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Annotated, Any

from msgspec import Struct
from pydantic import ConfigDict, Field

from choice.contract import (
    CUSTOM_INPUT_MAX,
    LABEL_MAX,
    MAX_OPTIONS,
    NOTE_MAX,
    QUESTIONS_MAX,
    UNRESOLVED_STATUSES,
    PortalInterface,
)
from choice.contract.clock import iso
from choice.contract.errors import AlreadyCompleted
from choice.contract.model import Model
from choice.core.extension import Extension
from choice.core.notifier import Change
from choice.store.drafts import drop_draft, load_draft, save_draft
from choice.store.records import Interaction

if TYPE_CHECKING:
    from choice.core.service import InteractionService

WRITE_EVERY = 1.0
"""Seconds between two stored writes of one question's draft."""
OptionId = Annotated[str, Field(max_length=LABEL_MAX)]


class DraftAnswer(Model):
    """One question's half-done answer."""

    model_config = ConfigDict(extra="forbid")

    selected_ids: list[OptionId] | None = Field(default=None, max_length=MAX_OPTIONS)
    custom_input: str | None = Field(default=None, max_length=CUSTOM_INPUT_MAX)
    option_annotations: dict[OptionId, Annotated[str, Field(max_length=NOTE_MAX)]] = Field(
        default_factory=dict, max_length=MAX_OPTIONS)


class Draft(DraftAnswer):
    """The body of `PUT /api/interactions/{id}/draft`, and what GET gives back."""

    answers: dict[Annotated[str, Field(max_length=LABEL_MAX)], DraftAnswer] | None = Field(
        default=None, max_length=QUESTIONS_MAX,
        description="For a request with `questions`: each question's draft by its id.")
    global_annotation: str | None = Field(default=None, max_length=NOTE_MAX)
    cancel_reason: str | None = Field(default=None, max_length=NOTE_MAX)
    interface: PortalInterface = Field(default="web", description="Where it was typed.")
    tab: str | None = Field(default=None, max_length=32,
                            description="The writing page's id: it ignores its own echo.")


class _Held(Struct):
    draft: Draft
    at: float


class DraftKeeper(Extension):
    """A feature: the core calls `on_completed` when a question ends (its stored draft went
    in that transaction; the held one goes now) and `stop` (held drafts are written)."""

    def __init__(self, service: InteractionService) -> None:
        self._service = service
        self._held: dict[str, _Held] = {}
        """The newest draft of a question whose stored write is waiting (coalesced)."""
        self._written: dict[str, float] = {}
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._writes: set[asyncio.Task[None]] = set()

    async def get(self, interaction_id: str) -> dict[str, Any]:
        """`{"draft": ..., "updated_at": ..., "interface": ...}`, draft null when there is none
        (or the question is over). `NotFound` if there is no such question."""
        row = await self._service.get(interaction_id)
        if row.status not in UNRESOLVED_STATUSES:
            self.forget(interaction_id)
            return {"draft": None}
        held = self._held.get(interaction_id)
        if held is not None:
            return _shown(held.draft, held.at)
        store = self._service.store
        stored = await store.read(load_draft, store.repo, interaction_id)
        if stored is None:
            return {"draft": None}
        return _shown(Draft.model_validate(stored.draft_json), stored.updated_at)

    async def put(self, interaction_id: str, draft: Draft) -> dict[str, Any]:
        """Keep `draft` as the question's; 409 (`AlreadyCompleted`) once it is over."""
        row = await self._service.get(interaction_id)
        if row.status not in UNRESOLVED_STATUSES:
            raise AlreadyCompleted(row)
        at = self._service.clock()
        self._held[interaction_id] = _Held(draft, at)
        due = self._written.get(interaction_id, 0.0) + WRITE_EVERY
        if at >= due and interaction_id not in self._timers:
            await self._write(interaction_id)
        elif interaction_id not in self._timers:
            loop = asyncio.get_running_loop()
            self._timers[interaction_id] = loop.call_later(
                due - at, self._write_later, interaction_id)
        self._announce(interaction_id, draft)
        return _shown(draft, at)

    async def delete(self, interaction_id: str) -> None:
        await self._service.get(interaction_id)  # NotFound if there is no such question
        self.forget(interaction_id)
        store = self._service.store
        await store.write(drop_draft, store.repo, interaction_id)
        self._service.notifier.publish(Change("interaction.draft", interaction_id, {}))

    def on_completed(self, row: Interaction) -> None:
        self.forget(row.id)

    async def stop(self) -> None:
        await self.flush()

    def forget(self, interaction_id: str) -> None:
        """The question ended (its draft row went with it): drop what is held here."""
        self._held.pop(interaction_id, None)
        self._written.pop(interaction_id, None)
        timer = self._timers.pop(interaction_id, None)
        if timer is not None:
            timer.cancel()

    async def flush(self) -> None:
        """Write every held draft now (the portal stops)."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        for interaction_id in list(self._held):
            await self._write(interaction_id)
        if self._writes:
            await asyncio.gather(*self._writes, return_exceptions=True)

    def _write_later(self, interaction_id: str) -> None:
        self._timers.pop(interaction_id, None)
        task = asyncio.get_running_loop().create_task(self._write(interaction_id))
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    async def _write(self, interaction_id: str) -> None:
        held = self._held.pop(interaction_id, None)
        if held is None:
            return
        self._written[interaction_id] = held.at
        store = self._service.store
        with contextlib.suppress(AlreadyCompleted, LookupError):  # ended meanwhile: no draft
            await store.write(save_draft, store.repo, interaction_id,
                              held.draft.model_dump(mode="json", exclude_none=True), held.at,
                              held.draft.interface)

    def _announce(self, interaction_id: str, draft: Draft) -> None:
        self._service.notifier.publish(Change("interaction.draft", interaction_id, {
            "interface": draft.interface, "tab": draft.tab}))


def _shown(draft: Draft, at: float) -> dict[str, Any]:
    body = draft.model_dump(exclude_defaults=True, exclude={"interface", "tab"})
    return {"draft": body, "updated_at": iso(at), "interface": draft.interface,
            "tab": draft.tab}
