"""HTML pages and the HTMX partials they refresh: `/`, `/choice/{id}`, `/settings`.

Every page needs a browser session (`auth.py`); GETs never change anything, so a link
preview or a prefetch answers nothing.
"""

from __future__ import annotations

from typing import Any

from litestar import Controller, MediaType, Response, get
from litestar.params import FromPath, FromQuery
from litestar.plugins.htmx import HTMXRequest, HTMXTemplate
from litestar.response import Template

from choice.core.service import InteractionService
from choice.store.records import Interaction
from choice.team.thread import Window, page_cursor
from choice.web.deps import Kept, Owner, QuestionLists, Service, WebAssets
from choice.web.pages.context import base_context
from choice.web.pages.html import Fragment, Page
from choice.web.security.auth import Access, session_guard
from choice.web.security.ownership import member_of, signed_in_member
from choice.web.views.browser_language import page_language
from choice.web.views.interactions import soonest_first
from choice.web.views.list_cache import ListCache
from choice.web.views.team import team_context

VARY_ON_HTMX = {"Vary": "HX-Request"}
"""On every response whose form depends on `request.htmx` (a fragment or the page): a cache
must not hand the fragment to a plain load, or the page to a swap."""


LIST_TARGET = "interaction-list"
"""The sidebar list's id: a boosted filter link aims there (`_interaction_list.html`)."""


def page(name: str, context: dict[str, Any], status: int = 200,
         headers: dict[str, str] | None = None) -> Template:
    """A whole page; its CSP comes with every HTML response (`security.protective_headers`)."""
    return Page(template_name=name, context=context, status_code=status, headers=headers)


async def list_alone(request: HTMXRequest, service: InteractionService, lists: ListCache,
                     which: str, current: Interaction | None) -> Response[str]:
    """The sidebar's list by itself (`which`: its filter; `current`: the question shown)."""
    rendered = await lists.render(service, which, current.id if current else None,
                                  page_language(service, request, current),
                                  member_of(request, service.settings.team_mode))
    return Response(str(rendered.html), media_type=MediaType.HTML, headers=VARY_ON_HTMX)


class PageController(Controller):
    guards = [session_guard]  # noqa: RUF012 - Litestar reads it from the class
    include_in_schema = False

    @get("/")
    async def index(self, request: HTMXRequest, service: Service, assets: WebAssets,
                    lists: QuestionLists, filter: FromQuery[str] = "all") -> Response[Any]:
        """The interaction list: where a closed tab comes back to, with the way to the
        question whose time runs out first."""
        if request.htmx and request.htmx.target == LIST_TARGET:
            return await list_alone(request, service, lists, filter, None)
        context = await base_context(request, service, assets, lists, which=filter)
        waiting = soonest_first(await service.recent(
            "active", 100, member_of(request, service.settings.team_mode)))
        context["next_waiting"] = waiting[0] if waiting else None
        return page("index.html", context, headers=VARY_ON_HTMX)

    @get("/choice/{interaction_id:str}")
    async def interaction(self, request: HTMXRequest, service: Service, owner: Owner,
                          assets: WebAssets, lists: QuestionLists, kept: Kept,
                          interaction_id: FromPath[str], before: FromQuery[str | None] = None,
                          filter: FromQuery[str] = "all",
                          shown: FromQuery[str | None] = None) -> Response[Any]:
        """The question, with the list as `?filter=` shows it; `?before=` (a "Show
        earlier" followed without script): its team panel shows the 20 comments before that
        one instead of the newest; `?shown=`: what a form posted without script showed (the
        form as typed with its errors, a step, a notice: `after_post.py`)."""
        row = await service.get(interaction_id)
        if request.htmx and request.htmx.target == LIST_TARGET:
            return await list_alone(request, service, lists, filter, row)
        context = await base_context(request, service, assets, lists, row, which=filter)
        post = kept.shown(shown, row.id, row.status)
        if post is None:
            context["view"] = await owner.page_view(row, window=Window(before=page_cursor(before)))
            return page("choice.html", context, headers=VARY_ON_HTMX)
        context.update(post.extra, view=await owner.page_view(row, **post.view))
        return page("choice.html", context, post.code, headers=VARY_ON_HTMX)

    @get("/settings")
    async def settings(self, request: HTMXRequest, service: Service, assets: WebAssets,
                       lists: QuestionLists) -> Template:
        context = await base_context(request, service, assets, lists)
        access: Access = request.auth
        context.update(team_context(context["prefs"].team), settings_page=True,
                       agent_tokens=access.team,  # team mode: the link to a member's tokens
                       members_link=access.admin)  # and, for an admin, to the members
        return page("settings.html", context)

    @get("/partials/interactions")
    async def interaction_list(self, request: HTMXRequest, service: Service, lists: QuestionLists,
                               filter: FromQuery[str] = "all",
                               current: FromQuery[str | None] = None) -> Response[str]:
        """The list, as the sidebar refreshes it (base.html)."""
        return await list_alone(request, service, lists, filter,
                                await service.get(current) if current else None)

    @get("/choice/{interaction_id:str}/partial")
    async def interaction_partial(self, request: HTMXRequest, service: Service, owner: Owner,
                                  interaction_id: FromPath[str]) -> HTMXTemplate:
        row = await service.get(interaction_id)
        return Fragment(template_name="partials/_interaction.html", context={
            "view": await owner.page_view(row),
            "locale": page_language(service, request, row),
            "prefs": await service.preferences(signed_in_member(request)),
        })

    @get("/choice/{interaction_id:str}/answer-files")
    async def answer_files(self, request: HTMXRequest, service: Service, owner: Owner,
                           interaction_id: FromPath[str]) -> HTMXTemplate:
        """The files attached to the answer being written, for a page told they changed
        (its own upload, a removal, or the terminal's `a`)."""
        row = await service.get(interaction_id)
        return Fragment(template_name="partials/_answer_file_list.html", headers=VARY_ON_HTMX,
                        context={"iid": row.id, "files": await owner.answer_files(row),
                                 "locale": page_language(service, request, row)})
