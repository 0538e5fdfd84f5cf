"""Signing a browser in: `/login` turns a one-time code or the token into the session
cookie and redirects to `next` without the secret; without one it explains how to get in.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from litestar import Request, Response, get, post
from litestar.params import FromQuery
from litestar.response import Redirect, Template

from choice.i18n import N_
from choice.web.assets import Assets
from choice.web.auth import LoginRequired, safe_next, session_cookie, token_matches
from choice.web.deps import SignInCodes


def _signed_in(request: Request[Any, Any, Any], target: str | None) -> Redirect:
    response = Redirect(path=safe_next(target), status_code=303)
    response.set_cookie(session_cookie(request.app.state.token))
    return response


def login_page(request: Request[Any, Any, Any], target: str | None, error: str | None,
               status: int = 401) -> Template:
    state = request.app.state
    assets: Assets = state.assets
    return Template(template_name="login.html", status_code=status, context={
        "locale": state.service.language_for(None), "assets": assets, "next": safe_next(target),
        "error": error, "interaction_id": _interaction_in(safe_next(target)),
    }, headers={"Content-Security-Policy": assets.content_security_policy()})


def _interaction_in(path: str) -> str | None:
    return path.removeprefix("/choice/") if path.startswith("/choice/") else None


@get("/login", include_in_schema=False)
async def login(request: Request[Any, Any, Any], codes: SignInCodes,
                token: FromQuery[str | None] = None, code: FromQuery[str | None] = None,
                next: FromQuery[str | None] = None) -> Response[Any]:
    if code is not None:
        if codes.redeem(code):
            return _signed_in(request, next)
        return login_page(request, next, N_("That sign-in link has expired or was already used."))
    if token is not None:
        if token_matches(request, token):
            return _signed_in(request, next)
        return login_page(request, next, N_("That token is not this portal's token."))
    return login_page(request, next, None, status=200)


@post("/login", include_in_schema=False, status_code=303)
async def login_form(request: Request[Any, Any, Any]) -> Response[Any]:
    form = parse_qs((await request.body()).decode(errors="replace"))
    token, target = form.get("token", [""])[0], form.get("next", ["/"])[0]
    if token_matches(request, token):
        return _signed_in(request, target)
    return login_page(request, target, N_("That token is not this portal's token."))


def login_required_handler(request: Request[Any, Any, Any], _exc: LoginRequired) -> Response[Any]:
    """Pages without a session show the sign-in page; partials and sockets get a plain 401."""
    if request.headers.get("hx-request"):
        return Response({"errors": [{"field": "session", "code": "unauthorized",
                                     "message": "sign in again"}]}, status_code=401)
    return login_page(request, request.url.path, None)

