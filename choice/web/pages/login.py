"""Signing a browser in and out: `/login` turns a one-time code or the token into a new
session (its cookie) and redirects to `next` without the secret; without one it explains how
to get in. `POST /logout` (the header's button) ends the session and drops the cookie.
Team mode replaces `/login` with `team_sign_in.py`'s; logout is the same for both.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, quote

from litestar import Request, Response, get, post
from litestar.params import FromQuery
from litestar.plugins.htmx import HTMXRequest
from litestar.response import Redirect, Template
from litestar.types import ExceptionHandler

from choice.core.i18n import N_
from choice.core.service import InteractionService
from choice.web.deps import PortalCredentials, Service, SignInCodes, WebAssets
from choice.web.pages.html import Page
from choice.web.pages.routes import VARY_ON_HTMX
from choice.web.security.auth import Credentials, LoginRequired, safe_next, session_guard
from choice.web.views.assets import Assets
from choice.web.views.browser_language import page_language


async def _signed_in(request: Request[Any, Any, Any], credentials: Credentials,
                     target: str | None) -> Redirect:
    """A new session for this browser, whatever cookie it came with (a sign-in never takes
    up an id it did not make)."""
    sessions, host = credentials.sessions, request.headers.get("host", "")
    response = Redirect(path=safe_next(target), status_code=303)
    response.set_cookie(sessions.cookie(host, await sessions.begin()))
    return response


def login_page(request: Request[Any, Any, Any], service: InteractionService, assets: Assets,
               target: str | None, error: str | None, status: int = 401) -> Template:
    return Page(template_name="login.html", status_code=status, context={
        "locale": page_language(service, request), "assets": assets, "next": safe_next(target),
        "error": error, "interaction_id": _interaction_in(safe_next(target)),
    })


def _interaction_in(path: str) -> str | None:
    return path.removeprefix("/choice/") if path.startswith("/choice/") else None


@get("/login", include_in_schema=False)
async def login(request: Request[Any, Any, Any], service: Service, assets: WebAssets,
                codes: SignInCodes, credentials: PortalCredentials,
                token: FromQuery[str | None] = None, code: FromQuery[str | None] = None,
                next: FromQuery[str | None] = None) -> Response[Any]:
    if code is not None:
        if await codes.redeem(code):
            return await _signed_in(request, credentials, next)
        return login_page(request, service, assets, next,
                          N_("That sign-in link has expired or was already used."))
    if token is not None:
        if credentials.token_matches(token):
            return await _signed_in(request, credentials, next)
        return login_page(request, service, assets, next, N_("That token is not this portal's token."))
    return login_page(request, service, assets, next, None, status=200)


@post("/login", include_in_schema=False, status_code=303)
async def login_form(request: Request[Any, Any, Any], service: Service, assets: WebAssets,
                     credentials: PortalCredentials) -> Response[Any]:
    form = parse_qs((await request.body()).decode(errors="replace"))
    token, target = form.get("token", [""])[0], form.get("next", ["/"])[0]
    if credentials.token_matches(token):
        return await _signed_in(request, credentials, target)
    return login_page(request, service, assets, target, N_("That token is not this portal's token."))


@post("/logout", include_in_schema=False, status_code=303, guards=[session_guard])
async def logout(request: Request[Any, Any, Any], credentials: PortalCredentials) -> Redirect:
    """End this browser's session (Origin-checked like every POST) and drop its cookie.
    Without a live session there is nothing to end: the sign-in page, like any owner page."""
    value = credentials.session_of(request)
    if value is not None:
        await credentials.sessions.end(value)
    # Team mode: `/login` would sign them straight back in through the provider's session.
    response = Redirect(path="/signed-out" if credentials.team_mode else "/login",
                        status_code=303)
    response.set_cookie(credentials.sessions.cleared(request.headers.get("host", "")))
    return response


def login_required_handler(service: InteractionService, assets: Assets,
                           team_mode: bool = False) -> ExceptionHandler[LoginRequired]:
    """Pages without a session show the sign-in page (team mode: go through `/login` to
    the provider, back to this page); partials and sockets get a plain 401.
    Made by the app factory: an exception handler gets no dependency injection."""

    def handle(request: Request[Any, Any, Any], _exc: LoginRequired) -> Response[Any]:
        # HTMXPlugin makes every request an HTMXRequest, exception handlers' included.
        if isinstance(request, HTMXRequest) and request.htmx:
            return Response({"errors": [{"field": "session", "code": "unauthorized",
                                         "message": "sign in again"}]}, status_code=401,
                            headers=VARY_ON_HTMX)
        if team_mode:
            return Redirect(path=f"/login?next={quote(request.url.path, safe='/')}",
                            status_code=303, headers=VARY_ON_HTMX)
        page = login_page(request, service, assets, request.url.path, None)
        page.headers.update(VARY_ON_HTMX)
        return page

    return handle
