"""A participant's page, `/d/<secret>`: the widened question, the people in it, the thread,
a comment box and their vote. The link's secret is the only credential (no session, no
cookie is set or read); it reaches this one question and nothing else.

Server-rendered and complete without script: the comment and vote forms post here and
redirect back (post/redirect/get). With HTMX they swap their own form; the live side (other
people's comments and votes) comes over `WS /ws/d/<secret>` (`participant_socket.py`).
Every change goes through `InteractionService.team`, as the JSON API's do. An unknown,
malformed or withdrawn link is the same calm 404 page, which says nothing of whether it
ever existed. This page must not link to the owner's pages.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from litestar import Controller, Response, get, post
from litestar.params import FromPath, FromQuery
from litestar.plugins.htmx import HTMXRequest, HTMXTemplate
from litestar.response import Redirect, Template
from markupsafe import Markup

from choice.contract.clock import now
from choice.contract.errors import NotFound, NotWidened
from choice.contract.field_errors import InvalidInput, parse_model
from choice.core.i18n import N_, SUPPORTED
from choice.core.service import InteractionService
from choice.store.records import Participant
from choice.team.models import CommentBody, VoteBody
from choice.team.rate_limit import RateLimited
from choice.team.service import TeamService, UnknownLink
from choice.web.deps import Service, Team, WebAssets
from choice.web.pages.forms import first, read_form, typed_text
from choice.web.pages.routes import VARY_ON_HTMX
from choice.web.security.participant_links import is_link_preview, participant_using
from choice.web.views.assets import Assets
from choice.web.views.decision import shared_decision
from choice.web.views.js_messages import js_catalog
from choice.web.views.team import chosen_language, participant_view

CLOSED = N_("The discussion has ended: nothing was added.")
VOTE_SAVED = N_("Your vote is saved.")
VOTE_CLEARED = N_("Your vote is withdrawn.")
DISCUSSION, LIVE = "partials/_discussion.html", "partials/_discussion_live.html"
RATE_LIMITED = N_("Too many comments in a minute: wait {seconds} s and send it again.")


def link_gone(service: InteractionService, assets: Assets, lang: str | None) -> Template:
    """The one answer for every link that opens nothing: no hint whether it ever existed."""
    return Template(template_name="link_gone.html", status_code=404, context={
        "locale": lang if lang in SUPPORTED else service.language_for(None), "assets": assets})


@dataclass(frozen=True)
class Reader:
    """One request from a participant: who they are, and how to answer them (a fragment
    for HTMX, the whole page without script)."""

    request: HTMXRequest
    service: InteractionService
    team: TeamService
    assets: Assets
    participant: Participant
    secret: str
    lang: str | None

    @property
    def base(self) -> str:
        return f"/d/{self.secret}"  # well-formed: `team.participant` checked its shape

    @property
    def query(self) -> str:
        return f"?lang={self.lang}" if self.lang in SUPPORTED else ""

    async def show(self, *, status: int = 200, partial: str | None = None,
                   opening: bool = False, htmx: dict[str, Any] | None = None,
                   **extra: Any) -> Response[Any]:
        team, service = self.team, self.service
        try:
            if opening:
                discussion = await team.open_link(self.participant)
            else:
                discussion = await team.discussion(self.participant.interaction_id)
        except NotFound:  # retention removed the question: the link opens nothing now
            return link_gone(service, self.assets, self.lang)
        locale = chosen_language(service, discussion.row, self.lang)
        view = participant_view(discussion, self.participant)
        shared = shared_decision(discussion.row, discussion.decision, len(view.people))
        if partial == LIVE and not view.open:  # it ended meanwhile: the page shows how
            partial, htmx = DISCUSSION, {"re_target": "#discussion", "re_swap": "outerHTML"}
        context = {"view": view, "locale": locale, "shared": shared,
                   "base": self.base, "lang": self.lang if self.lang in SUPPORTED else "",
                   **extra}
        if partial is not None:
            return HTMXTemplate(template_name=partial, status_code=status, headers=VARY_ON_HTMX,
                                context=context, **(htmx or {}))
        context.update({
            "assets": self.assets, "fallback_script": Markup(self.assets.fallback_script),
            "js_catalog": js_catalog(locale),
            "page_config": {"ws_path": f"/ws{self.base}{self.query}", "interaction_id": None,
                            "discussion_path": self.base, "lang": context["lang"],
                            "server_now_ms": round(now() * 1000), "notifications": "never"},
        })
        return Template(template_name="participant.html", status_code=status, context=context,
                        headers=VARY_ON_HTMX)

    async def again(self, status: int, partial: str, **shown: Any) -> Response[Any]:
        """A form that was refused: the same form with the message and what was typed."""
        return await self.show(status=status, partial=partial if self.request.htmx else None,
                               **shown)

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

    @staticmethod
    async def _reader(request: HTMXRequest, service: InteractionService, team: TeamService,
                      assets: Assets, secret: str, lang: str | None, *,
                      using: bool = False) -> Reader | None:
        """`using`: the request is the person's act (a comment, a vote), which opens the
        link like the page does, even when it never loaded (a form posted by a script)."""
        try:
            participant = await (participant_using(team, secret) if using
                                 else team.participant(secret))
        except UnknownLink:
            return None
        return Reader(request, service, team, assets, participant, secret, lang)

    @get("/")
    async def page(self, request: HTMXRequest, service: Service, team: Team, assets: WebAssets,
                   secret: FromPath[str], lang: FromQuery[str | None] = None) -> Response[Any]:
        reader = await self._reader(request, service, team, assets, secret, lang)
        if reader is None:
            return link_gone(service, assets, lang)
        return await reader.show(opening=not is_link_preview(request.headers.get("user-agent")))

    @get("/partial")
    async def partial(self, request: HTMXRequest, service: Service, team: Team, assets: WebAssets,
                      secret: FromPath[str], lang: FromQuery[str | None] = None) -> Response[Any]:
        """The whole discussion, for a page whose question just ended (or that reconnected)."""
        reader = await self._reader(request, service, team, assets, secret, lang)
        if reader is None:
            return link_gone(service, assets, lang)
        return await reader.show(partial=DISCUSSION)

    @get("/live")
    async def live(self, request: HTMXRequest, service: Service, team: Team, assets: WebAssets,
                   secret: FromPath[str], lang: FromQuery[str | None] = None) -> Response[Any]:
        """What moves on the page (thread, tally, people), for a page that (re)connected."""
        reader = await self._reader(request, service, team, assets, secret, lang)
        if reader is None:
            return link_gone(service, assets, lang)
        return await reader.show(partial=LIVE)

    @post("/comment")
    async def comment(self, request: HTMXRequest, service: Service, team: Team, assets: WebAssets,
                      secret: FromPath[str]) -> Response[Any]:
        form = await read_form(request)
        lang, text = first(form, "lang") or None, typed_text(form, "text")
        reader = await self._reader(request, service, team, assets, secret, lang, using=True)
        if reader is None:
            return link_gone(service, assets, lang)
        participant = reader.participant
        try:
            body = parse_model(CommentBody, {"text": text})
            posted = await reader.team.comment(participant.interaction_id, body, participant)
        except InvalidInput as invalid:
            return await reader.again(422, "partials/_comment_form.html", comment_text=text,
                                      comment_error=invalid.errors[0].message)
        except RateLimited as limited:
            return await reader.again(429, "partials/_comment_form.html", comment_text=text,
                                      comment_error=RATE_LIMITED,
                                      retry_after=limited.retry_after)
        except NotWidened:
            return await reader.closed()
        if not request.htmx:
            return reader.back("thread")
        return await reader.show(partial="partials/_comment_posted.html", posted_id=posted.id)

    @post("/vote")
    async def vote(self, request: HTMXRequest, service: Service, team: Team, assets: WebAssets,
                   secret: FromPath[str]) -> Response[Any]:
        """`option` (any number; none, or `action=clear`, withdraws the vote)."""
        form = await read_form(request)
        lang = first(form, "lang") or None
        reader = await self._reader(request, service, team, assets, secret, lang, using=True)
        if reader is None:
            return link_gone(service, assets, lang)
        picked = ([] if first(form, "action") == "clear"
                  else [value for value in form.get("option", []) if value])
        try:
            await reader.team.vote(reader.participant,
                                    parse_model(VoteBody, {"option_ids": picked}))
        except InvalidInput as invalid:
            return await reader.again(422, "partials/_vote_form.html",
                                      vote_error=invalid.errors[0].message)
        except NotWidened:
            return await reader.closed()
        if not request.htmx:
            return reader.back("vote")
        return await reader.show(partial="partials/_vote_form.html",
                                 vote_notice=VOTE_SAVED if picked else VOTE_CLEARED)
