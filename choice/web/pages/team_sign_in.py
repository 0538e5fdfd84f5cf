"""Team mode's sign-in pages: `GET /login` sends the browser straight to the OpenID
provider, `GET /auth/callback` ends the sign-in with a member's session and a redirect to
`next` (a path on this portal only), and `GET /signed-out` is where `POST /logout` lands
(in team mode `/login` would sign the person straight back in through the provider's own
session).

What cannot end in a session gets a page, never a redirect into `/login` (which would loop
on the provider's session): a callback no sign-in of this browser waits for (400), a
person the portal does not let in (403), the provider down or answering nonsense (503;
nothing is written). The rules are `web/security/team_sign_in.py`'s.
"""

from __future__ import annotations

import logging
from typing import Annotated, Any

from litestar import Request, Response, get
from litestar.params import FromQuery, QueryParameter
from litestar.response import Redirect, Template

from choice.core.i18n import N_
from choice.core.service import InteractionService
from choice.web.deps import PortalCredentials, Service, TeamSignInFlow, WebAssets
from choice.web.pages.html import Page
from choice.web.security.sign_in_errors import ProviderUnavailable, SignInRejected
from choice.web.security.team_sign_in import (
    ATTEMPT_COOKIE,
    CALLBACK_PATH,
    BadCallback,
    NotAllowed,
)
from choice.web.views.assets import Assets
from choice.web.views.browser_language import page_language

log = logging.getLogger("choice")

PROVIDER_DOWN = N_("The sign-in service cannot be reached just now. Nothing was changed: "
                   "try again in a minute.")
REFUSED = {
    "domain": N_("This portal is open to some email domains only, and {email} is not in "
                 "one of them. Sign in at the provider with your work account, or ask the "
                 "portal's admin to allow your domain."),
    "unverified": N_("The sign-in service has not verified your email address. Verify it "
                     "there, then sign in again."),
    "taken": N_("Another member of this portal already has the email {email}. Ask the "
                "portal's admin to remove the old member."),
}
BAD_CALLBACK = N_("This sign-in was not started here, was already used, or took too long. "
                  "Start again from the portal's address.")
REJECTED = N_("The sign-in service's answer could not be verified. Start again from the "
              "portal's address; if it happens again, tell the portal's admin.")


def team_page(request: Request[Any, Any, Any], service: InteractionService, assets: Assets,
              status: int,
              title: str, message: str | None, email: str | None = None,
              again: bool = False) -> Template:
    """`again`: offer the way back in (never on a refusal: the provider would only sign
    the same person in again)."""
    return Page(template_name="team_sign_in.html", status_code=status, context={
        "locale": page_language(service, request), "assets": assets, "title": title,
        "message": message, "email": email, "again": again})


@get("/login", include_in_schema=False)
async def team_login(request: Request[Any, Any, Any], service: Service, assets: WebAssets,
                     team_sign_in: TeamSignInFlow, next: FromQuery[str | None] = None) -> Response[Any]:
    """Straight to the provider's authorization endpoint (state, nonce, PKCE S256)."""
    flow = team_sign_in
    host = request.headers.get("host", "")
    try:
        started = await flow.start(host, next)
    except ProviderUnavailable as exc:
        log.warning("team sign-in: the provider cannot be reached: %s", exc)
        return team_page(request, service, assets, 503, N_("Sign-in is unavailable"),
                         PROVIDER_DOWN, again=True)
    response = Redirect(path=started.url, status_code=303)
    response.set_cookie(started.cookie)
    return response


@get(CALLBACK_PATH, include_in_schema=False)
async def auth_callback(request: Request[Any, Any, Any], service: Service, assets: WebAssets,
                        credentials: PortalCredentials, team_sign_in: TeamSignInFlow,
                        given_state: Annotated[str | None, QueryParameter(name="state")] = None,
                        code: FromQuery[str | None] = None,
                        error: FromQuery[str | None] = None) -> Response[Any]:
    """`state` is read as `given_state`: Litestar reserves the name for the app's state."""
    flow = team_sign_in
    host = request.headers.get("host", "")
    try:
        if error is not None:
            raise SignInRejected(f"the provider answered error={error!r}")
        member, target = await flow.finish(given_state, code, request.cookies.get(ATTEMPT_COOKIE))
    except BadCallback as exc:
        log.info("team sign-in: %s", exc)
        page = team_page(request, service, assets, 400, N_("Sign-in failed"), BAD_CALLBACK,
                         again=True)
    except NotAllowed as exc:
        log.info("team sign-in refused (%s): %s", exc.reason, exc.email)
        page = team_page(request, service, assets, 403, N_("You cannot sign in here"),
                         REFUSED[exc.reason], email=exc.email)
    except ProviderUnavailable as exc:
        log.warning("team sign-in: the provider cannot be reached: %s", exc)
        page = team_page(request, service, assets, 503, N_("Sign-in is unavailable"),
                         PROVIDER_DOWN, again=True)
    except SignInRejected as exc:
        log.warning("team sign-in rejected: %s", exc)
        page = team_page(request, service, assets, 403, N_("Sign-in failed"), REJECTED,
                         again=True)
    else:
        response: Response[Any] = Redirect(path=target, status_code=303)
        sessions = credentials.sessions
        response.set_cookie(sessions.cookie(host, await sessions.begin(member.id)))
        response.set_cookie(flow.cleared(host))
        return response
    page.set_cookie(flow.cleared(host))
    return page


@get("/signed-out", include_in_schema=False)
async def signed_out(request: Request[Any, Any, Any], service: Service,
                     assets: WebAssets) -> Template:
    return team_page(request, service, assets, 200, N_("You are signed out"), None,
                     again=True)
