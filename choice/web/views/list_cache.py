"""The rendered question list, reused between page loads.

Rendering the sidebar (two queries, twenty rows with relative ages) was a quarter of a
page's cost. The HTML is kept per (filter, current question, language, and in team mode
member) until the list changes (this is a notifier listener) or 30 s pass, so the ages stay
fresh.
"""

from __future__ import annotations

import asyncio
import time

from markupsafe import Markup
from msgspec import Struct

from choice.core.notifier import Change
from choice.core.service import InteractionService
from choice.web.views.interactions import ListView, split_for_list
from choice.web.views.templates import Templates

FRESH_SECONDS = 30
LIST_CHANGES = ("interaction.created", "interaction.completed", "interaction.widened",
                "interaction.deferred", "interaction.resumed")
"""What moves a line of the list (a new one, a status badge); a widened question reads
"Waiting on team" there, a deferred one "Deferred". And an `interaction.updated` that
switched the interface (`moves_a_line`): its line's interface badge."""


def moves_a_line(change: Change) -> bool:
    """Whether `change` alters what the list shows (not a deadline: the list has none)."""
    return change.kind in LIST_CHANGES or (
        change.kind == "interaction.updated" and "switched_from" in change.data)


class RenderedList(Struct, frozen=True):
    html: Markup
    active_count: int


async def list_view(service: InteractionService, which: str, current_id: str | None,
                    member_id: str | None = None) -> ListView:
    """`member_id`: in team mode, only that member's questions."""
    active, deferred, completed = await asyncio.gather(
        service.recent("active", 100, member_id), service.recent("deferred", 100, member_id),
        service.recent("completed", 5, member_id))
    return split_for_list(active, deferred, completed, which, current_id)


class ListCache:
    def __init__(self, templates: Templates) -> None:
        self.templates = templates
        """The app's templates (the ones its template engine renders with)."""
        self.version = 0
        self._rendered: dict[tuple[str, str | None, str, int, str | None], RenderedList] = {}

    def __call__(self, change: Change) -> None:
        if moves_a_line(change):
            self.version += 1
            self._rendered.clear()

    async def render(self, service: InteractionService, which: str, current_id: str | None,
                     locale: str, member_id: str | None = None) -> RenderedList:
        """`member_id`: whose list (team mode); None: every question (local mode)."""
        key = (which, current_id, locale, int(time.monotonic() // FRESH_SECONDS), member_id)
        if (hit := self._rendered.get(key)) is not None:
            return hit
        version = self.version
        view = await list_view(service, which, current_id, member_id)
        template = self.templates.get_template("partials/_interaction_list.html")
        rendered = RenderedList(Markup(template.render(list=view, locale=locale)),
                                view.active_count)
        if version == self.version:  # nothing changed while we read: safe to keep
            if len(self._rendered) > 256:
                self._rendered.clear()
            self._rendered[key] = rendered
        return rendered
