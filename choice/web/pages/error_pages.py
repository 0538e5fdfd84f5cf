"""What a person's browser gets when a request for a page fails: a page in the page's
language that says what happened and what to do, with the way back, under the status code
the JSON error has (a 429 keeps its `Retry-After`).

Page or JSON is decided once, by where the route is. The owner's pages and the
participants' pages are two routers (`app.py`) whose layer carries `for_owner()` and
`for_participant()`; the JSON API, `/mcp`, `/healthz`, `/schema` and the bundles keep the
app's handlers (`errors.py`). Litestar's own 404 and 405 come before any route and reach
only the app's handlers: `unrouted()` answers those with a page unless the path is one of
`MACHINE_PATHS`.

Each page handler wraps the JSON handler for the same exception, which decides the status
and the headers and logs an unexpected error's traceback; the page shows none of its text
(written for agents: it names API paths) and nothing of the exception. An htmx request
(`HX-Request`, unless boosted or restoring history, which want whole pages) gets the JSON
error as before: the pages' script swaps the body of a 409, 422 or 429 and reports any
other status without showing it. Form posts that answer a refusal with the page
themselves (a 409 or 422 showing the form again) never reach these handlers.

A participant's error page is `link_gone.html`: it links only back to their discussion,
since their link is their only credential and they may open nothing of the owner's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias

from litestar import Request, Response
from litestar.plugins.htmx import HTMXRequest
from litestar.response import Template
from litestar.types import ExceptionHandler, ExceptionHandlersMap

from choice.contract.errors import NotFound
from choice.core.i18n import SUPPORTED, Translator
from choice.core.service import InteractionService
from choice.store.records import Interaction
from choice.team.links import well_formed
from choice.web.errors import body_limit
from choice.web.pages.html import Page
from choice.web.pages.routes import VARY_ON_HTMX
from choice.web.security.auth import Access
from choice.web.views.assets import Assets
from choice.web.views.browser_language import page_language
from choice.web.views.person_errors import Problem, page_problem

MACHINE_PATHS = frozenset({"api", "mcp", "healthz", "schema", "static", "ws"})
"""First path segments whose unknown paths answer JSON: what agents, scripts, sockets and
the bundle loader ask for. Every other unknown path is a person's mistyped or old link."""
PARTICIPANT_PATH = "d"
"""`/d/<secret>...`: a participant's pages."""
PageOf: TypeAlias = Callable[[Request[Any, Any, Any], Exception, Response[Any]], Response[Any]]
"""How one audience's page is made from the request, its error and the JSON answer."""


def participant_page(assets: Assets, locale: str, status: int = 404,
                     problem: Problem | None = None, back: str | None = None,
                     headers: dict[str, str] | None = None) -> Template:
    """A participant's error page; without `problem`, the one answer for a link that opens
    nothing (it says nothing of whether it ever existed). `back`: their discussion."""
    return Page(template_name="link_gone.html", status_code=status, headers=headers,
                context={"locale": locale, "assets": assets, "problem": problem,
                         "back": back})


def wants_page(request: Request[Any, Any, Any]) -> bool:
    """A whole page, not the swap of an htmx request."""
    htmx = request.htmx if isinstance(request, HTMXRequest) else None
    return not htmx or htmx.boosted or htmx.history_restore_request


class ErrorPages:
    """The page handlers, each made from the JSON handler for the same exception. Made by
    the app factory: an exception handler gets no dependency injection."""

    def __init__(self, service: InteractionService, assets: Assets,
                 handlers: ExceptionHandlersMap, max_body_bytes: int) -> None:
        self.service = service
        self.assets = assets
        self.handlers = handlers
        """The app's JSON handlers (`errors.exception_handlers`)."""
        self.max_body_bytes = max_body_bytes

    def for_owner(self) -> ExceptionHandlersMap:
        """The owner's pages (and the sign-in page): the way back is the list."""
        return {kind: self._paged(handler, self._owner) for kind, handler in self.handlers.items()}

    def for_participant(self) -> ExceptionHandlersMap:
        """`/d/<secret>`: the way back is the discussion the link opens."""
        return {kind: self._paged(handler, self._participant)
                for kind, handler in self.handlers.items()}

    def unrouted(self) -> ExceptionHandlersMap:
        """The app's own layer: a routed request's error is its JSON; a path no route
        matched answers a page, unless it is the machines'."""
        return {kind: self._unrouted(handler) for kind, handler in self.handlers.items()}

    def _paged(self, handler: ExceptionHandler[Any], page: PageOf) -> ExceptionHandler[Any]:
        def handle(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
            answer = handler(request, exc)
            answer.headers.update(VARY_ON_HTMX)
            return page(request, exc, answer) if wants_page(request) else answer

        return handle

    def _unrouted(self, handler: ExceptionHandler[Any]) -> ExceptionHandler[Any]:
        def handle(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
            answer = handler(request, exc)
            first = request.url.path.strip("/").split("/", 1)[0]
            if (request.scope.get("route_handler") is not None or first in MACHINE_PATHS
                    or not wants_page(request)):
                return answer
            if first == PARTICIPANT_PATH:
                return self._participant(request, exc, answer)
            return self._owner(request, exc, answer)

        return handle

    def _owner(self, request: Request[Any, Any, Any], exc: Exception,
               answer: Response[Any]) -> Response[Any]:
        row = getattr(exc, "row", None)
        locale = page_language(self.service, request,
                               row if isinstance(row, Interaction) else None)
        access = request.scope.get("auth")
        return Page(template_name="error.html", status_code=_status(answer),
                    headers=_kept(answer), context={
                        "locale": locale, "assets": self.assets,
                        "problem": self._problem(request, exc, answer, locale),
                        "signed_in": isinstance(access, Access) and access.session})

    def _participant(self, request: Request[Any, Any, Any], exc: Exception,
                     answer: Response[Any]) -> Response[Any]:
        lang = request.query_params.get("lang")
        chosen = lang if lang in SUPPORTED and lang else None
        locale = chosen or page_language(self.service, request)
        if answer.status_code == 404:
            return participant_page(self.assets, locale, headers=_kept(answer))
        parts = request.url.path.strip("/").split("/")
        back = (f"/{PARTICIPANT_PATH}/{parts[1]}{f'?lang={chosen}' if chosen else ''}"
                if len(parts) > 1 and well_formed(parts[1]) else None)
        return participant_page(self.assets, locale, _status(answer),
                                self._problem(request, exc, answer, locale), back,
                                headers=_kept(answer))

    def _problem(self, request: Request[Any, Any, Any], exc: Exception,
                 answer: Response[Any], locale: str) -> Problem:
        retry_after = str(answer.headers.get("retry-after", ""))
        return page_problem(_status(answer), Translator(locale),
                            question=isinstance(exc, NotFound),
                            size=body_limit(request, self.max_body_bytes),
                            seconds=int(retry_after) if retry_after.isdigit() else 60)


def _kept(answer: Response[Any]) -> dict[str, str]:
    """The JSON answer's headers a page keeps (`Retry-After`, `Allow`, `Vary`), not its
    type."""
    return {name: str(value) for name, value in answer.headers.items()
            if name.lower() not in ("content-type", "content-length")}


def _status(answer: Response[Any]) -> int:
    return answer.status_code or 500
