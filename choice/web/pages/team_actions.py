"""The owner's team side of `/choice/{id}`: the widen dialog (a plain page without script,
`/choice/{id}/widen`), the team panel's refresh, "Show earlier" in its thread, the owner's
comment, and withdrawing a participant's link.

The panel shows the newest 20 comments; a page that brought earlier ones in sends `since`
(the first comment it shows) with a refresh, a comment or a withdrawal, and the panel comes
back from that comment on (at most 100), so what the owner reads does not vanish.

Same shape as `actions.py`: each form post calls `InteractionService.team` (the JSON API's
path) and answers with the swapped fragment for HTMX, or a whole page / a redirect without
script. The participants' links exist only in the widen reply: that reply is rendered
straight from the POST, never through a redirect that would lose them.
"""

from __future__ import annotations

import contextlib
from typing import Any

from litestar import Controller, Response, get, post
from litestar.params import FromPath, FromQuery
from litestar.plugins.htmx import HTMXRequest, HTMXTemplate
from litestar.response import Redirect

from choice.contract.errors import AlreadyCompleted, AlreadyWidened, NotWidened, TooManyComments
from choice.contract.field_errors import InvalidInput, parse_model
from choice.core.actors import Actor
from choice.core.endings import request_of
from choice.core.i18n import N_, Translator
from choice.core.service import InteractionService
from choice.store.records import Interaction
from choice.team.models import CommentBody, WidenRequest
from choice.team.quorum import owner_decides
from choice.team.rate_limit import RateLimited
from choice.team.service import Invited, TeamService, UnknownLink
from choice.team.thread import PAGE_SHOWN, Window, page_cursor
from choice.web.deps import Kept, Owner, QuestionLists, Service, Team, WebAssets
from choice.web.pages.actions import Shown
from choice.web.pages.context import base_context
from choice.web.pages.forms import first, read_form, typed_text, widen_from
from choice.web.pages.html import Fragment
from choice.web.pages.routes import VARY_ON_HTMX, page
from choice.web.security.auth import session_guard
from choice.web.views.assets import Assets
from choice.web.views.browser_language import page_language
from choice.web.views.list_cache import ListCache
from choice.web.views.person_errors import person_errors, person_message
from choice.web.views.team import DiscussionView, thread_urls_of, thread_view
from choice.web.views.widen import WidenForm, shown_hint

ALREADY_WIDENED = N_("This question is already widened: see who was invited on its page.")
ALREADY_OVER = N_("This question is already over: there is nothing to widen.")
NOT_WIDENED = N_("The discussion has ended: nothing was added.")
RATE_LIMITED = N_("Too many comments in a minute: wait {seconds} s and send it again.")
DISCUSSION_FULL = N_("This discussion holds {limit} comments, the most it takes: nothing was "
                     "added. The votes are still coming in; you decide when you are ready.")
CANCELLED = "choice:widen-cancelled"
"""The event a dialog hears when the owner typed `cancel`: it closes, nothing changed."""


def _team_live(service: InteractionService, request: HTMXRequest, row: Interaction,
               team: DiscussionView | None, **extra: Any) -> HTMXTemplate:
    return Fragment(template_name="partials/_team_live.html", headers=VARY_ON_HTMX,
                    context={"team": team, "interaction_id": row.id,
                             "locale": page_language(service, request, row), **extra})


class TeamActions(Controller):
    path = "/choice/{interaction_id:str}"
    guards = [session_guard]  # noqa: RUF012
    include_in_schema = False

    async def _widen_shown(self, request: HTMXRequest, service: InteractionService,
                           assets: Assets, lists: ListCache, row: Interaction, form: WidenForm,
                           status: int = 200) -> Response[Any]:
        if request.htmx:
            return Fragment(template_name="partials/_widen_dialog.html", status_code=status,
                            headers=VARY_ON_HTMX,
                            context={"widen": form, "locale": page_language(service, request, row)})
        context = await base_context(request, service, assets, lists, row)
        context["widen"] = form
        return page("widen.html", context, status, headers=VARY_ON_HTMX)

    async def _form(self, service: InteractionService, team: TeamService, row: Interaction,
                    **values: Any) -> WidenForm:
        prefs = await service.owners_preferences(row)
        team_mode = service.settings.team_mode
        notice = None
        if row.status == "widened":
            notice = ALREADY_WIDENED
        elif row.status != "pending":
            notice = ALREADY_OVER
        return WidenForm(interaction_id=row.id, title=row.title, team=list(prefs.team),
                         hint=shown_hint(request_of(row).widen_hint),
                         owner_decides=owner_decides(request_of(row)),
                         notice=values.pop("notice", None) or notice, team_mode=team_mode,
                         members=await team.members_to_name(row.member_id) if team_mode else [],
                         **values)

    @get("/widen")
    async def widen_form(self, request: HTMXRequest, service: Service, team: Team,
                         assets: WebAssets, lists: QuestionLists,
                         interaction_id: FromPath[str]) -> Response[Any]:
        """The dialog's content (HTMX), or the same form as a page of its own."""
        row = await service.get(interaction_id)
        return await self._widen_shown(request, service, assets, lists, row,
                                       await self._form(service, team, row))

    @post("/widen")
    async def widen(self, request: HTMXRequest, service: Service, team: Team, assets: WebAssets,
                    lists: QuestionLists, interaction_id: FromPath[str]) -> Response[Any]:
        """`names` (comma-separated; empty = the whole team, or nobody else when members
        are ticked; `cancel` = stop), `members` (team mode: emails, one per ticked box),
        `mode`, `note`, `extra_seconds`."""
        form = await read_form(request)
        row = await service.get(interaction_id)
        values, cancelled = widen_from(form)
        if cancelled:
            if request.htmx:
                return Fragment(template_name="partials/_empty.html", headers=VARY_ON_HTMX,
                                re_swap="none", trigger_event=CANCELLED, after="receive",
                                context={})
            return Redirect(path=f"/choice/{row.id}", status_code=303, headers=VARY_ON_HTMX)
        typed = {"names": first(form, "names"), "mode": values["mode"],
                 "note": first(form, "note"), "extra_seconds": _seconds(form),
                 "quorum": first(form, "quorum").strip(), "named": values.get("members", [])}
        try:
            invited = await team.widen(interaction_id, parse_model(WidenRequest, values),
                                               actor=Actor.owner("web"))
        except InvalidInput as invalid:
            said = Translator(page_language(service, request, row))
            shown = await self._form(service, team, row,
                                     errors=person_errors(invalid.errors, said), **typed)
            return await self._widen_shown(request, service, assets, lists, row, shown, 422)
        except (AlreadyWidened, AlreadyCompleted) as refused:
            shown = await self._form(service, team, refused.row, **typed)
            return await self._widen_shown(request, service, assets, lists, refused.row, shown,
                                           409)
        return await self._widen_shown(request, service, assets, lists, invited.row,
                                       await self._invited(service, invited))

    async def _invited(self, service: InteractionService, invited: Invited) -> WidenForm:
        prefs = await service.owners_preferences(invited.row)
        return WidenForm(interaction_id=invited.row.id, title=invited.row.title,
                         team=list(prefs.team), invited=invited)

    @get("/team")
    async def team(self, request: HTMXRequest, service: Service, owner: Owner,
                   interaction_id: FromPath[str], since: FromQuery[str | None] = None) -> HTMXTemplate:
        """The team panel's live part (people, votes, thread), for a page told it changed."""
        row = await service.get(interaction_id)
        return _team_live(service, request, row, await owner.team_view(row, _since(since)))

    @get("/comments")
    async def earlier(self, request: HTMXRequest, service: Service, team: Team,
                      interaction_id: FromPath[str],
                      before: FromQuery[str | None] = None) -> HTMXTemplate:
        """"Show earlier" (HTMX): the 20 comments before `before`, as list items."""
        row = await service.get(interaction_id)
        page = await team.comments(row.id, page_cursor(before), PAGE_SHOWN)
        thread = thread_view(page, thread_urls_of(interaction_id=row.id), participant=False)
        return Fragment(template_name="partials/_thread_earlier.html", headers=VARY_ON_HTMX,
                        context={"thread": thread, "locale": page_language(service, request, row)})

    @post("/comment")
    async def comment(self, request: HTMXRequest, service: Service, owner: Owner, team: Team,
                      kept: Kept, interaction_id: FromPath[str]) -> Response[Any]:
        """The owner's own message in the discussion (`text`)."""
        form = await read_form(request)
        text, window = typed_text(form, "text"), _since(first(form, "since"))
        row = await service.get(interaction_id)
        shown: dict[str, Any] = {"comment_text": text}
        try:
            await team.comment(interaction_id, parse_model(CommentBody, {"text": text}))
            status, shown = 200, {}
        except InvalidInput as invalid:
            status = 422
            shown["comment_error"] = person_message(invalid.errors[0],
                                                    Translator(page_language(service, request, row)))
        except RateLimited as limited:
            status, shown["comment_error"] = 429, RATE_LIMITED
            shown["retry_after"] = limited.retry_after
        except TooManyComments as full:
            status, shown["comment_error"] = 409, DISCUSSION_FULL
            shown["comment_limit"] = full.limit
        except NotWidened:
            status, shown["comment_error"] = 409, NOT_WIDENED
        # a 429 says when to try again, as the JSON API's does
        headers = {**VARY_ON_HTMX, **({"Retry-After": str(shown["retry_after"])}
                                      if "retry_after" in shown else {})}
        if not request.htmx:
            if status == 200:  # post/redirect/get, back to the thread
                return Redirect(path=f"/choice/{row.id}#team-panel", status_code=303,
                                headers=VARY_ON_HTMX)
            row = await service.get(interaction_id)
            answer = await Shown(request, service, owner, kept).show(row, status, **shown)
            answer.headers.update(headers)
            return answer
        return Fragment(template_name="partials/_owner_comment.html", status_code=status,
                        headers=headers, context={
                            "team": await owner.team_view(row, window),
                            "interaction_id": row.id,
                            "locale": page_language(service, request, row), **shown})

    @post("/participants/{participant_id:str}/withdraw")
    async def withdraw(self, request: HTMXRequest, service: Service, owner: Owner, team: Team,
                       interaction_id: FromPath[str],
                       participant_id: FromPath[str]) -> Response[Any]:
        """Withdraw one participant's link at once (already withdrawn: nothing to do)."""
        window = _since(first(await read_form(request), "since"))
        row = await service.get(interaction_id)
        with contextlib.suppress(UnknownLink):  # withdrawn already (another tab): the
            await team.revoke(interaction_id, participant_id, actor=Actor.owner("web"))
        if not request.htmx:
            return Redirect(path=f"/choice/{row.id}#team-panel", status_code=303,
                            headers=VARY_ON_HTMX)
        return _team_live(service, request, row, await owner.team_view(row, window))


def _since(raw: str | None) -> Window:
    """The panel's thread from the comment `raw` on (what the page shows), else the newest."""
    return Window(since=page_cursor(raw))


def _seconds(form: dict[str, list[str]]) -> int:
    raw = first(form, "extra_seconds").strip()
    return int(raw) if raw.isdigit() else 0
