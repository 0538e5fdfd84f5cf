"""A participant's page, `/d/<secret>`: the widened question, the people in it, the thread,
a comment box and their vote. The link's secret is the only credential (no session, no
cookie is set or read); it reaches this one question and nothing else. In team mode the
same page is a member's at `/widened/<id>` (`MemberParticipantPages`), reached with their
session instead of a secret, for a question widened to them.

Server-rendered and complete without script: the comment and vote forms post here and
redirect back (post/redirect/get), and "Show earlier" is a link to the page showing that
window of the thread (`?before=`). With HTMX the forms swap their own form and "Show earlier"
brings the page before in place; the live side (other people's comments and votes) comes
over `WS /ws/d/<secret>` (`participant_socket.py`). A page shows 20 comments at a time:
what one request renders is bounded however long the thread is.
Every change goes through `InteractionService.team`, as the JSON API's do. An unknown,
malformed or withdrawn link is the same calm 404 page, which says nothing of whether it
ever existed. This page must not link to the owner's pages.
"""

from __future__ import annotations

from typing import Any

from litestar import Controller, Response, get, post
from litestar.params import FromQuery
from litestar.plugins.htmx import HTMXRequest
from litestar.response import Redirect, Template
from markupsafe import Markup
from msgspec import Struct

from choice.contract import FieldError
from choice.contract.clock import now
from choice.contract.errors import NotFound, NotWidened, TooManyComments
from choice.contract.field_errors import InvalidInput, parse_model
from choice.core.i18n import N_, SUPPORTED, Translator
from choice.core.service import InteractionService
from choice.store.records import Participant
from choice.team.links import member_path
from choice.team.models import CommentBody, VoteBody
from choice.team.rate_limit import RateLimited
from choice.team.service import TeamService, UnknownLink
from choice.team.thread import CURSOR_MAX, NEWEST, PAGE_SHOWN, SHOWN_MAX, Window, page_cursor
from choice.web.deps import Service, Team, WebAssets
from choice.web.pages.error_pages import participant_page
from choice.web.pages.forms import first, read_form, typed_text
from choice.web.pages.html import Fragment, Page
from choice.web.pages.routes import VARY_ON_HTMX
from choice.web.security.auth import Access, session_guard
from choice.web.security.participant_links import is_link_preview, participant_using
from choice.web.views.assets import Assets
from choice.web.views.decision import shared_decision
from choice.web.views.js_messages import js_catalog
from choice.web.views.person_errors import person_message
from choice.web.views.team import (
    chosen_language,
    participant_view,
    thread_urls_of,
    thread_view,
)

CLOSED = N_("The discussion has ended: nothing was added.")
VOTE_SAVED = N_("Your vote is saved.")
VOTE_CLEARED = N_("Your vote is withdrawn.")
DISCUSSION, LIVE = "partials/_discussion.html", "partials/_discussion_live.html"
RATE_LIMITED = N_("Too many comments in a minute: wait {seconds} s and send it again.")
VOTES_LIMITED = N_("You changed your vote many times in a minute: wait {seconds} s, then "
                   "send the vote you settled on.")
DISCUSSION_FULL = N_("This discussion holds {limit} comments, the most it takes: nothing was "
                     "added. Your vote still counts.")
LINK_FULL = N_("You have written {limit} comments here, the most one person can: nothing was "
               "added. Your vote still counts.")
EARLIER = "partials/_thread_earlier.html"


def link_gone(service: InteractionService, assets: Assets, lang: str | None,
              request: HTMXRequest) -> Template:
    """The one answer for every link that opens nothing: no hint whether it ever existed."""
    return participant_page(assets, chosen_language(service, None, lang, request.headers))


class Reader(Struct, frozen=True):
    """One request from a participant: who they are, and how to answer them (a fragment
    for HTMX, the whole page without script)."""

    request: HTMXRequest
    service: InteractionService
    team: TeamService
    assets: Assets
    participant: Participant
    base: str
    """The page's path: `/d/<secret>`, or a member's `/widened/<id>` (team mode)."""
    lang: str | None

    @property
    def chosen(self) -> str:
        """`?lang=` when it names a language we have, else empty."""
        return self.lang if self.lang in SUPPORTED and self.lang else ""

    @property
    def query(self) -> str:
        return f"?lang={self.chosen}" if self.chosen else ""

    async def show(self, *, status: int = 200, partial: str | None = None,
                   opening: bool = False, htmx: dict[str, Any] | None = None,
                   window: Window = NEWEST, **extra: Any) -> Response[Any]:
        team, service = self.team, self.service
        try:
            if opening:
                discussion = await team.open_link(self.participant, window)
            else:
                discussion = await team.discussion(self.participant.interaction_id,
                                                   window=window)
        except NotFound:  # retention removed the question: the link opens nothing now
            return link_gone(service, self.assets, self.lang, self.request)
        locale = chosen_language(service, discussion.row, self.lang, self.request.headers)
        view = participant_view(discussion, self.participant, base=self.base,
                                lang=self.chosen, window=window.before is not None)
        shared = shared_decision(discussion.row, discussion.decision, discussion.quorum,
                                     len(view.people))
        if partial == LIVE and "thread_reset" not in extra:
            # Caught up from `since`: a full page may have left a gap before it, so it takes
            # the place of the page's thread (with "Show earlier") instead of joining it.
            extra["thread_reset"] = len(discussion.comments) >= SHOWN_MAX
        if partial == LIVE and not view.open:  # it ended meanwhile: the page shows how
            partial, htmx = DISCUSSION, {"re_target": "#discussion", "re_swap": "outerHTML"}
        context = {"view": view, "locale": locale, "shared": shared,
                   "base": self.base, "lang": self.chosen, **extra}
        if partial is not None:
            return Fragment(template_name=partial, status_code=status, headers=VARY_ON_HTMX,
                            context=context, **(htmx or {}))
        context.update({
            "assets": self.assets, "fallback_script": Markup(self.assets.fallback_script),
            "js_catalog": js_catalog(locale),
            "page_config": {"ws_path": f"/ws{self.base}{self.query}", "interaction_id": None,
                            "discussion_path": self.base, "lang": context["lang"],
                            "server_now_ms": round(now() * 1000), "notifications": "never"},
        })
        return Page(template_name="participant.html", status_code=status, context=context,
                    headers=VARY_ON_HTMX)

    async def earlier(self, before: int | None) -> Response[Any]:
        """The 20 comments before `before`, as the list items "Show earlier" swaps in."""
        try:
            row = await self.service.get(self.participant.interaction_id)
            page = await self.team.comments(row.id, before, PAGE_SHOWN)
        except NotFound:
            return link_gone(self.service, self.assets, self.lang, self.request)
        thread = thread_view(page, thread_urls_of(base=self.base, lang=self.chosen),
                             participant=True)
        locale = chosen_language(self.service, row, self.lang, self.request.headers)
        return Fragment(template_name=EARLIER, headers=VARY_ON_HTMX,
                        context={"thread": thread, "locale": locale})

    async def said(self, error: FieldError) -> str:
        """A refused comment's or vote's error as a sentence for this reader, in the page's
        language (the domain's message is written for an API client)."""
        row = await self.service.get(self.participant.interaction_id)
        said = Translator(chosen_language(self.service, row, self.lang, self.request.headers))
        return person_message(error, said)

    async def again(self, status: int, partial: str, **shown: Any) -> Response[Any]:
        """A form that was refused: the same form with the message and what was typed (a
        429 says when to try again in `Retry-After`, as the JSON API's does)."""
        response = await self.show(status=status,
                                   partial=partial if self.request.htmx else None, **shown)
        if "retry_after" in shown:
            response.headers["retry-after"] = str(shown["retry_after"])
        return response

    async def closed(self) -> Response[Any]:
        """The question ended meanwhile: its outcome, the whole discussion read-only."""
        if self.request.htmx:
            return await self.show(status=409, partial=DISCUSSION,
                                   notice=CLOSED,
                                   htmx={"re_target": "#discussion", "re_swap": "outerHTML"})
        return await self.show(status=409, notice=CLOSED)

    def back(self, anchor: str) -> Redirect:
        return Redirect(path=f"{self.base}{self.query}#{anchor}", status_code=303,
                        headers=VARY_ON_HTMX)


class ParticipantPages(Controller):
    """`/d/<secret>`: the page, its partial, and the two forms."""

    path = "/d/{secret:str}"
    include_in_schema = False

    async def _participant(self, request: HTMXRequest, team: TeamService, *,
                           using: bool) -> tuple[Participant, str]:
        """The request's participant and their page's path; `UnknownLink` for none."""
        secret = str(request.path_params["secret"])
        participant = await (participant_using(team, secret) if using
                             else team.participant(secret))
        return participant, f"/d/{secret}"  # well-formed: `team.participant` checked its shape

    async def _reader(self, request: HTMXRequest, service: InteractionService,
                      team: TeamService, assets: Assets, lang: str | None, *,
                      using: bool = False) -> Reader | None:
        """`using`: the request is the person's act (a comment, a vote), which opens the
        link like the page does, even when it never loaded (a form posted by a script)."""
        try:
            participant, base = await self._participant(request, team, using=using)
        except UnknownLink:
            return None
        return Reader(request, service, team, assets, participant, base, lang)

    @get("/")
    async def page(self, request: HTMXRequest, service: Service, team: Team, assets: WebAssets,
                   lang: FromQuery[str | None] = None,
                   before: FromQuery[str | None] = None) -> Response[Any]:
        """The page; `?before=` (a "Show earlier" followed without script): the 20 comments
        before that one instead of the newest."""
        reader = await self._reader(request, service, team, assets, lang)
        if reader is None:
            return link_gone(service, assets, lang, request)
        return await reader.show(opening=not is_link_preview(request.headers.get("user-agent")),
                                 window=Window(before=page_cursor(before)))

    @get("/comments")
    async def earlier(self, request: HTMXRequest, service: Service, team: Team,
                      assets: WebAssets,
                      lang: FromQuery[str | None] = None,
                      before: FromQuery[str | None] = None) -> Response[Any]:
        """"Show earlier" (HTMX): the 20 comments before `before`, as list items."""
        reader = await self._reader(request, service, team, assets, lang)
        if reader is None:
            return link_gone(service, assets, lang, request)
        return await reader.earlier(page_cursor(before))

    @get("/partial")
    async def partial(self, request: HTMXRequest, service: Service, team: Team, assets: WebAssets,
                      lang: FromQuery[str | None] = None) -> Response[Any]:
        """The whole discussion, for a page whose question just ended (or that reconnected)."""
        reader = await self._reader(request, service, team, assets, lang)
        if reader is None:
            return link_gone(service, assets, lang, request)
        return await reader.show(partial=DISCUSSION)

    @get("/live")
    async def live(self, request: HTMXRequest, service: Service, team: Team, assets: WebAssets,
                   lang: FromQuery[str | None] = None,
                   after: FromQuery[str | None] = None) -> Response[Any]:
        """What moves on the page (thread, tally, people), for a page that (re)connected:
        the comments after `after` (the newest the page has), or without it, or when more
        than 100 came meanwhile, the newest page of the thread in place of the page's."""
        reader = await self._reader(request, service, team, assets, lang)
        if reader is None:
            return link_gone(service, assets, lang, request)
        newest = page_cursor(after)
        if newest is None:
            return await reader.show(partial=LIVE, thread_reset=True)
        since = min(newest + 1, CURSOR_MAX)  # the largest cursor: nothing can be newer
        return await reader.show(partial=LIVE, window=Window(limit=0, since=since))

    @post("/comment")
    async def comment(self, request: HTMXRequest, service: Service, team: Team, assets: WebAssets
                      ) -> Response[Any]:
        form = await read_form(request)
        lang, text = first(form, "lang") or None, typed_text(form, "text")
        reader = await self._reader(request, service, team, assets, lang, using=True)
        if reader is None:
            return link_gone(service, assets, lang, request)
        participant = reader.participant
        try:
            body = parse_model(CommentBody, {"text": text})
            posted = await reader.team.comment(participant.interaction_id, body, participant)
        except InvalidInput as invalid:
            return await reader.again(422, "partials/_comment_form.html", comment_text=text,
                                      comment_error=await reader.said(invalid.errors[0]))
        except RateLimited as limited:
            return await reader.again(429, "partials/_comment_form.html", comment_text=text,
                                      comment_error=RATE_LIMITED,
                                      retry_after=limited.retry_after)
        except TooManyComments as full:
            return await reader.again(409, "partials/_comment_form.html", comment_text=text,
                                      comment_error=LINK_FULL if full.per == "link"
                                      else DISCUSSION_FULL, comment_limit=full.limit)
        except NotWidened:
            return await reader.closed()
        if not request.htmx:
            return reader.back("thread")
        return await reader.show(partial="partials/_comment_posted.html", posted_id=posted.id)

    @post("/vote")
    async def vote(self, request: HTMXRequest, service: Service, team: Team, assets: WebAssets
                   ) -> Response[Any]:
        """`option` (any number; none, or `action=clear`, withdraws the vote)."""
        form = await read_form(request)
        lang = first(form, "lang") or None
        reader = await self._reader(request, service, team, assets, lang, using=True)
        if reader is None:
            return link_gone(service, assets, lang, request)
        picked = ([] if first(form, "action") == "clear"
                  else [value for value in form.get("option", []) if value])
        try:
            await reader.team.vote(reader.participant,
                                    parse_model(VoteBody, {"option_ids": picked}))
        except InvalidInput as invalid:
            return await reader.again(422, "partials/_vote_form.html",
                                      vote_error=await reader.said(invalid.errors[0]))
        except RateLimited as limited:
            return await reader.again(429, "partials/_vote_form.html", vote_error=VOTES_LIMITED,
                                      retry_after=limited.retry_after)
        except NotWidened:
            return await reader.closed()
        if not request.htmx:
            return reader.back("vote")
        return await reader.show(partial="partials/_vote_form.html",
                                 vote_notice=VOTE_SAVED if picked else VOTE_CLEARED)


class MemberParticipantPages(ParticipantPages):
    """Team mode: `/widened/<id>`, the same page for a member a question is widened to,
    reached with their own session instead of a secret link. Anyone else (the owner, a
    member it is not widened to, a member whose invitation was withdrawn) gets the page a
    link that opens nothing gets."""

    path = "/widened/{question_id:str}"
    guards = [session_guard]  # noqa: RUF012 - Litestar reads it from the class

    async def _participant(self, request: HTMXRequest, team: TeamService, *,
                           using: bool) -> tuple[Participant, str]:
        question_id = str(request.path_params["question_id"])
        access: Access = request.auth
        participant = await team.member_participant(question_id, access.member_id)
        if using and participant.opened_at is None:
            await team.open_link(participant)
        return participant, member_path(participant.interaction_id)
