"""`POST /api/login-links`: a one-time sign-in link for a browser (what `choice open`
prints or opens). Bearer token only: the link is as good as a session for 60 seconds."""

from __future__ import annotations

from typing import Any

from litestar import Request, post

from choice.contract.field_errors import parse_model
from choice.contract.model import Model
from choice.web.api.body import json_body
from choice.web.api.openapi import BODY_ERRORS, body_of, errors
from choice.web.deps import PortalSettings, SignInCodes
from choice.web.security.auth import login_link, safe_next
from choice.web.security.guards import BEARER, bearer_token_guard


class LoginLinkRequest(Model):
    next: str | None = None
    """Where the link lands, a path on this portal (anything else means `/`)."""


# Hand-documented (`body_of`): the body may be left out entirely, and Litestar documents every
# typed `data` as a required body.
@post("/api/login-links", guards=[bearer_token_guard], security=BEARER, tags=["login"],
      status_code=201,
      operation_class=body_of(LoginLinkRequest, required=False),
      responses=errors(*BODY_ERRORS))
async def create_login_link(request: Request[Any, Any, Any], settings: PortalSettings,
                            codes: SignInCodes) -> dict[str, str]:
    """Body `{"next": "/choice/<id>"}` (optional). The link expires in 60 s, single use.
    Read with `json_body` like every `/api` body: a form or text/plain post is a 415."""
    body = parse_model(LoginLinkRequest, await json_body(request, optional=True))
    return {"url": login_link(settings, codes, safe_next(body.next or "/"))}
