"""HTML pages and the HTMX partials they refresh: `/`, `/choice/{id}`, `/settings`.

Every page needs a browser session (`auth.py`); GETs never change anything, so a link
preview or a prefetch answers nothing.
"""

from __future__ import annotations

from typing import Any

from litestar import Controller, MediaType, Response, get
from litestar.params import FromPath, FromQuery
from litestar.plugins.htmx import HTMXTemplate
from litestar.response import Template

from choice.team.thread import Window, page_cursor
from choice.web.deps import Owner, QuestionLists, Service, WebAssets
from choice.web.pages.context import base_context
from choice.web.pages.html import Fragment, Page
from choice.web.security.auth import session_guard
from choice.web.views.interactions import soonest_first
from choice.web.views.team import team_context

VARY_ON_HTMX = {"Vary": "HX-Request"}
"""On every response whose form depends on `request.htmx` (a fragment or the page): a cache
must not hand the fragment to a plain load, or the page to a swap."""


def page(name: str, context: dict[str, Any], status: int = 200,
         headers: dict[str, str] | None = None) -> Template:
    """A whole page; its CSP comes with every HTML response (`security.protective_headers`)."""
    return Page(template_name=name, context=context, status_code=status, headers=headers)


class PageController(Controller):
    guards = [session_guard]  # noqa: RUF012 - Litestar reads it from the class
    include_in_schema = False

    @get("/")
    async def index(self, service: Service, assets: WebAssets, lists: QuestionLists,
                    filter: FromQuery[str] = "all") -> Template:
        """The interaction list: where a closed tab comes back to, with the way to the
        question whose time runs out first."""
        context = await base_context(service, assets, lists, which=filter)
        waiting = soonest_first(await service.recent("active", 100))
        context["next_waiting"] = waiting[0] if waiting else None
        return page("index.html", context)

    @get("/choice/{interaction_id:str}")
    async def interaction(self, service: Service, owner: Owner, assets: WebAssets, lists: QuestionLists,
                          interaction_id: FromPath[str],
                          before: FromQuery[str | None] = None) -> Template:
        """The question; `?before=` (a "Show earlier" followed without script): its team
        panel shows the 20 comments before that one instead of the newest."""
        row = await service.get(interaction_id)
        context = await base_context(service, assets, lists, row)
        context["view"] = await owner.page_view(row, window=Window(before=page_cursor(before)))
        return page("choice.html", context)

    @get("/settings")
    async def settings(self, service: Service, assets: WebAssets,
                       lists: QuestionLists) -> Template:
        context = await base_context(service, assets, lists)
        context.update(team_context(context["prefs"].team), settings_page=True)
        return page("settings.html", context)

    @get("/partials/interactions")
    async def interaction_list(self, service: Service, lists: QuestionLists,
                               filter: FromQuery[str] = "all",
                               current: FromQuery[str | None] = None) -> Response[str]:
        row = await service.get(current) if current else None
        rendered = await lists.render(service, filter, current, service.language_for(row))
        return Response(str(rendered.html), media_type=MediaType.HTML)

    @get("/choice/{interaction_id:str}/partial")
    async def interaction_partial(self, service: Service, owner: Owner,
                                  interaction_id: FromPath[str]) -> HTMXTemplate:
        row = await service.get(interaction_id)
        return Fragment(template_name="partials/_interaction.html", context={
            "view": await owner.page_view(row),
            "locale": service.language_for(row),
            "prefs": await service.preferences(),
        })

    @get("/choice/{interaction_id:str}/answer-files")
    async def answer_files(self, service: Service, owner: Owner,
                           interaction_id: FromPath[str]) -> HTMXTemplate:
        """The files attached to the answer being written, for a page told they changed
        (its own upload, a removal, or the terminal's `a`)."""
        row = await service.get(interaction_id)
        return Fragment(template_name="partials/_answer_file_list.html", headers=VARY_ON_HTMX,
                        context={"iid": row.id, "files": await owner.answer_files(row),
                                 "locale": service.language_for(row)})
