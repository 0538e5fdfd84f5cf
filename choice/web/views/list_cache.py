"""The rendered question list, reused between page loads.

Rendering the sidebar (two queries, twenty rows with relative ages) was a quarter of a
page's cost. The HTML is kept per (filter, current question, language, and in team mode
member) until the list changes (this is a notifier listener) or 30 s pass, so the ages stay
fresh. In team mode a change drops only the lists it can alter: its member's, and those
showing the question as widened to them; a question newly widened, or an invitation
withdrawn, drops every list (who gains or loses a line is not in the change).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

import msgspec
from markupsafe import Markup
from msgspec import Struct

from choice.core.notifier import Change
from choice.core.service import InteractionService
from choice.store.records import Interaction
from choice.web.views.interactions import ListView, split_for_list
from choice.web.views.templates import Templates

FRESH_SECONDS = 30
LIST_CHANGES = ("interaction.created", "interaction.completed", "interaction.widened",
                "interaction.deferred", "interaction.resumed")
"""What moves a line of the list (a new one, a status badge); a widened question reads
"Waiting on team" there, a deferred one "Deferred". And an `interaction.updated` that
switched the interface (`moves_a_line`): its line's interface badge."""


def moves_a_line(change: Change) -> bool:
    """Whether `change` alters what the list shows (not a deadline: the list has none; a
    withdrawn participant: a member's "widened to you" line)."""
    return change.kind in LIST_CHANGES or (
        change.kind == "interaction.updated" and "switched_from" in change.data) or (
        change.kind == "discussion.changed" and change.data.get("change") == "revoked")


class RenderedList(Struct, frozen=True):
    html: Markup
    active_count: int
    widened_ids: frozenset[str] = frozenset()
    """Team mode: the questions this list shows as widened to its member."""


WidenedTo = Callable[[str], Awaitable[list[Interaction]]]
"""Team mode: the questions widened to a member (`TeamService.widened_to`)."""


async def list_view(service: InteractionService, which: str, current_id: str | None,
                    member_id: str | None = None, widened_to: WidenedTo | None = None
                    ) -> ListView:
    """`member_id`: in team mode, only that member's questions, and apart from them those
    `widened_to` the member."""
    active, deferred, completed = await asyncio.gather(
        service.recent("active", 100, member_id), service.recent("deferred", 100, member_id),
        service.recent("completed", 5, member_id))
    view = split_for_list(active, deferred, completed, which, current_id)
    if member_id is None or widened_to is None:
        return view
    return msgspec.structs.replace(view, widened_to_me=await widened_to(member_id))


class ListCache:
    def __init__(self, templates: Templates, widened_to: WidenedTo | None = None) -> None:
        self.templates = templates
        """The app's templates (the ones its template engine renders with)."""
        self.widened_to = widened_to
        """Team mode: what a member's list shows as widened to them."""
        self.version = 0
        self._rendered: dict[tuple[str, str | None, str, int, str | None], RenderedList] = {}

    def __call__(self, change: Change) -> None:
        if not moves_a_line(change):
            return
        self.version += 1
        row = change.row
        if not isinstance(row, Interaction) or change.kind in ("interaction.widened",
                                                               "discussion.changed"):
            self._rendered.clear()
            return
        for key, rendered in list(self._rendered.items()):
            if key[-1] == row.member_id or row.id in rendered.widened_ids:
                del self._rendered[key]

    async def render(self, service: InteractionService, which: str, current_id: str | None,
                     locale: str, member_id: str | None = None) -> RenderedList:
        """`member_id`: whose list (team mode); None: every question (local mode)."""
        key = (which, current_id, locale, int(time.monotonic() // FRESH_SECONDS), member_id)
        if (hit := self._rendered.get(key)) is not None:
            return hit
        version = self.version
        view = await list_view(service, which, current_id, member_id, self.widened_to)
        template = self.templates.get_template("partials/_interaction_list.html")
        rendered = RenderedList(Markup(template.render(list=view, locale=locale)),
                                view.active_count,
                                frozenset(row.id for row in view.widened_to_me))
        if version == self.version:  # nothing changed while we read: safe to keep
            if len(self._rendered) > 256:
                self._rendered.clear()
            self._rendered[key] = rendered
        return rendered
